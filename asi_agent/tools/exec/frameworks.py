"""Which test framework a project (or one test file) uses, from its configuration and its test files.

pytest where configured or where the tests need it, else unittest for Python; jest, vitest or mocha from
package.json, `node --test` otherwise; go and cargo from their manifests.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

from asi_agent.tools.exec.environment import detect_environment, pytest_command
from asi_agent.tools.exec.lint import iter_project_files

__all__ = ["FRAMEWORKS", "detect_framework", "pytest_style"]

FRAMEWORKS = ("pytest", "unittest", "jest", "vitest", "mocha", "node", "go", "cargo")
"""Every framework `detect_framework` can name."""
_JS_RUNNERS = ("vitest", "jest", "mocha")
_PY_TEST_NAME = re.compile(r"^(test_.*|.*_test)\.py$")
_JS_TEST_NAME = re.compile(r"\.(test|spec)\.[cm]?[jt]sx?$")
_PYTEST_STYLE = re.compile(r"^(def test_|async def test_|import pytest|from pytest|@pytest\.)", re.MULTILINE)


def detect_framework(root: Path, test_file: str | Path | None = None) -> str | None:
    """The test framework of the project (or of `test_file`): one of FRAMEWORKS, or None."""
    if test_file is not None and (found := _framework_of_file(root, Path(test_file).suffix)):
        return found
    if _has_pytest_config(root):
        return "pytest"
    markers = {"go.mod": "go", "Cargo.toml": "cargo"}
    if found := _js_framework(root) or next((v for k, v in markers.items() if (root / k).is_file()), None):
        return found
    names = [path.name for path in iter_project_files(root, root, limit=20_000)]
    if any(_PY_TEST_NAME.match(name) for name in names):
        return _python_framework(root)
    return "node" if any(_JS_TEST_NAME.search(name) for name in names) else None


def _framework_of_file(root: Path, suffix: str) -> str | None:
    """The framework that runs a test file of this kind in this project."""
    if suffix == ".py":
        return "pytest" if _has_pytest_config(root) else _python_framework(root)
    if re.fullmatch(r"\.[cm]?[jt]sx?", suffix):
        return _js_framework(root) or "node"
    return {".go": "go", ".rs": "cargo"}.get(suffix)


def _has_pytest_config(root: Path) -> bool:
    """pytest.ini, a conftest.py, or a pytest section in pyproject.toml, setup.cfg or tox.ini."""
    if any((root / name).is_file() for name in ("pytest.ini", "conftest.py", "tests/conftest.py")):
        return True
    sections = {"pyproject.toml": "[tool.pytest", "setup.cfg": "[tool:pytest]", "tox.ini": "[pytest]"}
    return any(marker in _read(root / name) for name, marker in sections.items())


def _read(path: Path) -> str:
    """A small text file's content, or "" when it is missing or unreadable."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _python_framework(root: Path) -> str:
    """pytest for pytest-style tests or where it is installed (it also runs unittest tests), else unittest."""
    if pytest_style(root) or pytest_command(detect_environment(root)) is not None:
        return "pytest"
    return "unittest"


def pytest_style(root: Path) -> bool:
    """Whether the project's tests need pytest: bare `def test_` functions, `import pytest`, fixtures."""
    names = (p for p in iter_project_files(root, root, limit=20_000) if _PY_TEST_NAME.match(p.name))
    return any(_PYTEST_STYLE.search(_read(path)) for path in itertools.islice(names, 200))


def _js_framework(root: Path) -> str | None:
    """jest, vitest or mocha from package.json's dependencies or test script; node for `node --test`."""
    try:
        package = json.loads(_read(root / "package.json") or "{}")
    except json.JSONDecodeError:
        return None
    if not isinstance(package, dict):
        return None
    deps = {**(package.get("dependencies") or {}), **(package.get("devDependencies") or {})}
    script = str((package.get("scripts") or {}).get("test", ""))
    for name in _JS_RUNNERS:
        if name in deps or re.search(rf"\b{name}\b", script):
            return name
    return "node" if "node --test" in script else None
