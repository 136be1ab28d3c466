"""An MCP tool's progress in the editor: a `tool_call_update` of the running call carrying `40/100 ·
indexing` as its content arrives before the call's final update, which replaces it with the result (a
stdio server made with the `mcp` SDK, `tests/servers/mcp_progress.py`, sent by the editor); a child
agent's call's progress goes to that call (`TASK-ID/CALL-ID`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from acp import text_block
from acp.schema import McpServerStdio
from editor import Editor, agent_process, call, script

pytest.importorskip("mcp")
SERVER = Path(__file__).resolve().parents[1] / "servers" / "mcp_progress.py"


def _text(update: object) -> str:
    blocks = getattr(update, "content", None) or []
    return "".join(getattr(getattr(block, "content", None), "text", "") for block in blocks)


async def test_progress_arrives_as_an_update_of_the_running_call(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    model = script(
        tmp_path / "model.json",
        [call("t1", "progress__index", pause=0.2), "Indexed.\nAGENT_STATUS: DONE"],
    )
    editor = Editor()
    server = McpServerStdio(name="progress", command=sys.executable, args=[str(SERVER)], env=[])
    async with agent_process(editor, model, project) as conn:
        new = await conn.new_session(cwd=str(project), mcp_servers=[server])
        assert await editor.prompt(new.session_id, text_block("index the project")) == "end_turn"
    updates = [u for u in editor.tool_updates("t1") if u.session_update == "tool_call_update"]
    shown = [(u.status, _text(u)) for u in updates]
    assert ("in_progress", "40/100 · indexing") in shown, shown
    assert ("in_progress", "100/100 · done") in shown, shown
    progress = shown.index(("in_progress", "40/100 · indexing"))
    assert shown.index(("in_progress", "100/100 · done")) > progress
    assert shown[-1][0] == "completed" and "indexed" in shown[-1][1]
    assert all(status != "completed" for status, _ in shown[: progress + 1])


async def test_a_child_agents_call_reports_its_progress_under_its_own_id(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    task = call("t1", "task", description="index", prompt="Index the project", subagent_type="general")
    replies = [
        task,
        call("c1", "progress__index", pause=0.2),
        "Indexed.\nAGENT_STATUS: DONE",
        "Done.\nAGENT_STATUS: DONE",
    ]
    model = script(tmp_path / "model.json", replies)
    editor = Editor()
    editor.answers = ["yes"] * 3  # whatever the mode asks about the task call
    server = McpServerStdio(name="progress", command=sys.executable, args=[str(SERVER)], env=[])
    async with agent_process(editor, model, project) as conn:
        new = await conn.new_session(cwd=str(project), mcp_servers=[server])
        assert await editor.prompt(new.session_id, text_block("index the project")) == "end_turn"
    child = [(u.status, _text(u)) for u in editor.tool_updates("t1/c1")]
    assert ("in_progress", "40/100 · indexing") in child, child
    assert child[-1][0] == "completed" and "indexed" in child[-1][1]
    assert all("indexing" not in _text(u) for u in editor.tool_updates("t1"))
