"""An MCP server's prompts in the Textual chat: completed after `/` like the chat's own commands, and sent
as the server's prompt (the `mcp` SDK's own server over streamable HTTP, on loopback)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from chat_helpers import complete_and_send, make_app, reply, until

from tests.mcp_helpers import remote_server, serving, write_mcp_json

pytest.importorskip("mcp")
TOKEN = "test-token-not-a-secret"


@pytest.fixture
def remote() -> Iterator[str]:
    with serving("mcp_remote.py", TOKEN, "http") as port:
        yield f"http://127.0.0.1:{port}/mcp"


async def test_a_prompt_completes_and_is_sent_as_the_servers_prompt(project, user_config, remote):
    write_mcp_json(user_config, "demo", remote_server(remote, TOKEN))
    app = make_app(project, [reply("Reviewed.\nAGENT_STATUS: DONE")])
    async with app.run_test() as pilot:
        await until(pilot, lambda: app.chat is not None and bool(app.chat.mcp_prompts))
        sent = await complete_and_send(pilot, "/demo:r", "/demo:review ", "parser")
        assert sent == ["Review the parser code carefully."]
