"""Failures that were there before the run are reported, not blamed on its change: `asi-agent run` as a
subprocess, a scripted model, a real pytest project whose suite already fails (README: How a run ends)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asi_cli import model_free_env

STATS = (
    "def average(xs):\n    return sum(xs) / len(xs)\n\n\n"
    "def total(xs):\n    return sum(xs)\n\n\n"
    "def median(xs):\n    return sorted(xs)[0]\n"
)
TESTS = (
    "from stats import average, median, total\n\n\n"
    "def test_average():\n    assert average([1, 2, 3]) == 2\n\n\n"
    "def test_total():\n    assert total([1, 2]) == 3\n\n\n"
    "def test_median():\n    assert median([3, 1, 2]) == 2\n"
)
LEGACY = 'def test_legacy_format():\n    assert f"{1.0}" == "1"\n'
MEDIAN, LEGACY_ID = "tests/test_stats.py::test_median", "tests/test_legacy.py::test_legacy_format"
AVERAGE = "def average(xs):\n    return sum(xs) / len(xs)"
DOCSTRING = {
    "path": "stats.py",
    "oldText": AVERAGE,
    "newText": 'def average(xs):\n    """The mean of xs."""\n    return sum(xs) / len(xs)',
}
BREAK_TOTAL = {"path": "stats.py", "oldText": "return sum(xs)\n", "newText": "return sum(xs) + 1\n"}
FIX_MEDIAN = {"path": "stats.py", "oldText": "sorted(xs)[0]", "newText": "sorted(xs)[len(xs) // 2]"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project whose suite fails before any change: `test_median` (a bug in stats.py) and an unrelated
    broken test in another file."""
    root = tmp_path / "stats"
    (root / "tests").mkdir(parents=True)
    (root / "stats.py").write_text(STATS, encoding="utf-8")
    (root / "tests" / "test_stats.py").write_text(TESTS, encoding="utf-8")
    (root / "tests" / "test_legacy.py").write_text(LEGACY, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        "[tool.pytest.ini_options]\ntestpaths = ['tests']\n", encoding="utf-8"
    )
    return root


def _call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": name, "arguments": arguments}]}


def _run(project: Path, replies: list[Any], task: str, *flags: str, output: str = "json") -> dict[str, Any]:
    """`asi-agent run` with the script and no TTY: the final JSON object, with `stderr` and `exit_code`."""
    script = project.parent / "script.json"
    script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(project.parent / "user-config")
    argv = ["run", "--provider", "scripted", "--model", str(script), "--output-format", output, *flags, task]
    if (project / ".asi" / "config.toml").exists():
        argv[1:1] = ["--trust"]  # the project's own settings count only in a trusted folder
    proc = subprocess.run(
        [sys.executable, "-m", "asi_agent", *argv],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=300,
        check=False,
    )
    last = proc.stdout.strip().splitlines()[-1]
    result: dict[str, Any] = json.loads(last) if output == "json" else {"stdout": proc.stdout}
    result["exit_code"], result["stderr"] = proc.returncode, proc.stderr
    return result


def _check(result: dict[str, Any], name: str) -> dict[str, Any]:
    return next(check for check in result["checks"] if check["name"] == name)


def _test_runs(result: dict[str, Any]) -> int:
    return [call["name"] for call in result["tool_calls"]].count("run_tests")


def test_an_unrelated_edit_in_a_failing_project_ends_verified_naming_the_failures_that_were_there(
    project: Path,
) -> None:
    replies = [_call("replace_text", **DOCSTRING), "Added the docstring.\nAGENT_STATUS: DONE"]
    result = _run(project, replies, "add a docstring to average in stats.py", "--yes")
    assert result["status"] == "DONE" and result["verified"] and result["exit_code"] == 0, result
    tests = _check(result, "tests_pass")
    assert tests["ok"]
    assert tests["detail"].startswith(f"2 tests failed before the change as well: {LEGACY_ID}, {MEDIAN}")
    baseline = result["verification"]["baseline"]
    assert baseline["taken"] and baseline["command"] == "pytest" and baseline["passed"] is False
    assert sorted(baseline["failed"]) == [LEGACY_ID, MEDIAN] and baseline["per_test"]
    assert sorted(baseline["still_failing"]) == [LEGACY_ID, MEDIAN] and baseline["reason"] is None
    # one run before the change, one after it: the baseline is the one extra
    assert [call["name"] for call in result["tool_calls"]] == ["run_tests", "replace_text", "run_tests"]


