"""MCP servers an editor sends in `session/new`: started for that session (in an untrusted folder too,
as the person's own servers are) and their tools offered (`mcp-server-time` from PyPI over stdio), their
prompts listed as commands (a remote server over streamable HTTP)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from acp import text_block
from acp.schema import EnvVariable, HttpHeader, HttpMcpServer, McpServerStdio
from editor import Editor, agent_process, call, script

from tests.mcp_helpers import serving

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


async def test_an_editor_sent_remote_server_offers_its_prompts(tmp_path: Path) -> None:
    """An http server from the editor: its prompt is listed among the commands, and `/demo:review parser`
    runs as that prompt."""
    with serving("mcp_remote.py", "t0ken", "http") as port:
        project = tmp_path / "proj"
        project.mkdir()
        model = script(tmp_path / "model.json", ["Reviewed.\nAGENT_STATUS: DONE"])
        editor = Editor()
        server = HttpMcpServer(
            type="http",
            name="demo",
            url=f"http://127.0.0.1:{port}/mcp",
            headers=[HttpHeader(name="Authorization", value="Bearer t0ken")],
        )
        async with agent_process(editor, model, project) as conn:
            new = await conn.new_session(cwd=str(project), mcp_servers=[server])
            await editor.settled()
            assert await editor.prompt(new.session_id, text_block("/demo:review parser")) == "end_turn"
    listed = [c.name for u in editor.of_kind("available_commands_update") for c in u.available_commands]
    assert "demo:review" in listed
    transcript = next((project / ".asi" / "sessions").glob("*.jsonl")).read_text(encoding="utf-8")
    assert "Review the parser code carefully." in transcript
