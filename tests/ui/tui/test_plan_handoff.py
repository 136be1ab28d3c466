"""The plan hand-off in the Textual chat: plan mode writes a todo list, the chat offers to run it in a
chosen mode, and then runs it with the list kept (`App.run_test()` pilots on the scripted model)."""

from __future__ import annotations

from chat_helpers import call, make_app, reply, send, until

from asi_agent.handoff import PLAN_NOTE, RUN_PLAN
from asi_agent.ui.tui.handoff import PlanHandoffScreen
from asi_agent.ui.tui.todos import TodoPanel

STEP = {"id": "1", "content": "Make add return a + b", "status": "pending"}
PLAN = [
    reply("", call("read_file", path="calc.py")),
    reply("", call("todo_write", todos=[STEP])),
    reply("The plan: one step.\nAGENT_STATUS: DONE"),
]
RUN = [
    reply("", call("todo_write", todos=[{**STEP, "status": "in_progress"}])),
    reply("", call("replace_text", path="calc.py", oldText="a - b", newText="a + b")),
    reply("", call("todo_write", todos=[{**STEP, "status": "completed"}])),
    reply("Done.\nAGENT_STATUS: DONE"),
]


def _user_messages(app) -> list[str]:
    return [m.content for m in app.chat.agent.messages if m.role == "user"]


async def test_the_plan_runs_in_the_mode_chosen_with_its_todo_list(project):
    app = make_app(project, [*PLAN, *RUN], "--approval", "plan")
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "fix add")
        await until(pilot, lambda: isinstance(app.screen, PlanHandoffScreen))
        assert "1. Make add return a + b" in str(app.screen.query_one("#question").render())
        assert (project / "calc.py").read_text().endswith("a - b\n"), "plan mode changed nothing"
        await pilot.press("e")
        await until(pilot, lambda: len(_user_messages(app)) == 2 and not app.turn_worker.is_running)
        assert app.chat.mode == "auto-edit"
        assert (project / "calc.py").read_text().endswith("a + b\n")
        first, second = _user_messages(app)
        assert first.startswith(PLAN_NOTE) and first.endswith("fix add")
        assert second == RUN_PLAN
        assert app.query_one(TodoPanel).lines() == ["Tasks 1/1", "● Make add return a + b"]
        assert not isinstance(app.screen, PlanHandoffScreen), "no offer outside plan mode"


async def test_keep_planning_stays_in_plan_mode(project):
    app = make_app(project, PLAN, "--approval", "plan")
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "fix add")
        await until(pilot, lambda: isinstance(app.screen, PlanHandoffScreen))
        await pilot.press("k")
        await pilot.pause()
        assert app.chat.mode == "plan" and len(_user_messages(app)) == 1
        assert (project / "calc.py").read_text().endswith("a - b\n")
