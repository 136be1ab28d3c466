"""Slash commands, completion, history, `!command` and the changed-files panel in the Textual chat."""

from __future__ import annotations

import json

import pytest
from chat_helpers import BUGGY, FIX_SCRIPT, call, complete, make_app, reply, send, until

from asi_agent.session import SessionStore
from asi_agent.ui.slash import COMMANDS
from asi_agent.ui.tui.screens import ApprovalScreen
from asi_agent.ui.tui.widgets import Notice, ReplyView, ToolCard, UserLine

FIXED = BUGGY.replace("a - b", "a + b")


def idle(app) -> bool:
    return app.turn_worker is not None and not app.turn_worker.is_running


def last_notice(app) -> str:
    return str(list(app.query(Notice))[-1].render())


async def fixed(pilot, app) -> None:
    await send(pilot, "fix add")
    await until(pilot, lambda: idle(app))


async def test_help_lists_every_command_with_its_description(project):
    app = make_app(project, [])
    async with app.run_test(size=(100, 40)) as pilot:
        await send(pilot, "/help")
        await pilot.pause()
        shown = last_notice(app)
        for name, text in COMMANDS.items():
            assert f"{name}" in shown and text in shown


async def test_model_shows_the_model(project):
    app = make_app(project, [])
    async with app.run_test() as pilot:
        await send(pilot, "/model")
        await pilot.pause()
        assert "scripted" in last_notice(app)


async def test_mode_plan_refuses_the_next_write_without_asking(project):
    app = make_app(project, [*FIX_SCRIPT[1:2], reply("Cannot write in plan mode.\nAGENT_STATUS: STOP")])
    async with app.run_test() as pilot:
        await send(pilot, "/mode plan")
        await pilot.pause()
        assert "mode: plan" in last_notice(app)
        assert app.status.fields["mode"].startswith("mode plan · ")
        await send(pilot, "/mode sideways")
        await pilot.pause()
        assert "unknown mode" in last_notice(app)
        await fixed(pilot, app)
        assert not isinstance(app.screen, ApprovalScreen)
        assert app.query_one(ToolCard).heading.startswith("✗")
        assert (project / "calc.py").read_text() == BUGGY


async def test_mode_yolo_runs_writes_without_asking(project):
    app = make_app(project, FIX_SCRIPT)
    async with app.run_test() as pilot:
        await send(pilot, "/mode yolo")
        await fixed(pilot, app)
        assert (project / "calc.py").read_text() == FIXED


async def test_tools_lists_the_tools(project):
    app = make_app(project, [])
    async with app.run_test() as pilot:
        await send(pilot, "/tools")
        await pilot.pause()
        assert "replace_text" in last_notice(app) and "run_terminal_cmd" in last_notice(app)


async def test_diff_and_undo(project):
    app = make_app(project, FIX_SCRIPT, "--approval", "yolo")
    async with app.run_test() as pilot:
        await send(pilot, "/diff")
        await pilot.pause()
        assert "no changes" in last_notice(app)
        await fixed(pilot, app)
        await send(pilot, "/diff")
        await pilot.pause()
        assert "+    return a + b" in last_notice(app)
        await send(pilot, "/undo")
        await pilot.pause()
        assert "reverted" in last_notice(app) and "calc.py" in last_notice(app)
        assert (project / "calc.py").read_text() == BUGGY
        await send(pilot, "/undo")
        await pilot.pause()
        assert "nothing to undo" in last_notice(app)


async def test_clear_sessions_and_resume(project):
    app = make_app(project, [*FIX_SCRIPT, reply("Still fixed.\nAGENT_STATUS: DONE")], "--approval", "yolo")
    async with app.run_test() as pilot:
        await fixed(pilot, app)
        first = app.chat.session_id
        await send(pilot, "/clear")
        await pilot.pause()
        assert app.chat.session_id != first
        assert not app.query(ToolCard), "the view starts empty"
        await send(pilot, "/sessions")
        await pilot.pause()
        assert first in last_notice(app) and "fix add" in last_notice(app)
        await send(pilot, f"/resume {first}")
        await pilot.pause()
        assert app.chat.session_id == first
        assert app.status.fields["tokens"] == f"{app.chat.tokens_used():,} tokens" != "0 tokens"
        assert [c.call.name for c in app.query(ToolCard)] == ["read_file", "replace_text"]
        assert "fix add" in str(app.query(UserLine).first().render())
        await send(pilot, "is it still fixed?")
        await until(pilot, lambda: app.status.fields.get("agent_status") == "DONE" and idle(app))
        assert [r.text for r in app.query(ReplyView)][-1] == "Still fixed."
    messages = SessionStore(project / ".asi").open(first).messages()
    assert messages[-2].content == "is it still fixed?"


