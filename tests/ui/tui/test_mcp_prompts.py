"""An MCP server's prompts in the Textual chat: completed after `/` like the chat's own commands, and sent
as the server's prompt (the `mcp` SDK's own server over streamable HTTP, on loopback)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from chat_helpers import make_app, reply, until

pytest.importorskip("mcp")
SERVER = Path(__file__).resolve().parents[2] / "servers" / "mcp_remote.py"
TOKEN = "test-token-not-a-secret"


@pytest.fixture
def remote() -> Iterator[str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    process = subprocess.Popen([sys.executable, str(SERVER), str(port), TOKEN, "http"])
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


async def test_a_prompt_completes_and_is_sent_as_the_servers_prompt(project, user_config, remote):
    server = {"type": "http", "url": remote, "headers": {"Authorization": f"Bearer {TOKEN}"}}
    (user_config / "mcp.json").write_text(json.dumps({"mcpServers": {"demo": server}}))
    app = make_app(project, [reply("Reviewed.\nAGENT_STATUS: DONE")])
    async with app.run_test() as pilot:
        await until(pilot, lambda: app.chat is not None and bool(app.chat.mcp_prompts))
        await pilot.press(*"/demo:r")
        await pilot.pause()
        assert app.completions.display
        await pilot.press("tab")
        await pilot.pause()
        assert app.input.text == "/demo:review "
        await pilot.press(*"parser")
        await pilot.press("enter")
        await until(pilot, lambda: app.turn_worker is not None and not app.turn_worker.is_running)
        messages = app.chat.agent.messages
        assert [m.content for m in messages if m.role == "user"] == ["Review the parser code carefully."]
