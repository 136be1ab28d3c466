"""Endings are earned: before a run ends DONE the runtime checks what it can (README: How a run ends)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_agent import call, collect, finished, make_agent, reply

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.scripted import ScriptedBackend
from asi_agent.events import ApprovalRequested, Check, RetryRequested
from asi_agent.gate import GateConfig
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry
from asi_agent.verify import VerifyConfig

CALC = "def add(a, b):\n    return a - b\n"
TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "calc.py").write_text(CALC)
    (tmp_path / "test_calc.py").write_text(TEST)
    return tmp_path


def checks(events) -> dict[str, Check]:
    return {check.name: check for check in finished(events).checks}


def nags(events) -> list[str]:
    return [e.reason for e in events if isinstance(e, RetryRequested) and e.reason.startswith("Not done yet")]


async def test_a_change_that_was_made_and_parses_is_a_verified_done(project):
    backend = ScriptedBackend(
        [
            reply("", call("replace_text", path="calc.py", oldText="a - b", newText="a + b")),
            reply("Fixed.\nAGENT_STATUS: DONE"),
        ]
    )
    events = await collect(make_agent(project, backend), "fix the add function in calc.py")
    end = finished(events)
    assert end.status == "DONE" and end.verified
    assert checks(events)["change_made"].ok and checks(events)["files_parse"].ok
    assert not nags(events)


async def test_a_change_request_answered_without_a_change_is_told_once_then_stops(project):
    backend = ScriptedBackend(
        [reply("The add function is fine."), reply("It really is fine.\nAGENT_STATUS: DONE")]
    )
    events = await collect(make_agent(project, backend), "make add return a + b")
    end = finished(events)
    assert end.status == "STOP" and not end.verified
    assert len(nags(events)) == 1 and "change_made" in nags(events)[0]
    assert end.result.startswith(
        "Not verified (change_made: the request asks for a change and no file changed)"
    )
    assert (project / "calc.py").read_text() == CALC


async def test_told_what_failed_the_model_may_go_on_and_earn_the_ending(project):
    backend = ScriptedBackend(
        [
            reply("Done, add now adds."),
            reply("", call("replace_text", path="calc.py", oldText="a - b", newText="a + b")),
            reply("Now it adds.\nAGENT_STATUS: DONE"),
        ]
    )
    events = await collect(make_agent(project, backend), "can you make add return a + b")
    assert finished(events).status == "DONE" and finished(events).verified
    assert len(nags(events)) == 1


async def test_a_plain_answer_stays_done_but_unverified_when_nothing_backs_it(project):
    backend = ScriptedBackend([reply("Python's len() returns the number of items.")])
    events = await collect(make_agent(project, backend), "what does len() return in python?")
    end = finished(events)
    assert end.status == "DONE" and not end.verified
    assert not checks(events)["tool_evidence"].ok and not checks(events)["tool_evidence"].required
    assert not nags(events)


async def test_an_answer_resting_on_a_tool_result_is_verified(project):
    backend = ScriptedBackend([reply("", call("read_file", path="calc.py")), reply("It returns a - b.")])
    events = await collect(make_agent(project, backend), "what does add return?")
    assert finished(events).status == "DONE" and finished(events).verified


async def test_a_changed_file_that_no_longer_parses_never_ends_done(project):
    broken = call("replace_text", path="calc.py", oldText="def add(a, b):", newText="def add(a, b)")
    backend = ScriptedBackend([reply("", broken), reply("Done.\nAGENT_STATUS: DONE"), reply("Done!")])
    agent = make_agent(project, backend)
    agent.runner.ctx.edit_guard = False  # the guard would have refused it: the ending check still holds
    events = await collect(agent, "remove the colon after def add(a, b)")
    end = finished(events)
    assert end.status == "STOP"
    assert "calc.py does not parse" in checks(events)["files_parse"].detail
    assert "files_parse" in nags(events)[0]


async def test_a_file_that_did_not_parse_before_the_run_is_not_held_to_it(project):
    (project / "calc.py").write_text("def add(a, b)\n    return a - b\n")
    fix = call("replace_text", path="calc.py", oldText="a - b", newText="a + b")
    backend = ScriptedBackend([reply("", fix), reply("Changed.\nAGENT_STATUS: DONE")])
    agent = make_agent(project, backend, verify=VerifyConfig("parse"))  # its tests cannot pass
    events = await collect(agent, "change a - b to a + b in calc.py")
    assert finished(events).status == "DONE" and checks(events)["files_parse"].ok


async def test_a_failing_test_run_after_the_last_edit_keeps_the_run_from_done(project):
    backend = ScriptedBackend(
        [
            reply("", call("replace_text", path="calc.py", oldText="a - b", newText="a * b")),
            reply("", call("run_tests")),
            reply("Fixed.\nAGENT_STATUS: DONE"),
            reply("Fixed, really.\nAGENT_STATUS: DONE"),
        ]
    )
    events = await collect(make_agent(project, backend), "fix add in calc.py and run the tests")
    end = finished(events)
    assert end.status == "STOP"
    # test_add failed before the edit as well, but the request is about it: the runtime ran the tests again
    detail = checks(events)["tests_pass"].detail
    assert not checks(events)["tests_pass"].ok
    assert detail.endswith("test_calc.py::test_add was to be fixed and still fails")


async def test_tests_that_failed_before_the_last_edit_must_run_again(project):
    backend = ScriptedBackend(
        [
            reply("", call("run_tests")),
            reply("", call("replace_text", path="calc.py", oldText="a - b", newText="a + b")),
            reply("Fixed.\nAGENT_STATUS: DONE"),
            reply("", call("run_tests")),
            reply("Fixed, and the tests pass.\nAGENT_STATUS: DONE"),
        ]
    )
    agent = make_agent(project, backend, verify=VerifyConfig("parse"))  # the runtime runs no tests itself
    events = await collect(agent, "run the tests and fix what fails")
    assert "not run again after the last edit" in nags(events)[0]
    end = finished(events)
    assert end.status == "DONE" and end.verified
    assert checks(events)["tests_pass"].detail == "the last test run passed"


async def test_a_test_run_only_reported_on_is_not_held_to_passing(project):
    backend = ScriptedBackend([reply("", call("run_tests")), reply("1 test fails: test_add.")])
    events = await collect(make_agent(project, backend), "run the tests and tell me what fails")
    assert finished(events).status == "DONE" and "tests_pass" not in checks(events)


async def test_a_change_made_by_a_command_counts_as_a_change(project):
    sed = call("run_terminal_cmd", command="sed -i 's/a - b/a + b/' calc.py")
    backend = ScriptedBackend([reply("", sed), reply("Changed with sed.\nAGENT_STATUS: DONE")])
    events = await collect(make_agent(project, backend), "make add return a + b")
    assert finished(events).status == "DONE"
    assert checks(events)["change_made"].detail == "changed calc.py"


async def test_the_transcript_keeps_the_checks_of_the_ending(project):
    state = project / ".asi"
    session = SessionStore(state).create()
    ctx = ToolContext(project, Journal(state), session_id=session.id)
    backend = ScriptedBackend([reply("Nothing to do.")])
    config = AgentConfig(gate=GateConfig(approval="yolo"))
    agent = Agent(backend, ToolRunner(default_registry(), ctx), session, "system", config)
    await collect(agent, "what is in calc.py?")
    record = next(r for r in session.records() if r.get("type") == "finished")
    assert record["verified"] is False
    assert {c["name"] for c in record["checks"]} == {"reply_complete", "answer_backed", "tool_evidence"}


async def test_a_refused_write_is_not_retried_to_the_turn_limit(project):
    read = call("read_file", path="calc.py")
    write = call("replace_text", path="calc.py", oldText="a - b", newText="a + b")
    backend = ScriptedBackend([reply("", read), reply("", write)] * 15)
    agent = make_agent(project, backend, approval="ask", interactive=False, max_turns=30)
    events = await collect(agent, "make add return a + b")
    end = finished(events)
    assert end.status == "STOP" and end.turns <= 5
    assert "refused 2 times" in end.result or "went round the same 2 calls" in end.result
    assert (project / "calc.py").read_text() == CALC


async def test_in_ask_mode_the_runtimes_test_run_is_asked_like_any_command(project):
    fix = call("replace_text", path="calc.py", oldText="a - b", newText="a + b")
    backend = ScriptedBackend([reply("", fix), reply("Fixed.\nAGENT_STATUS: DONE")])
    agent = make_agent(project, backend, approval="ask", interactive=True)
    events = await collect(agent, "fix add in calc.py", answers=["yes", "yes", "no"])
    asked = [e.call.name for e in events if isinstance(e, ApprovalRequested)]
    assert asked == ["replace_text", "run_tests", "run_tests"]  # the edit, the baseline, the run after it
    assert finished(events).baseline is not None and finished(events).baseline.taken
    end = finished(events)
    assert end.status == "DONE" and not end.verified
    detail = checks(events)["tests_pass"].detail
    assert detail.startswith("not run (not allowed): pytest: the person answered no")
