"""The fix cycle as a new user tries it: `asi-agent run` as a subprocess, scripted model, real pytest project.

read_file → run_tests → fix_tests (its own model request takes the script's next reply) → run_tests.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asi_cli import last_json, scripted_run, tool_call
from calc_project import BUGGY_SUB, FIXED_SUB, calc_project

from asi_agent.tools.registry import default_registry

EDIT = f"calc.py\n<<<<<<< SEARCH\n{BUGGY_SUB}\n=======\n{FIXED_SUB}\n>>>>>>> REPLACE"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return calc_project(tmp_path / "calc")


def _run(project: Path, replies: list[Any]) -> subprocess.CompletedProcess[str]:
    """`python -m asi_agent run` with the script, no TTY, no user configuration."""
    flags = ["--yes", "--output-format", "json", "Fix the failing test"]
    return scripted_run(project, replies, *flags, timeout=180)


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
    result = last_json(proc.stdout)
    assert result["status"] == "DONE"
    assert all(call["ok"] for call in result["tool_calls"]), result["tool_calls"]
    return result


@pytest.mark.skipif(
    default_registry().get("fix_tests").run is None, reason="fix_tests is not wired into the catalog yet"
)
def test_fix_tests_turns_the_suite_green(project: Path) -> None:
    assert not _suite_passes(project)
    replies = [
        {**tool_call("read_file", path="calc.py"), "text": "Plan: read the code, run the tests, fix them."},
        tool_call("run_tests"),
        tool_call("fix_tests"),
        EDIT,  # the reply to fix_tests' own model request
        tool_call("run_tests"),
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
        tool_call("read_file", path="calc.py"),
        tool_call("run_tests"),
        tool_call("replace_text", path="calc.py", oldText=BUGGY_SUB, newText=FIXED_SUB),
        tool_call("run_tests"),
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