def test_the_plain_output_ends_with_the_failures_that_were_there_before(project: Path) -> None:
    replies = [_call("replace_text", **DOCSTRING), "Added the docstring.\nAGENT_STATUS: DONE"]
    result = _run(project, replies, "add a docstring to average in stats.py", "--yes", output="text")
    assert result["exit_code"] == 0
    ending = result["stderr"].splitlines()
    assert ending[-2].startswith("[DONE] turns: 2, changed files: stats.py")
    assert ending[-1] == f"asi-agent: 2 tests failed before the change as well: {LEGACY_ID}, {MEDIAN}"


def test_the_same_edit_breaking_another_test_stops_naming_the_new_failure(project: Path) -> None:
    replies = [
        _call("replace_text", **DOCSTRING),
        _call("replace_text", **BREAK_TOTAL),
        "Added the docstring.\nAGENT_STATUS: DONE",
        "It is done.\nAGENT_STATUS: DONE",  # told once; does nothing about it
    ]
    result = _run(project, replies, "add a docstring to average in stats.py", "--yes")
    assert result["status"] == "STOP" and result["exit_code"] == 2 and not result["verified"]
    tests = _check(result, "tests_pass")
    assert not tests["ok"] and tests["required"]
    assert "newly failing: tests/test_stats.py::test_total;" in tests["detail"]
    assert f"failed before the change as well: {LEGACY_ID}, {MEDIAN}" in tests["detail"]
    assert _test_runs(result) == 2  # the baseline, and one run after the last edit (not repeated on the nag)


def test_a_fix_whose_target_test_still_fails_stops_though_it_failed_before(project: Path) -> None:
    replies = [
        _call("replace_text", **DOCSTRING),  # not the fix
        "Fixed.\nAGENT_STATUS: DONE",
        "Fixed, really.\nAGENT_STATUS: DONE",
    ]
    result = _run(project, replies, "test_median fails; fix median in stats.py", "--yes")
    assert result["status"] == "STOP" and result["exit_code"] == 2
    tests = _check(result, "tests_pass")
    assert not tests["ok"] and f"{MEDIAN} was to be fixed and still fails" in tests["detail"]


def test_a_fix_of_the_target_test_ends_verified_with_the_other_old_failure_reported(project: Path) -> None:
    replies = [_call("replace_text", **FIX_MEDIAN), "Fixed median.\nAGENT_STATUS: DONE"]
    result = _run(project, replies, "fix the failing test of median", "--yes")
    assert result["status"] == "DONE" and result["verified"], result
    assert _check(result, "tests_pass")["detail"].startswith(
        f"1 test failed before the change as well: {LEGACY_ID};"
    )
    assert result["verification"]["baseline"]["still_failing"] == [LEGACY_ID]


def test_the_agents_own_failing_test_run_is_compared_with_the_baseline_by_the_runtime(project: Path) -> None:
    replies = [
        _call("replace_text", **DOCSTRING),
        _call("run_tests"),  # fails: the old failures
        "Added the docstring; two tests failed before as well.\nAGENT_STATUS: DONE",
    ]
    result = _run(project, replies, "add a docstring to average in stats.py", "--yes")
    assert result["status"] == "DONE" and result["verified"], result
    assert _test_runs(result) == 3  # the baseline, the agent's, and the runtime's own run to compare
    assert _check(result, "tests_pass")["detail"].startswith("2 tests failed before the change as well")


def test_a_passing_suite_changes_nothing_but_one_test_run_before_the_edit(
    project: Path,
) -> None:
    (project / "tests" / "test_legacy.py").unlink()
    (project / "stats.py").write_text(STATS.replace("sorted(xs)[0]", "sorted(xs)[len(xs) // 2]"), "utf-8")
    replies = [_call("replace_text", **DOCSTRING), "Added the docstring.\nAGENT_STATUS: DONE"]
    result = _run(project, replies, "add a docstring to average in stats.py", "--yes")
    assert result["status"] == "DONE" and result["verified"]
    assert _check(result, "tests_pass")["detail"].startswith(
        "the runtime ran the tests after the last edit: pytest: 3 passed"
    )
    assert result["verification"]["baseline"]["passed"] is True and _test_runs(result) == 2
    assert "before the change" not in result["stderr"]
    # a run that edits nothing runs no tests at all, and looks for no baseline
    answer = _run(project, [_call("read_file", path="stats.py"), "average returns `sum(xs) / len(xs)`."],
                  "what does average return?", "--yes")  # fmt: skip
    assert answer["status"] == "DONE" and _test_runs(answer) == 0
    assert answer["verification"] == {"baseline": None}