async def test_resume_of_an_unknown_session_says_so(project):
    app = make_app(project, [])
    async with app.run_test() as pilot:
        await send(pilot, "/resume 20000101-000000-abcdef")
        await pilot.pause()
        assert "no session" in last_notice(app)


async def test_compact_with_nothing_to_compact_says_so(project):
    app = make_app(project, [])
    async with app.run_test() as pilot:
        await send(pilot, "/compact")
        await until(pilot, lambda: "nothing to compact" in last_notice(app))


async def test_compact_summarises_with_the_model_and_context_left_is_shown(project, user_config):
    (user_config / "config.toml").write_text("context_window = 50000\n")
    app = make_app(project, [*FIX_SCRIPT, reply("Summary: add was fixed in calc.py.")], "--approval", "yolo")
    async with app.run_test() as pilot:
        await fixed(pilot, app)
        left = app.status.fields["context"]
        assert left.endswith(" left") and 40_000 < int(left.split()[0].replace(",", "")) < 50_000
        await send(pilot, "/compact")
        await until(pilot, lambda: "compacted" in last_notice(app) and idle(app))
        assert "2 messages summarised" in last_notice(app)
        assert app.chat.agent.backend.requests[-1][0][0].content.startswith("You compact the conversation")
        assert any("Summary: add was fixed" in m.content for m in app.chat.agent.messages)
    records = SessionStore(project / ".asi").open(app.chat.session_id).records()
    assert [r["reason"] for r in records if r["type"] == "compacted"] == ["request"]


async def test_after_model_switches_compact_asks_the_new_model(project, user_config, tmp_path):
    """Every user of the old model switches with `/model`: the summary of `/compact` is the new model's."""
    (user_config / "config.toml").write_text("context_window = 50000\n")
    script = tmp_path / "second-model.json"
    script.write_text(json.dumps({"replies": ["Summary by the second model: add was fixed."]}))
    app = make_app(project, FIX_SCRIPT, "--approval", "yolo")
    async with app.run_test() as pilot:
        await fixed(pilot, app)
        first = app.chat.agent.backend
        await send(pilot, f"/model {script}")
        await until(pilot, lambda: app.chat.agent.backend is not first)
        await send(pilot, "/compact")
        await until(pilot, lambda: "compacted" in last_notice(app) and idle(app))
        second = app.chat.agent.backend
        assert second.model_name == "second-model"
        assert second.requests[-1][0][0].content.startswith("You compact the conversation")
        assert not any(m[0].content.startswith("You compact") for m, _ in first.requests if m)
        assert any("Summary by the second model" in m.content for m in app.chat.agent.messages)


async def test_export_writes_markdown(project):
    app = make_app(project, FIX_SCRIPT, "--approval", "yolo")
    async with app.run_test() as pilot:
        await fixed(pilot, app)
        await send(pilot, "/export chat.md")
        await pilot.pause()
        text = (project / "chat.md").read_text()
        assert "## user\n\nfix add" in text and "replace_text" in text


async def test_quit_exits(project):
    app = make_app(project, [])
    async with app.run_test() as pilot:
        await send(pilot, "/quit")
        await pilot.pause()
    assert app.return_code == 0


async def test_unknown_command_suggests(project):
    app = make_app(project, [])
    async with app.run_test() as pilot:
        await send(pilot, "/mod")
        await pilot.press("escape")  # close the completion list first
        await pilot.press("enter")
        await pilot.pause()
        assert "unknown command /mod" in last_notice(app) and "/model" in last_notice(app)


@pytest.mark.parametrize(("typed", "completed"), [("/he", "/help "), ("/und", "/undo ")])
async def test_slash_completion(project, typed, completed):
    app = make_app(project, [])
    async with app.run_test() as pilot:
        await complete(pilot, typed, completed)


