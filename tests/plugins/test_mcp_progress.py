"""A remote MCP tool's progress notifications reach the progress display while the call runs, through
the agent loop with the scripted model."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.events import ProgressReported, ToolFinished, progress_sink
from asi_agent.gate import GateConfig
from asi_agent.plugins import attach_mcp_servers, build_registry
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal

pytest.importorskip("mcp")
SERVER = Path(__file__).resolve().parents[1] / "servers" / "mcp_remote.py"


@pytest.fixture
def url():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen([sys.executable, str(SERVER), str(port), "t0ken", "http"])
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(10)


async def test_progress_is_reported(tmp_path: Path, url: str) -> None:
    root, user = tmp_path / "proj", tmp_path / "user"
    root.mkdir()
    user.mkdir()
    server = {"type": "http", "url": url, "headers": {"Authorization": "Bearer t0ken"}}
    (user / "mcp.json").write_text(json.dumps({"mcpServers": {"demo": server}}))
    registry, _ = build_registry(root, user, trusted=True, locale="en")
    session = SessionStore(root / ".asi").create()
    ctx = ToolContext(root, Journal(root / ".asi"), session_id=session.id)
    seen: list[ProgressReported] = []
    try:
        assert await attach_mcp_servers(registry, ctx, user_dir=user, trusted=True) == []
        replies = [ScriptedReply(calls=[ScriptedCall(name="demo__count")]), "Done.\nAGENT_STATUS: DONE"]
        agent = Agent(
            ScriptedBackend(replies),
            ToolRunner(registry, ctx),
            session,
            "system",
            AgentConfig(gate=GateConfig(approval="yolo"), locale="en"),
        )
        with progress_sink(seen.append):
            events = [event async for event in agent.run("task")]
    finally:
        await ctx.aclose()
    finished = [e for e in events if isinstance(e, ToolFinished)]
    assert finished and finished[0].ok, finished
    assert [(p.activity, p.detail) for p in seen if "count" in p.activity] == [
        ("demo: count", "1/2 one"),
        ("demo: count", "2/2 two"),
    ]
