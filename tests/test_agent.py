"""The agent loop, driven through its public `run` with the shipped scripted backend on real folders."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.events import (
    ApprovalRequested,
    AssistantReplied,
    CallRejected,
    DecisionMade,
    RetryRequested,
    RunFinished,
    SessionStarted,
    StatusDecided,
    ToolFinished,
)
from asi_agent.gate import GateConfig
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.args import ReadFileArgs
from asi_agent.tools.base import ToolContext, ToolSpec
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import ToolRegistry, default_registry


def call(name: str, **arguments) -> ScriptedCall:
    return ScriptedCall(name=name, arguments=arguments)


def reply(text: str = "", *calls: ScriptedCall) -> ScriptedReply:
    return ScriptedReply(text=text, calls=list(calls))


def make_agent(root: Path, backend: ScriptedBackend, registry: ToolRegistry | None = None, **config) -> Agent:
    state = root / ".asi"
    session = SessionStore(state).create()
    ctx = ToolContext(root, Journal(state), session_id=session.id)
    gate = {"approval": "yolo", **{k: config.pop(k) for k in ("approval", "interactive") if k in config}}
    agent_config = AgentConfig(gate=GateConfig(**gate), **config)
    return Agent(backend, ToolRunner(registry or default_registry(), ctx), session, "system", agent_config)


async def collect(agent: Agent, task: str = "task", answers=()) -> list:
    answers = list(answers)
    events = []
    async for event in agent.run(task):
        if isinstance(event, ApprovalRequested):
            event.answer.set_result(answers.pop(0))
        events.append(event)
    return events


def finished(events) -> RunFinished:
    assert isinstance(events[-1], RunFinished)
    return events[-1]


def results(events) -> list[ToolFinished]:
    return [e for e in events if isinstance(e, ToolFinished)]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    return tmp_path


async def test_plan_tool_summary_done(project):
    backend = ScriptedBackend(
        [
            reply("Plan: read, then fix.", call("read_file", path="calc.py")),
            reply("", call("replace_text", path="calc.py", oldText="a - b", newText="a + b")),
            reply("Fixed.\nAGENT_STATUS: DONE"),
        ]
    )
    events = await collect(make_agent(project, backend))
    assert isinstance(events[0], SessionStarted) and events[0].tool_mode == "native"
    replies = [e for e in events if isinstance(e, AssistantReplied)]
    assert [r.is_plan for r in replies] == [True, False, False]
    assert [(r.call.name, r.ok) for r in results(events)] == [("read_file", True), ("replace_text", True)]
    assert results(events)[1].changed_files == ("calc.py",)
    assert [e.status for e in events if isinstance(e, StatusDecided)] == ["DONE"]
    end = finished(events)
    assert (end.status, end.result, end.turns) == ("DONE", "Fixed.", 3)
    assert end.usage.prompt_tokens > 0
    assert "a + b" in (project / "calc.py").read_text()
    # results went back as role tool, with the call's id
    messages, tools = backend.requests[1]
    assert (
        tools and messages[-1].role == "tool" and messages[-1].tool_call_id == messages[-2].tool_calls[0].id
    )


async def test_transcript_records_every_step(project):
    backend = ScriptedBackend([reply("", call("read_file", path="calc.py")), reply("ok\nAGENT_STATUS: DONE")])
    agent = make_agent(project, backend)
    await collect(agent)
    kinds = [json.loads(line)["type"] for line in agent.session.path.read_text().splitlines()]
    for kind in ("meta", "run", "message", "usage", "decision", "result", "status", "finished"):
        assert kind in kinds


async def test_independent_reads_run_concurrently(project):
    started = {"a": asyncio.Event(), "b": asyncio.Event()}

    async def wait_for_other(args: ReadFileArgs, ctx: ToolContext) -> str:
        me, other = ("a", "b") if args.path == "a" else ("b", "a")
        started[me].set()
        await asyncio.wait_for(started[other].wait(), timeout=2)
        return f"{me} saw {other}"

    registry = default_registry()
    registry.register(ToolSpec("rendezvous", ReadFileArgs, wait_for_other, "read"))
    backend = ScriptedBackend(
        [reply("", call("rendezvous", path="a"), call("rendezvous", path="b")), reply("AGENT_STATUS: DONE")]
    )
    events = await collect(make_agent(project, backend, registry))
    assert [r.output for r in results(events)] == ["a saw b", "b saw a"]


async def test_turn_limit(project):
    backend = ScriptedBackend([reply("", call("read_file", path="calc.py", startLine=i)) for i in (1, 2, 1)])
    end = finished(await collect(make_agent(project, backend, max_turns=2)))
    assert (end.status, end.turns) == ("MAX_TURNS", 2)


async def test_identical_calls_in_a_row_end_the_run_with_stop(project):
    same = call("read_file", path="calc.py")
    backend = ScriptedBackend(
        [reply("", same), reply("", same), reply("", same), reply("AGENT_STATUS: DONE")]
    )
    events = await collect(make_agent(project, backend))
    outcomes = results(events)
    assert [r.ok for r in outcomes] == [True, True, False]
    assert outcomes[2].output.startswith("not run: stopped a loop")
    end = finished(events)
    assert (end.status, end.turns) == ("STOP", 3)
    assert "same call 3 times in a row" in end.result and "read_file" in end.result
    assert len(backend.requests) == 3  # the run ended: the model was not asked again


async def test_identical_calls_with_other_results_do_not_stop_the_run(project):
    same = call("read_file", path="calc.py")
    edit = call("replace_text", path="calc.py", oldText="a - b", newText="a + b")
    backend = ScriptedBackend(
        [reply("", same), reply("", edit), reply("", same), reply("", same), reply("AGENT_STATUS: DONE")]
    )
    end = finished(await collect(make_agent(project, backend, approval="yolo")))
    assert end.status == "DONE"


async def test_calls_going_round_a_cycle_end_the_run(project):
    one, two = call("read_file", path="calc.py"), call("list_directory", path=".")
    backend = ScriptedBackend(
        [
            reply("", one),
            reply("", two),
            reply("", one),
            reply("", two),
            reply("", one),
            reply("AGENT_STATUS: DONE"),
        ]
    )
    events = await collect(make_agent(project, backend))
    outcomes = results(events)
    assert [r.ok for r in outcomes] == [True, True, True, True, False]  # the fifth call is not run
    assert finished(events).status == "STOP"
    assert finished(events).result == (
        "stopped a loop: the model went round the same 2 calls 3 times (read_file, list_directory), "
        "with the same results each round"
    )


async def test_unknown_tool_and_bad_arguments_go_back_to_the_model(project):
    backend = ScriptedBackend(
        [
            reply("", call("read_fil", path="calc.py"), call("read_file", startLine=1)),
            reply("AGENT_STATUS: DONE"),
        ]
    )
    events = await collect(make_agent(project, backend))
    rejected = [e for e in events if isinstance(e, CallRejected)]
    assert len(rejected) == 2
    assert "read_file" in rejected[0].error  # closest real name
    assert "path" in rejected[1].error
    messages, _ = backend.requests[1]
    assert [m.role for m in messages[-2:]] == ["tool", "tool"]
    assert all(m.content.startswith("ERROR:") for m in messages[-2:])
    assert finished(events).status == "DONE"


async def test_broken_native_arguments_keep_the_call_id(project):
    broken = ScriptedCall(name="read_file", arguments="[1, 2", id="call_x")
    backend = ScriptedBackend([reply("", broken), reply("AGENT_STATUS: DONE")])
    await collect(make_agent(project, backend))
    messages, _ = backend.requests[1]
    assert messages[-2].tool_calls[0].id == "call_x"
    assert messages[-1].tool_call_id == "call_x" and messages[-1].content.startswith("ERROR:")


async def test_continue_then_stop(project):
    backend = ScriptedBackend(
        [reply("step one\nAGENT_STATUS: CONTINUE"), reply("cannot go on\nAGENT_STATUS: STOP")]
    )
    events = await collect(make_agent(project, backend))
    assert [e.status for e in events if isinstance(e, StatusDecided)] == ["CONTINUE", "STOP"]
    assert backend.requests[1][0][-1].role == "user"
    end = finished(events)
    assert (end.status, end.result) == ("STOP", "cannot go on")


async def test_backend_error_ends_the_run(project):
    end = finished(await collect(make_agent(project, ScriptedBackend([]))))
    assert end.status == "ERROR" and "no reply left" in (end.error or "")


async def test_ask_answered_no_then_always(project):
    edit = call("replace_text", path="calc.py", oldText="a - b", newText="a + b")
    backend = ScriptedBackend(
        [
            reply("", edit),
            reply("", edit),
            reply("", call("create_file", path="n.txt", content="x")),
            reply("AGENT_STATUS: DONE"),
        ]
    )
    events = await collect(
        make_agent(project, backend, approval="ask", interactive=True), answers=["no", "always", "no"]
    )
    asked = [e for e in events if isinstance(e, ApprovalRequested)]
    assert [a.call.name for a in asked] == [
        "replace_text",
        "replace_text",
        "create_file",
    ]  # "always" is per tool
    decisions = [(e.action, e.by) for e in events if isinstance(e, DecisionMade)]
    assert decisions == [("deny", "person"), ("allow", "person"), ("deny", "person")]
    assert not (project / "n.txt").exists()
    outcome = results(events)
    assert not outcome[0].ok and "permission denied" in (outcome[0].error or "")


async def test_always_skips_later_questions_for_that_tool(project):
    first = call("replace_text", path="calc.py", oldText="a - b", newText="a + b")
    second = call("replace_text", path="calc.py", oldText="a + b", newText="b + a")
    backend = ScriptedBackend([reply("", first), reply("", second), reply("AGENT_STATUS: DONE")])
    events = await collect(make_agent(project, backend, approval="ask", interactive=True), answers=["always"])
    assert len([e for e in events if isinstance(e, ApprovalRequested)]) == 1
    assert [(e.action, e.by) for e in events if isinstance(e, DecisionMade)] == [
        ("allow", "person"),
        ("allow", "session"),
    ]
    assert "b + a" in (project / "calc.py").read_text()


async def test_no_terminal_means_refusal_and_plan_mode_refuses_writes(project):
    edit = call("replace_text", path="calc.py", oldText="a - b", newText="a + b")
    for config in ({"approval": "ask", "interactive": False}, {"approval": "plan", "interactive": True}):
        backend = ScriptedBackend([reply("", edit), reply("AGENT_STATUS: STOP")])
        events = await collect(make_agent(project, backend, **config))
        assert not any(isinstance(e, ApprovalRequested) for e in events)
        assert not results(events)[0].ok
        assert "a - b" in (project / "calc.py").read_text()


async def test_text_mode_calls_and_bounded_retry(project):
    backend = ScriptedBackend(
        [
            "I cannot access your files, please run this yourself.",
            "As an AI I can't do that.",
            "Sorry, I can't.",
            "AGENT_STATUS: STOP",
        ],
        native=False,
    )
    events = await collect(make_agent(project, backend, max_text_retries=2))
    retries = [e for e in events if isinstance(e, RetryRequested)]
    assert len(retries) == 2 and retries[0].reason.startswith("refusal")
    assert backend.requests[0][1] is None  # text mode sends no tools
    assert "[TOOL_CALL]" in backend.requests[0][0][0].content
    assert finished(events).status in ("DONE", "STOP")


async def test_text_mode_round_trip(project):
    backend = ScriptedBackend(
        ['[TOOL_CALL]read_file[ARGS]{"path": "calc.py"}', "done\nAGENT_STATUS: DONE"], native=False
    )
    events = await collect(make_agent(project, backend))
    assert results(events)[0].ok
    sent = backend.requests[1][0]
    assert sent[-1].role == "user" and "return a - b" in sent[-1].content
    assert "[TOOL_CALL]read_file[ARGS]" in sent[-2].content


async def test_resume_continues_the_conversation(project):
    backend = ScriptedBackend(
        [reply("", call("read_file", path="calc.py")), reply("first\nAGENT_STATUS: DONE")]
    )
    agent = make_agent(project, backend)
    await collect(agent, "first task")
    state = project / ".asi"
    session = SessionStore(state).open(agent.session.id)
    backend2 = ScriptedBackend(["second\nAGENT_STATUS: DONE"])
    ctx = ToolContext(project, Journal(state), session_id=session.id)
    yolo = AgentConfig(gate=GateConfig(approval="yolo"))
    again = Agent(backend2, ToolRunner(default_registry(), ctx), session, "system", yolo)
    events = await collect(again, "second task")
    assert isinstance(events[0], SessionStarted) and events[0].resumed
    sent = [m.content for m in backend2.requests[0][0]]
    assert "first task" in sent and sent[-1] == "second task"
    assert not next(e for e in events if isinstance(e, AssistantReplied)).is_plan


async def test_unparsable_fragment_beside_a_good_call_is_reported(project):
    reply_text = '[TOOL_CALL]read_file[ARGS]{"path": "calc.py"}\n[TOOL_CALL]read_file[ARGS][1, 2]'
    backend = ScriptedBackend([reply_text, "ok\nAGENT_STATUS: DONE"], native=False)
    events = await collect(make_agent(project, backend))
    assert [r.ok for r in results(events)] == [True]
    assert "could not be parsed" in backend.requests[1][0][-1].content
