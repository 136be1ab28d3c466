"""The model's todo list reaches the editor as ACP plan updates (the real `asi-agent acp`, the SDK's
client side, a scripted model)."""

from __future__ import annotations

from pathlib import Path

from acp import text_block
from editor import Editor, agent_process, call, script

FIRST = [
    {"id": "1", "content": "Read the code", "status": "in_progress"},
    {"id": "2", "content": "Fix the bug", "status": "pending"},
]
SECOND = [
    {"id": "1", "content": "Read the code", "status": "completed"},
    {"id": "2", "content": "Fix the bug", "status": "in_progress"},
]


async def test_each_todo_list_is_sent_whole_as_the_plan(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    busy = [{**item, "status": "in_progress"} for item in FIRST]
    model = script(
        tmp_path / "plan.json",
        [
            call("t1", "todo_write", todos=FIRST),
            call("t2", "todo_write", todos=busy),
            call("t3", "todo_write", todos=SECOND),
            "Working on it.\nAGENT_STATUS: DONE",
        ],
    )
    editor = Editor()
    async with agent_process(editor, model, project) as conn:
        session = await conn.new_session(cwd=str(project), mcp_servers=[])
        assert await editor.prompt(session.session_id, text_block("fix the bug")) == "end_turn"
    plans = [[(e.content, e.status, e.priority) for e in u.entries] for u in editor.of_kind("plan")]
    assert plans == [  # the refused list (two in progress) sent nothing
        [("Read the code", "in_progress", "medium"), ("Fix the bug", "pending", "medium")],
        [("Read the code", "completed", "medium"), ("Fix the bug", "in_progress", "medium")],
    ]
