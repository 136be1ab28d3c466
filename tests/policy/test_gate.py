"""The gate's semantics through the real agent loop: "always" answers only the mode's own questions.

The commands are data: destructive ones are refused by the person (answer "no") and never run;
the harmless ones run in a temporary folder.
"""

from __future__ import annotations

from pathlib import Path

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.events import ApprovalRequested, DecisionMade, ToolFinished
from asi_agent.gate import GateConfig
from asi_agent.policy import Policy, Rule
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry


def command(text: str) -> ScriptedReply:
    return ScriptedReply(text="", calls=[ScriptedCall(name="run_terminal_cmd", arguments={"command": text})])


def agent(root: Path, replies: list[ScriptedReply], approval: str, policy: Policy | None = None) -> Agent:
    state = root / ".asi"
    session = SessionStore(state).create()
    ctx = ToolContext(root, Journal(state), session_id=session.id)
    gate = GateConfig(approval=approval, interactive=True, policy=policy or Policy())  # type: ignore[arg-type]
    backend = ScriptedBackend([*replies, ScriptedReply(text="AGENT_STATUS: DONE")])
    return Agent(backend, ToolRunner(default_registry(), ctx), session, "system", AgentConfig(gate=gate))


async def run(
    root: Path, replies: list[ScriptedReply], answers: list[str], approval: str = "ask", policy=None
):
    events = []
    async for event in agent(root, replies, approval, policy).run("task"):
        if isinstance(event, ApprovalRequested):
            event.answer.set_result(answers.pop(0))
        events.append(event)
    return events


async def test_always_does_not_answer_a_later_destructive_question(tmp_path):
    (tmp_path / "keep.txt").write_text("x\n")
    events = await run(tmp_path, [command("echo one"), command("git reset --hard"), command("echo two")],
                       ["always", "no"])  # fmt: skip
    asked = [e for e in events if isinstance(e, ApprovalRequested)]
    assert [a.call.arguments["command"] for a in asked] == ["echo one", "git reset --hard"]
    assert "destructive command" in asked[1].reason and "git reset --hard" in asked[1].reason
    decisions = [(e.action, e.by, e.rule) for e in events if isinstance(e, DecisionMade)]
    assert decisions == [
        ("allow", "person", "mode ask"),
        ("deny", "person", "destructive-command classifier"),
        ("allow", "session", "mode ask"),
    ]


async def test_destructive_asks_every_time_even_after_yes(tmp_path):
    replies = [command("git clean -fdx"), command("git clean -fdx --quiet")]
    events = await run(tmp_path, replies, ["always", "no"], approval="auto-edit")
    assert len([e for e in events if isinstance(e, ApprovalRequested)]) == 2


async def test_allow_rule_does_not_silence_a_destructive_command(tmp_path):
    policy = Policy(rules=[Rule(tool="run_terminal_cmd", action="allow")])
    events = await run(tmp_path, [command("echo fine"), command("git stash clear")], ["no"], policy=policy)
    asked = [e for e in events if isinstance(e, ApprovalRequested)]
    assert [a.call.arguments["command"] for a in asked] == ["git stash clear"]


async def test_refusal_tells_the_model_the_rule_in_one_line(tmp_path):
    events = await run(tmp_path, [command("rm -rf ~")], [], approval="yolo")
    finished = [e for e in events if isinstance(e, ToolFinished)]
    error = finished[0].error or ""
    assert not finished[0].ok and "\n" not in error
    assert "[destructive-command classifier]" in error and "home folder" in error


async def test_yolo_refuses_a_destructive_command_outside_the_project(tmp_path):
    events = await run(tmp_path, [command("rm -rf ~/old-projects")], [], approval="yolo")
    decision = next(e for e in events if isinstance(e, DecisionMade))
    assert decision.action == "deny" and "not inside the project" in decision.reason
