""" "verified" means the work was checked as a person would check it: `asi-agent run` as a subprocess, a
scripted model, a real pytest project (README: How a run ends)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from asi_cli import last_json, scripted_run, tool_call
from calc_project import BUGGY_SUB, CALC, FIXED_SUB, calc_project

TESTS = (
    "from calc import add, sub\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_add_zero():\n    assert add(2, 0) == 2\n\n\n"
    "def test_sub():\n    assert sub(3, 2) == 1\n"
)
FIX = {"path": "calc.py", "oldText": BUGGY_SUB, "newText": FIXED_SUB}
ADD, BROKEN_ADD = "def add(a, b):\n    return a + b", "def add(a, b):\n    return a * b"
BREAK = {"path": "calc.py", "oldText": ADD, "newText": BROKEN_ADD}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return calc_project(tmp_path / "calc", TESTS)


def _run(project: Path, replies: list[Any], *flags: str, task: str = "fix sub in calc.py") -> dict[str, Any]:
    """`asi-agent run --output-format json` with the script and no TTY; the final JSON object."""
    # the project's own verify settings count only in a trusted folder
    trust = ["--trust"] if (project / ".asi" / "config.toml").exists() else []
    proc = scripted_run(project, replies, *trust, "--output-format", "json", *flags, task, timeout=300)
    result = last_json(proc.stdout)
    result["exit_code"] = proc.returncode
    return result


def _check(result: dict[str, Any], name: str) -> dict[str, Any]:
    return next(check for check in result["checks"] if check["name"] == name)


def test_code_broken_and_never_tested_is_told_once_then_stops_naming_the_failing_tests(project: Path) -> None:
    replies = [
        tool_call("replace_text", **FIX),
        tool_call("replace_text", **BREAK),  # "tidies" add, breaking it
        "Fixed sub.\nAGENT_STATUS: DONE",
        "I am sure it is fixed.\nAGENT_STATUS: DONE",  # told once; does nothing about it
    ]
    result = _run(project, replies, "--yes")
    assert result["status"] == "STOP" and result["exit_code"] == 2 and not result["verified"]
    tests = _check(result, "tests_pass")
    assert not tests["ok"] and tests["required"]
    assert "tests/test_calc.py::test_add" in tests["detail"] and "test_add_zero" in tests["detail"]
    assert "test_sub" not in tests["detail"].split("failing:")[1]  # only the failing ones are named
    assert result["result"].startswith(
        "Not verified (tests_pass: the runtime ran the tests after the last edit"
    )
    assert "test_add_zero" in result["result"]
    # run by the runtime before the first edit (the baseline: test_sub failed then) and once after the last
    # one (nothing was edited after it): the model never called run_tests
    assert [call["name"] for call in result["tool_calls"]].count("run_tests") == 2
    assert result["verification"]["baseline"]["failed"] == ["tests/test_calc.py::test_sub"]


def test_failing_tests_told_to_the_model_can_be_fixed_and_end_verified(project: Path) -> None:
    replies = [
        tool_call("replace_text", **BREAK),
        "Done.\nAGENT_STATUS: DONE",
        tool_call("replace_text", path="calc.py", oldText="return a * b", newText="return a + b"),
        tool_call("replace_text", **FIX),
        "Fixed sub, and add again.\nAGENT_STATUS: DONE",
    ]
    result = _run(project, replies, "--yes")
    assert result["status"] == "DONE" and result["verified"], result
    assert [call["name"] for call in result["tool_calls"]].count("run_tests") == 3  # the baseline, then two
    transcript = project / ".asi" / "sessions" / f"{result['session_id']}.jsonl"
    told = [
        json.loads(line)["message"]["content"]
        for line in transcript.read_text(encoding="utf-8").splitlines()
        if '"role": "user"' in line and "Not done yet" in line
    ]
    assert len(told) == 1 and "FAILED tests/test_calc.py::test_add" in told[0]


def test_a_fix_without_running_the_tests_is_tested_by_the_runtime_and_verified(project: Path) -> None:
    result = _run(project, [tool_call("replace_text", **FIX), "Fixed sub.\nAGENT_STATUS: DONE"], "--yes")
    assert result["status"] == "DONE" and result["verified"] and result["exit_code"] == 0
    tests = _check(result, "tests_pass")
    assert tests["ok"] and "pytest: 3 passed, 0 failed" in tests["detail"]
    assert result["tool_calls"][-1] == {"name": "run_tests", "ok": True, "error": None}


def test_the_agents_own_test_run_after_its_last_edit_is_not_repeated(project: Path) -> None:
    replies = [
        tool_call("replace_text", **FIX),
        tool_call("run_tests"),
        "Fixed; 3 passed.\nAGENT_STATUS: DONE",
    ]
    result = _run(project, replies, "--yes")
    assert result["status"] == "DONE" and result["verified"]
    # the first run_tests is the runtime's, before the first edit (the baseline)
    assert [call["name"] for call in result["tool_calls"]] == ["run_tests", "replace_text", "run_tests"]


def test_in_ask_mode_with_nobody_to_answer_the_tests_are_not_run_and_done_stays_unverified(
    project: Path,
) -> None:
    replies = [tool_call("replace_text", **FIX), "Fixed sub.\nAGENT_STATUS: DONE"]
    # auto-edit lets the edit through and asks before commands; with no terminal nobody can answer
    result = _run(project, replies, "--approval", "auto-edit")
    assert result["status"] == "DONE" and result["exit_code"] == 0 and not result["verified"]
    tests = _check(result, "tests_pass")
    assert not tests["ok"] and not tests["required"]
    assert tests["detail"].startswith("not run (not allowed): pytest:")
    assert [call["name"] for call in result["denied_calls"]] == ["run_tests"]


def test_verify_parse_runs_no_tests(project: Path) -> None:
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text('verify = "parse"\n', encoding="utf-8")
    result = _run(project, [tool_call("replace_text", **BREAK), "Done.\nAGENT_STATUS: DONE"], "--yes")
    assert result["status"] == "DONE" and "tests_pass" not in {c["name"] for c in result["checks"]}
    assert [call["name"] for call in result["tool_calls"]] == ["replace_text"]


def test_verify_off_checks_nothing_and_verifies_nothing(project: Path) -> None:
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text('verify = "off"\n', encoding="utf-8")
    result = _run(project, [tool_call("replace_text", **FIX), "Done.\nAGENT_STATUS: DONE"], "--yes")
    assert result["status"] == "DONE" and result["checks"] == [] and not result["verified"]


def test_a_configured_test_command_is_what_the_runtime_runs(project: Path) -> None:
    (project / ".asi").mkdir()
    marker = project / "ran-the-configured-command"
    command = f"{sys.executable} -m pytest -q -p no:cacheprovider && touch {marker.name}"
    (project / ".asi" / "config.toml").write_text(f"test_command = {json.dumps(command)}\n", encoding="utf-8")
    result = _run(project, [tool_call("replace_text", **FIX), "Fixed sub.\nAGENT_STATUS: DONE"], "--yes")
    assert marker.is_file()
    assert result["status"] == "DONE" and result["verified"]
    assert result["tool_calls"][-1]["name"] == "run_terminal_cmd"
    assert _check(result, "tests_pass")["detail"].endswith("exit code 0")


def test_a_question_answered_without_a_change_ends_done(project: Path) -> None:
    replies = [
        tool_call("read_file", path="calc.py"),
        "Nothing needs renaming: add and sub say what they do.",
    ]
    result = _run(project, replies, task="Review calc.py and tell me if anything should be renamed")
    assert result["status"] == "DONE" and result["exit_code"] == 0
    assert "change_made" not in {check["name"] for check in result["checks"]}
    backed = _check(result, "answer_backed")
    assert not backed["required"]
    assert result["changed_files"] == []


def test_a_plain_answer_is_verified_only_when_the_tool_results_show_what_it_claims(project: Path) -> None:
    shown = _run(
        project,
        [tool_call("read_file", path="calc.py"), "sub returns `a + b`."],
        task="what does sub return?",
    )
    assert shown["status"] == "DONE" and shown["verified"]
    invented = _run(
        project,
        [tool_call("read_file", path="calc.py"), "sub returns `a - b`."],
        task="what does sub return?",
    )
    assert invented["status"] == "DONE" and not invented["verified"]
    assert _check(invented, "answer_backed")["detail"] == "not in any tool result of the run: 'a - b'"


def test_each_step_of_a_request_of_several_steps_must_be_done(project: Path) -> None:
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text(
        'verify = "parse"\n', encoding="utf-8"
    )  # no test run of its own
    task = "make sub return a - b. Then run the tests."
    replies = [
        tool_call("replace_text", **FIX),
        "Done.\nAGENT_STATUS: DONE",
        "Done, really.\nAGENT_STATUS: DONE",
    ]
    result = _run(project, replies, "--yes", task=task)
    assert result["status"] == "STOP" and result["exit_code"] == 2
    steps = _check(result, "steps_done")
    assert not steps["ok"] and "run the tests.' (no test run after the last edit)" in steps["detail"]
    (project / "calc.py").write_text(CALC, encoding="utf-8")
    replies = [
        tool_call("replace_text", **FIX),
        "Done.\nAGENT_STATUS: DONE",
        tool_call("run_tests"),
        "3 passed.",
    ]
    result = _run(project, replies, "--yes", task=task)
    assert result["status"] == "DONE" and result["verified"] and _check(result, "steps_done")["ok"]


def test_tests_that_collect_nothing_leave_done_unverified_not_stopped(tmp_path: Path) -> None:
    root = tmp_path / "calc"
    (root / "tests").mkdir(parents=True)
    (root / "calc.py").write_text(CALC, encoding="utf-8")
    (root / "tests" / "test_calc.py").write_text("# tests to come\n", encoding="utf-8")
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    result = _run(root, [tool_call("replace_text", **FIX), "Fixed sub.\nAGENT_STATUS: DONE"], "--yes")
    assert result["status"] == "DONE" and not result["verified"]
    tests = _check(result, "tests_pass")
    assert not tests["required"] and tests["detail"] == "not run (no tests): pytest: no tests were collected"
