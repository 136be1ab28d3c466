"""MCP servers an editor sends in `session/new`: started for that session (in an untrusted folder too,
as the person's own servers are) and their tools offered; here `mcp-server-time` from PyPI over stdio."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from acp import text_block
from acp.schema import EnvVariable, McpServerStdio
from editor import Editor, agent_process, call, script

pytest.importorskip("mcp_server_time")


async def test_an_editor_sent_server_serves_its_tools(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    model = script(
        tmp_path / "model.json",
        [call("t1", "time__get_current_time", timezone="UTC"), "It is now.\nAGENT_STATUS: DONE"],
    )
    editor = Editor()
    server = McpServerStdio(
        name="time",
        command=sys.executable,
        args=["-m", "mcp_server_time", "--local-timezone", "UTC"],
        env=[EnvVariable(name="TZ", value="UTC")],
    )
    async with agent_process(editor, model, project) as conn:
        new = await conn.new_session(cwd=str(project), mcp_servers=[server])
        assert await editor.prompt(new.session_id, text_block("what time is it?")) == "end_turn"
    updates = editor.tool_updates("t1")
    assert updates and updates[-1].status == "completed", updates
    assert editor.tool_updates("t1")[0].kind == "read"  # mcp-server-time marks its tools read-only
    text = "".join(
        getattr(getattr(c, "content", None), "text", "") for u in updates for c in (u.content or [])
    )
    assert '"timezone": "UTC"' in text