async def test_at_completion_attaches_the_file(project):
    (project / "src").mkdir()
    (project / "src" / "calculator_tests.py").write_text("assert True\n")
    app = make_app(project, [reply("Seen.\nAGENT_STATUS: DONE")])
    async with app.run_test() as pilot:
        await pilot.press(*"look at @calc")
        await pilot.pause()
        options = [
            str(app.completions.get_option_at_index(i).prompt) for i in range(app.completions.option_count)
        ]
        assert options[0] == "@calc.py" and "@src/calculator_tests.py" in options
        await pilot.press("tab")
        assert app.input.text == "look at @calc.py "
        await pilot.press("enter")
        await until(pilot, lambda: idle(app))
        sent = app.chat.agent.backend.requests[0][0][-1].content
        assert sent.startswith("look at @calc.py") and '<file path="calc.py">\ndef add(a, b):' in sent


async def test_history_walks_back_and_persists(project):
    app = make_app(project, [reply("One.\nAGENT_STATUS: DONE"), reply("Two.\nAGENT_STATUS: DONE")])
    async with app.run_test() as pilot:
        await send(pilot, "first question")
        await until(pilot, lambda: idle(app))
        await send(pilot, "second question")
        await until(pilot, lambda: idle(app) and app.status.fields.get("turn") == "turn 1")
    again = make_app(project, [])
    async with again.run_test() as pilot:
        await pilot.press("up")
        assert again.input.text == "second question"
        await pilot.press("up")
        assert again.input.text == "first question"
        await pilot.press("down")
        assert again.input.text == "second question"
        await pilot.press("down")
        assert again.input.text == ""


async def test_multi_line_entry(project):
    app = make_app(project, [reply("Read both lines.\nAGENT_STATUS: DONE")])
    async with app.run_test() as pilot:
        await pilot.press(*"line one", "ctrl+j", *"line two", "enter")
        await until(pilot, lambda: idle(app))
        assert app.chat.agent.backend.requests[0][0][-1].content == "line one\nline two"


async def test_bang_command_runs_through_the_policy(project):
    app = make_app(project, [reply("I saw the listing.\nAGENT_STATUS: DONE")])
    async with app.run_test() as pilot:
        await send(pilot, "!ls")  # a read-only command runs without asking, as the model's would
        await until(pilot, lambda: idle(app))
        card = app.query_one(ToolCard)
        assert card.heading.startswith("✓") and "calc.py" in card.output
        await send(pilot, "!echo made > note.txt")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        assert app.screen.request.call.arguments == {"command": "echo made > note.txt"}
        await pilot.press("y")
        await until(pilot, lambda: idle(app))
        assert (project / "note.txt").read_text() == "made\n"
        await send(pilot, "what did you see?")
        await until(pilot, lambda: idle(app) and bool(app.chat.agent.backend.requests))
        sent = app.chat.agent.backend.requests[0][0][-1].content
        assert "I ran `ls` myself" in sent and "calc.py" in sent


async def test_panel_lists_changes_and_sets_the_cursor(project):
    script = [
        *FIX_SCRIPT[1:2],
        reply("Done.\nAGENT_STATUS: DONE"),
        reply("", call("get_cursor_context")),
        reply("The cursor is in calc.py.\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, script, "--approval", "yolo")
    async with app.run_test(size=(120, 30)) as pilot:
        await fixed(pilot, app)
        await pilot.press("ctrl+b")
        assert app.panel.display
        assert list(app.changes) == ["calc.py"]
        await pilot.press("enter")
        await pilot.pause()
        assert app.chat.ctx.cursor is not None and app.chat.ctx.cursor.line == 1
        await pilot.press("ctrl+b")
        assert app.input.has_focus
        await send(pilot, "where am I?")
        await until(pilot, lambda: idle(app) and len(app.query(ToolCard)) == 2)
        card = list(app.query(ToolCard))[-1]
        assert "Cursor: calc.py:1:1 (editor cursor)" in card.output


async def test_resume_flag_shows_the_saved_conversation(project):
    app = make_app(project, FIX_SCRIPT, "--approval", "yolo")
    async with app.run_test() as pilot:
        await fixed(pilot, app)
        saved = app.chat.session_id
    again = make_app(project, [], "--resume", saved)
    async with again.run_test() as pilot:
        await until(pilot, lambda: len(again.query(ToolCard)) == 2)
        assert again.chat.session_id == saved
        assert again.status.fields["tokens"] == f"{again.chat.tokens_used():,} tokens" != "0 tokens"
        assert "fix add" in str(again.query(UserLine).first().render())
        assert list(again.changes) == ["calc.py"]
