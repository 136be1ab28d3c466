"""A remote MCP tool's progress notifications become `ToolProgress` events of the running call, between
its start and its result, and an interrupted call is cancelled at the server, through the agent loop with
the scripted model."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.events import ProgressReported, ToolFinished, ToolProgress, ToolStarted, progress_sink
from asi_agent.gate import GateConfig
from asi_agent.plugins import attach_mcp_servers, build_registry
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from tests.mcp_helpers import remote_server, serving, write_mcp_json

pytest.importorskip("mcp")


@pytest.fixture
def url() -> Iterator[str]:
    with serving("mcp_remote.py", "t0ken", "http") as port:
        yield f"http://127.0.0.1:{port}/mcp"


async def _agent(tmp_path: Path, url: str, call: ScriptedCall) -> tuple[Agent, ToolContext]:
    root, user = tmp_path / "proj", tmp_path / "user"
    root.mkdir()
    user.mkdir()
    write_mcp_json(user, "demo", remote_server(url, "t0ken"))
    registry, _ = build_registry(root, user, trusted=True, locale="en")
    session = SessionStore(root / ".asi").create()
    ctx = ToolContext(root, Journal(root / ".asi"), session_id=session.id)
    assert await attach_mcp_servers(registry, ctx, user_dir=user, trusted=True) == []
    replies = [ScriptedReply(calls=[call]), "Done.\nAGENT_STATUS: DONE"]
    config = AgentConfig(gate=GateConfig(approval="yolo"), locale="en")
    return Agent(ScriptedBackend(replies), ToolRunner(registry, ctx), session, "system", config), ctx


async def test_an_interrupted_call_is_cancelled_at_the_server(tmp_path: Path, url: str) -> None:
    marker = tmp_path / "cancelled.txt"
    agent, ctx = await _agent(
        tmp_path, url, ScriptedCall(name="demo__sleepy", arguments={"marker": str(marker)})
    )
    try:

        async def drain() -> None:
            async for _ in agent.run("task"):
                pass

        running = asyncio.create_task(drain())
        await asyncio.sleep(2)
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
    finally:
        await ctx.aclose()
    assert marker.read_text(encoding="utf-8") == "cancelled"


async def test_progress_is_reported_on_the_running_call(tmp_path: Path, url: str) -> None:
    seen: list[ProgressReported] = []
    agent, ctx = await _agent(tmp_path, url, ScriptedCall(name="demo__count"))
    try:
        with progress_sink(seen.append):
            events = [event async for event in agent.run("task")]
    finally:
        await ctx.aclose()
    calls = [e for e in events if isinstance(e, ToolStarted | ToolProgress | ToolFinished)]
    kinds = [type(e).__name__ for e in calls]
    assert kinds == ["ToolStarted", "ToolProgress", "ToolProgress", "ToolFinished"]
    started, first, second, finished = calls
    assert isinstance(finished, ToolFinished) and finished.ok and finished.output == "counted"
    assert isinstance(first, ToolProgress) and isinstance(second, ToolProgress)
    assert {first.call_id, second.call_id} == {started.call.id}  # type: ignore[union-attr]
    assert [(p.progress, p.total, p.message, p.detail) for p in (first, second)] == [
        (1, 2, "one", "1/2 · one"),
        (2, 2, "two", "2/2 · two"),
    ]
    assert not [p for p in seen if "count" in p.activity]  # one path: the call's events, not the side channel
