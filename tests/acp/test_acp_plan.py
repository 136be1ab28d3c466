"""The model's todo list reaches the editor as ACP plan updates (the real `asi-agent acp`, the SDK's
client side, a scripted model)."""

from __future__ import annotations

from pathlib import Path

from acp import text_block
from editor import Editor, agent_process, call, script

from asi_agent.handoff import RUN_PLAN

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


async def test_plan_mode_hands_the_plan_to_the_mode_the_editor_switches_to(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    step = {"id": "1", "content": "Make add return a + b", "status": "pending"}
    model = script(
        tmp_path / "handoff.json",
        [
            call("t1", "todo_write", todos=[step]),
            call("e0", "replace_text", path="calc.py", oldText="a - b", newText="a + b"),
            "One step.\nAGENT_STATUS: DONE",
            call("e1", "replace_text", path="calc.py", oldText="a - b", newText="a + b"),
            call("t2", "todo_write", todos=[{**step, "status": "completed"}]),
            "Done.\nAGENT_STATUS: DONE",
        ],
    )
    editor = Editor()
    async with agent_process(editor, model, project, "--approval", "plan") as conn:
        session = await conn.new_session(cwd=str(project), mcp_servers=[])
        assert await editor.prompt(session.session_id, text_block("fix add")) == "end_turn"
        assert (project / "calc.py").read_text().endswith("a - b\n"), "plan mode refused the edit"
        assert "the plan is ready. To run it, switch this session's mode" in editor.message_text()
        await conn.set_session_mode(mode_id="auto-edit", session_id=session.session_id)
        assert await editor.prompt(session.session_id, text_block(RUN_PLAN)) == "end_turn"
    assert (project / "calc.py").read_text().endswith("a + b\n")
    plans = [[(e.content, e.status) for e in u.entries] for u in editor.of_kind("plan")]
    assert plans == [[("Make add return a + b", "pending")], [("Make add return a + b", "completed")]]
    assert editor.message_text().count("the plan is ready") == 1
