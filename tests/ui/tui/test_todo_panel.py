"""The chat's todo panel, driven with `App.run_test()` on the scripted model."""

from __future__ import annotations

from chat_helpers import call, make_app, reply, send, until

from asi_agent.ui.tui.todos import TodoPanel

FIRST = [
    {"id": "1", "content": "Read calc.py", "status": "in_progress"},
    {"id": "2", "content": "Fix add", "status": "pending"},
]
SECOND = [
    {"id": "1", "content": "Read calc.py", "status": "completed"},
    {"id": "2", "content": "Fix add", "status": "in_progress"},
]


async def test_the_panel_shows_the_latest_list_and_ignores_a_refused_one(project):
    busy = [{**item, "status": "in_progress"} for item in FIRST]
    script = [
        reply("", call("todo_write", todos=FIRST)),
        reply("", call("todo_write", todos=SECOND)),
        reply("", call("todo_write", todos=busy)),
        reply("Working.\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, script)
    async with app.run_test(size=(100, 30)) as pilot:
        panel = app.query_one(TodoPanel)
        assert not panel.display, "no list yet: no panel"
        await send(pilot, "fix add")
        await until(pilot, lambda: app.turn_worker is not None and not app.turn_worker.is_running)
        assert panel.display
        assert panel.lines() == ["Tasks 1/2", "● Read calc.py", "◐ Fix add"]
        assert [(item.id, item.status) for item in panel.todos] == [("1", "completed"), ("2", "in_progress")]


async def test_an_empty_list_hides_the_panel(project):
    script = [
        reply("", call("todo_write", todos=FIRST)),
        reply("", call("todo_write", todos=[])),
        reply("All clear.\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, script)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "plan")
        await until(pilot, lambda: app.turn_worker is not None and not app.turn_worker.is_running)
        assert not app.query_one(TodoPanel).display
