"""The fix cycle as a new user tries it: `asi-agent run` as a subprocess, scripted model, real pytest project.

read_file → run_tests → fix_tests (its own model request takes the script's next reply) → run_tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asi_cli import model_free_env

from asi_agent.tools.registry import default_registry

CALC = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a + b\n"
TESTS = (
    "from calc import add, sub\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_sub():\n    assert sub(3, 2) == 1\n"
)
BUGGY_SUB = "def sub(a, b):\n    return a + b"
FIXED_SUB = "def sub(a, b):\n    return a - b"
EDIT = f"calc.py\n<<<<<<< SEARCH\n{BUGGY_SUB}\n=======\n{FIXED_SUB}\n>>>>>>> REPLACE"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "calc"
    (root / "tests").mkdir(parents=True)
    (root / "calc.py").write_text(CALC, encoding="utf-8")
    (root / "tests" / "test_calc.py").write_text(TESTS, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        "[tool.pytest.ini_options]\ntestpaths = ['tests']\n", encoding="utf-8"
    )
    return root


def _call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": name, "arguments": arguments}]}


def _run(project: Path, replies: list[Any]) -> subprocess.CompletedProcess[str]:
    """`python -m asi_agent run` with the script, no TTY, no user configuration."""
    script = project.parent / "script.json"
    script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(project.parent / "user-config")
    argv = ["run", "--provider", "scripted", "--model", str(script), "--yes", "--output-format", "json"]
    return subprocess.run(
        [sys.executable, "-m", "asi_agent", *argv, "Fix the failing test"],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=180,
        check=False,
    )


def _suite_passes(project: Path) -> bool:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return proc.returncode == 0


def _finished(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["status"] == "DONE"
    assert all(call["ok"] for call in result["tool_calls"]), result["tool_calls"]
    return result


@pytest.mark.skipif(
    default_registry().get("fix_tests").run is None, reason="fix_tests is not wired into the catalog yet"
)
def test_fix_tests_turns_the_suite_green(project: Path) -> None:
    assert not _suite_passes(project)
    replies = [
        {**_call("read_file", path="calc.py"), "text": "Plan: read the code, run the tests, fix them."},
        _call("run_tests"),
        _call("fix_tests"),
        EDIT,  # the reply to fix_tests' own model request
        _call("run_tests"),
        "Fixed `sub`: it added instead of subtracting. All tests pass.\nAGENT_STATUS: DONE",
    ]
    result = _finished(_run(project, replies))
    assert [call["name"] for call in result["tool_calls"]] == [
        "read_file",
        "run_tests",
        "fix_tests",
        "run_tests",
    ]
    assert result["changed_files"] == ["calc.py"]
    assert _suite_passes(project)


def test_replace_text_turns_the_suite_green(project: Path) -> None:
    assert not _suite_passes(project)
    replies = [
        _call("read_file", path="calc.py"),
        _call("run_tests"),
        _call("replace_text", path="calc.py", oldText=BUGGY_SUB, newText=FIXED_SUB),
        _call("run_tests"),
        "Fixed `sub`.\nAGENT_STATUS: DONE",
    ]
    result = _finished(_run(project, replies))
    assert [call["name"] for call in result["tool_calls"]] == [
        "read_file",
        "run_tests",
        "replace_text",
        "run_tests",
    ]
    assert result["changed_files"] == ["calc.py"]
    assert _suite_passes(project)
