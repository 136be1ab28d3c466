"""A running command reports its progress on its call: `run_terminal_cmd` and `run_tests` yield
`ToolProgress` events (seconds run, lines of output) between the call's start and its result, through the
agent loop with the scripted model; a quick command reports nothing."""

from __future__ import annotations

from pathlib import Path

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.events import AgentEvent, ToolFinished, ToolProgress, ToolStarted
from asi_agent.gate import GateConfig
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry

# one line every 0.4 s for about 2.8 s: long enough for two reports a second apart
SLOW = "for i in 1 2 3 4 5 6 7; do echo tick $i; sleep 0.4; done"
SLOW_TEST = "import time\n\n\ndef test_slow():\n    time.sleep(2.6)\n"


async def _calls(root: Path, *calls: ScriptedCall) -> list[AgentEvent]:
    """The call events of a run that makes `calls` one after another."""
    ctx = ToolContext(root, Journal(root / ".asi"), session_id="progress", command_timeout=60)
    session = SessionStore(root / ".asi").create()
    replies = [*(ScriptedReply(calls=[call]) for call in calls), "Done.\nAGENT_STATUS: DONE"]
    config = AgentConfig(gate=GateConfig(approval="yolo"), locale="en")
    agent = Agent(ScriptedBackend(replies), ToolRunner(default_registry(), ctx), session, "system", config)
    try:
        events = [event async for event in agent.run("task")]
    finally:
        await ctx.aclose()
    return [e for e in events if isinstance(e, ToolStarted | ToolProgress | ToolFinished)]


def _reports(events: list[AgentEvent]) -> list[ToolProgress]:
    """The progress of the one call in `events`, checked to lie between its start and its result."""
    assert isinstance(events[0], ToolStarted) and isinstance(events[-1], ToolFinished)
    middle = events[1:-1]
    assert all(isinstance(e, ToolProgress) and e.call_id == events[0].call.id for e in middle)
    return [e for e in middle if isinstance(e, ToolProgress)]


async def test_a_slow_command_reports_seconds_and_lines(tmp_path: Path) -> None:
    slow = ScriptedCall(name="run_terminal_cmd", arguments={"command": SLOW})
    quick = ScriptedCall(name="run_terminal_cmd", arguments={"command": "echo quick"})
    events = await _calls(tmp_path, slow, quick)
    first, second = events[: len(events) - 2], events[-2:]
    reports = _reports(first)
    assert len(reports) >= 2, events
    seconds = [r.progress for r in reports]
    assert seconds == sorted(seconds) and seconds[0] >= 1.0 and all(r.total is None for r in reports)
    lines = [int(r.message.split(", ")[1].split()[0]) for r in reports]
    assert lines == sorted(lines) and 1 <= lines[-1] <= 7
    assert reports[0].message.startswith("running for 1 s, ") and reports[0].message.endswith(" of output")
    assert isinstance(first[-1], ToolFinished) and "tick 7" in first[-1].output
    assert _reports(second) == []  # done within the first second: nothing to report


async def test_run_tests_reports_while_the_suite_runs(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_slow.py").write_text(SLOW_TEST, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.pytest.ini_options]\n", encoding="utf-8")
    events = await _calls(tmp_path, ScriptedCall(name="run_tests", arguments={}))
    reports = _reports(events)
    assert len(reports) >= 2, events
    assert all("running for" in r.message for r in reports)
    finished = events[-1]
    assert isinstance(finished, ToolFinished) and "1 passed" in finished.output, finished.output