def test_ask_mode_with_nobody_to_answer_takes_no_baseline_and_does_not_hang(project: Path) -> None:
    replies = [_call("replace_text", **DOCSTRING), "Added the docstring.\nAGENT_STATUS: DONE"]
    # auto-edit lets the edit through and asks before commands; with no terminal nobody can answer
    result = _run(project, replies, "add a docstring to average in stats.py", "--approval", "auto-edit")
    assert result["status"] == "DONE" and result["exit_code"] == 0 and not result["verified"]
    baseline = result["verification"]["baseline"]
    assert not baseline["taken"] and "nobody can answer" in baseline["reason"]
    assert _test_runs(result) == 0
    assert [call["name"] for call in result["denied_calls"]] == ["run_tests"]  # only the run after the edit


def test_a_pre_tool_use_hook_that_allows_the_tests_lets_a_headless_ask_mode_run_take_the_baseline(
    project: Path,
) -> None:
    said = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                   "permissionDecisionReason": "tests are fine to run"}}  # fmt: skip
    hook = project.parent / "allow_tests.py"
    hook.write_text(f"import json, sys\njson.load(sys.stdin)\nprint(json.dumps({said!r}))\n", "utf-8")
    settings = {"hooks": {"PreToolUse": [
        {"matcher": "run_tests", "hooks": [{"type": "command", "command": f"{sys.executable} {hook}"}]}
    ]}}  # fmt: skip
    (project.parent / "user-config").mkdir(exist_ok=True)
    (project.parent / "user-config" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    replies = [_call("replace_text", **DOCSTRING), "Added the docstring.\nAGENT_STATUS: DONE"]
    result = _run(project, replies, "add a docstring to average in stats.py", "--approval", "auto-edit")
    baseline = result["verification"]["baseline"]
    assert baseline["taken"] and baseline["passed"] is False, result
    assert result["status"] == "DONE" and result["verified"] and result["exit_code"] == 0, result
    assert _check(result, "tests_pass")["detail"].startswith("2 tests failed before the change as well")


def test_a_suite_that_names_no_failures_is_not_excused_and_the_check_says_why(project: Path) -> None:
    (project / ".asi").mkdir()
    command = f"{sys.executable} -c 'import sys; sys.exit(1)'"
    (project / ".asi" / "config.toml").write_text(f"test_command = {json.dumps(command)}\n", encoding="utf-8")
    replies = [_call("replace_text", **DOCSTRING), "Done.\nAGENT_STATUS: DONE", "Done.\nAGENT_STATUS: DONE"]
    result = _run(project, replies, "add a docstring to average in stats.py", "--yes")
    assert result["status"] == "STOP" and not result["verified"]
    detail = _check(result, "tests_pass")["detail"]
    assert "the tests failed before the change as well" in detail
    assert "cannot tell whether the change broke anything more" in detail
    baseline = result["verification"]["baseline"]
    assert baseline["taken"] and not baseline["per_test"] and baseline["failed"] == []


def test_the_agents_own_run_of_the_whole_suite_right_before_its_edit_serves_as_the_baseline(
    project: Path,
) -> None:
    replies = [
        _call("run_tests"),
        _call("replace_text", **DOCSTRING),
        "Added the docstring.\nAGENT_STATUS: DONE",
    ]
    result = _run(project, replies, "add a docstring to average in stats.py", "--yes")
    assert result["status"] == "DONE" and result["verified"], result
    # no second run of the same tests on the same tree: the agent's, the edit, the runtime's after it
    assert [call["name"] for call in result["tool_calls"]] == ["run_tests", "replace_text", "run_tests"]
    baseline = result["verification"]["baseline"]
    assert baseline["run_by"] == "agent" and sorted(baseline["failed"]) == [LEGACY_ID, MEDIAN]
    assert baseline["per_test"] and baseline["summary"].startswith("pytest: 2 passed, 2 failed")


def test_the_plain_chat_shows_the_failures_that_were_there_under_its_ending(project: Path) -> None:
    script = project.parent / "chat-script.json"
    replies = [_call("replace_text", **DOCSTRING), "Added the docstring.\nAGENT_STATUS: DONE"]
    script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(project.parent / "user-config")
    argv = ["chat", "--plain", "--provider", "scripted", "--model", str(script), "--approval", "yolo"]
    proc = subprocess.run(
        [sys.executable, "-m", "asi_agent", *argv],
        cwd=project,
        input="add a docstring to average in stats.py\n/quit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    ending = next(i for i, line in enumerate(lines) if line.startswith("── DONE"))
    assert lines[ending + 1] == f"   2 tests failed before the change as well: {LEGACY_ID}, {MEDIAN}"
