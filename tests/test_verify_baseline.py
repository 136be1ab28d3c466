"""The tests before the change (`asi_agent.verify_baseline`), through the agent loop on a real pytest project
whose one test fails before the run: `add` subtracts."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_agent import call, collect, finished, make_agent, reply

from asi_agent.backends.scripted import ScriptedBackend
from asi_agent.events import ApprovalRequested, Check, ToolFinished

CALC = "def add(a, b):\n    return a - b\n"
TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
COMMENT = call("replace_text", path="calc.py", oldText="def add(a, b):\n", newText="# calc\ndef add(a, b):\n")
OLD = "test_calc.py::test_add"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "calc.py").write_text(CALC)
    (tmp_path / "test_calc.py").write_text(TEST)
    (tmp_path / "README.md").write_text("# calc\n")
    return tmp_path


def check_of_tests(events) -> Check:
    return next(check for check in finished(events).checks if check.name == "tests_pass")


def count_test_runs(events) -> int:
    return sum(isinstance(e, ToolFinished) and e.call.name == "run_tests" for e in events)


async def test_an_unrelated_change_is_not_blamed_for_a_failure_that_was_there(project):
    backend = ScriptedBackend([reply("", COMMENT), reply("Added.\nAGENT_STATUS: DONE")])
    events = await collect(make_agent(project, backend), "add a comment on top of calc.py")
    end = finished(events)
    assert end.status == "DONE" and end.verified
    assert check_of_tests(events).detail.startswith(f"1 test failed before the change as well: {OLD}; ")
    assert (
        end.baseline is not None and end.baseline.failing == (OLD,) and end.baseline.still_failing == (OLD,)
    )
    assert end.baseline.ending_line() == f"1 test failed before the change as well: {OLD}"


async def test_make_the_tests_pass_is_not_excused_by_the_failure_it_was_asked_to_fix(project):
    replies = [reply("", COMMENT), reply("Done.\nAGENT_STATUS: DONE"), reply("Done.\nAGENT_STATUS: DONE")]
    events = await collect(make_agent(project, ScriptedBackend(replies)), "make the tests pass")
    assert finished(events).status == "STOP"
    assert check_of_tests(events).detail.endswith(f"; {OLD} was to be fixed and still fails")


async def test_a_change_of_no_source_file_takes_no_baseline(project):
    edit = call("replace_text", path="README.md", oldText="# calc\n", newText="# calc\n\nAdds.\n")
    backend = ScriptedBackend([reply("", edit), reply("Added.\nAGENT_STATUS: DONE")])
    events = await collect(make_agent(project, backend), "add a line to README.md")
    assert finished(events).status == "DONE" and finished(events).baseline is None
    assert count_test_runs(events) == 0  # not a source change: no test run at all


async def test_a_baseline_the_person_refuses_is_reported_and_excuses_nothing(project):
    replies = [reply("", COMMENT), reply("Added.\nAGENT_STATUS: DONE"), reply("Added.\nAGENT_STATUS: DONE")]
    agent = make_agent(project, ScriptedBackend(replies), approval="ask", interactive=True)
    # the edit: yes; the tests before it: no; the tests after it: yes
    events = await collect(agent, "add a comment on top of calc.py", answers=["yes", "no", "yes"])
    asked = [e.call.name for e in events if isinstance(e, ApprovalRequested)]
    assert asked == ["replace_text", "run_tests", "run_tests"]
    end = finished(events)
    assert end.status == "STOP" and end.baseline is not None and not end.baseline.taken
    assert end.baseline.reason.startswith("not allowed: the person answered no")
    detail = check_of_tests(events).detail
    assert "; no baseline before the change (not allowed: the person answered no" in detail
    assert end.baseline.ending_line() is None and count_test_runs(events) == 1
