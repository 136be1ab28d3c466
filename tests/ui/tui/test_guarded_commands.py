"""Slash commands that can hurt ask first: /undo beyond this session, /export outside the project;
/model refuses a model the provider does not have."""

from __future__ import annotations

from chat_helpers import BUGGY, FIX_SCRIPT, call, chat_args, make_app, reply, send, until

from asi_agent.ui.chatsession import ChatSession
from asi_agent.ui.tui.app import ChatApp
from asi_agent.ui.tui.screens import ConfirmScreen
from asi_agent.ui.tui.widgets import Notice

FIXED = BUGGY.replace("a - b", "a + b")
NEW_MODULE = [
    reply("", call("create_file", path="pkg/sub/mod.py", content="X = 1\n")),
    reply("Created.\nAGENT_STATUS: DONE"),
]


def idle(app) -> bool:
    return app.turn_worker is not None and not app.turn_worker.is_running


def last_notice(app) -> str:
    return str(list(app.query(Notice))[-1].render())


async def command(pilot, text: str) -> None:
    await send(pilot, text)
    await pilot.pause()


async def test_undo_is_this_sessions_and_asks_before_reverting_another_sessions(project):
    app = make_app(project, [*FIX_SCRIPT, *NEW_MODULE], "--approval", "yolo")
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "fix add")  # session one fixes calc.py
        await until(pilot, lambda: idle(app))
        await command(pilot, "/clear")  # session two makes a module in new folders
        await send(pilot, "add a module")
        await until(pilot, lambda: idle(app) and (project / "pkg/sub/mod.py").exists())

        await command(pilot, "/undo")
        assert "reverted" in last_notice(app) and "pkg/sub/mod.py" in last_notice(app)
        assert not (project / "pkg").exists(), "the folders the undone create left empty are gone"
        assert (project / "calc.py").read_text() == FIXED, "another session's change is left alone"
        await command(pilot, "/undo")
        assert "nothing to undo in this session" in last_notice(app)

        await command(pilot, "/undo 1")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "not this session's" in app.screen.question and "calc.py" in app.screen.question
        await pilot.press("n")
        await until(pilot, lambda: "not done" in last_notice(app))
        assert (project / "calc.py").read_text() == FIXED

        await command(pilot, "/undo 1")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: "reverted" in last_notice(app))
        assert (project / "calc.py").read_text() == BUGGY


async def test_export_outside_the_project_asks_first(project, tmp_path):
    outside = tmp_path / "elsewhere.md"
    app = make_app(project, [])
    async with app.run_test(size=(100, 30)) as pilot:
        await command(pilot, f"/export {outside}")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "outside the project" in app.screen.question
        await pilot.press("escape")
        await until(pilot, lambda: "not done" in last_notice(app))
        assert not outside.exists()
        await command(pilot, "/export ../elsewhere.md")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: "wrote" in last_notice(app))
        assert outside.read_text().startswith("# asi-agent session")
        await command(pilot, "/export inside.md")  # inside the project: no question
        assert "wrote" in last_notice(app) and (project / "inside.md").is_file()


async def test_model_lists_the_servers_models_and_refuses_unknown_ones(project, openai_server):
    flags = ["--provider", "openai", "--base-url", openai_server.base_url, "--model", "test-model"]
    args = chat_args(project, *flags)
    app = ChatApp(args, ChatSession.open(args))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: "Working in" in last_notice(app))
        await command(pilot, "/model")
        assert "* test-model" in last_notice(app)
        await command(pilot, "/model foo")
        assert "no model 'foo'" in last_notice(app) and "test-model" in last_notice(app)
        assert app.chat.model == "test-model"


async def test_model_of_a_file_provider_must_be_a_file(project):
    app = make_app(project, [])
    async with app.run_test(size=(100, 30)) as pilot:
        await command(pilot, "/model foo")
        assert "no model file foo" in last_notice(app)
        assert app.chat.model == "scripted"
