"""The Textual chat driven with `App.run_test()` pilots, on the scripted model and a real project folder."""

from __future__ import annotations

from chat_helpers import (
    BUGGY,
    FIX_SCRIPT,
    HangingBackend,
    call,
    chat_args,
    make_app,
    reply,
    send,
    until,
)
from textual.widgets import Collapsible

from asi_agent.session import SessionStore
from asi_agent.ui.chatsession import ChatSession
from asi_agent.ui.tui.app import ChatApp
from asi_agent.ui.tui.screens import ApprovalScreen
from asi_agent.ui.tui.widgets import ChatInput, Notice, ReplyView, ToolCard, UserLine


def idle(app) -> bool:
    return app.turn_worker is not None and not app.turn_worker.is_running


def notices(app) -> str:
    return "\n".join(str(n.render()) for n in app.query(Notice))


async def test_message_streamed_reply_and_tool_cards(project):
    app = make_app(project, FIX_SCRIPT, "--approval", "auto-edit")
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "fix add in calc.py")
        await until(pilot, lambda: idle(app))
        assert [str(u.render()) for u in app.query(UserLine)] == ["› fix add in calc.py"]
        assert app.query_one(ChatInput).text == ""
        cards = list(app.query(ToolCard))
        assert [c.call.name for c in cards] == ["read_file", "replace_text"]
        assert all(c.heading.startswith("✓") and "calc.py" in c.heading for c in cards)
        assert cards[0].collapsed, "a read stays folded"
        assert not cards[1].collapsed, "a change is shown unfolded, with its diff"
        cards[0].collapsed = False
        await pilot.pause()
        assert "return a - b" in cards[0].output and cards[0].query_one(".tool-output").display
        replies = [r.text for r in app.query(ReplyView)]
        assert replies == ["I will read **calc.py** first.", "Fixed `add`: it subtracted instead of adding."]
        assert app.status.fields["agent_status"] == "DONE"
        assert app.status.fields["turn"] == "turn 3"
        assert app.status.fields["tokens"].endswith("tokens")
        assert (project / "calc.py").read_text() == BUGGY.replace("a - b", "a + b")


async def test_approve_with_y_shows_the_diff_in_the_modal(project):
    app = make_app(project, FIX_SCRIPT)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "fix add")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        modal = app.screen
        assert modal.request.call.name == "replace_text"
        assert "-    return a - b" in modal.request.preview
        assert "ask mode" in str(modal.query_one("#reason").render())
        await pilot.press("x", "q")  # nothing else can be typed while it waits
        assert app.screen is modal
        await pilot.press("y")
        await until(pilot, lambda: idle(app))
        assert "a + b" in (project / "calc.py").read_text()


async def test_refuse_with_n_leaves_the_file_and_tells_the_model(project):
    script = [*FIX_SCRIPT[1:2], reply("Understood, I left it.\nAGENT_STATUS: STOP")]
    app = make_app(project, script)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "fix add")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await pilot.press("n")
        await until(pilot, lambda: idle(app))
        card = app.query_one(ToolCard)
        assert card.heading.startswith("✗") and card.has_class("failed")
        assert (project / "calc.py").read_text() == BUGGY
        sent = app.chat.agent.backend.requests[-1][0]
        assert "the person answered no" in sent[-1].content


async def test_e_sends_the_reason_to_the_model(project):
    script = [*FIX_SCRIPT[1:2], reply("I will keep the subtraction.\nAGENT_STATUS: DONE")]
    app = make_app(project, script)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "fix add")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await pilot.press("e")
        await pilot.press(*"subtraction is intended")
        await pilot.press("enter")
        await until(pilot, lambda: idle(app))
        sent = app.chat.agent.backend.requests[1][0]  # the request after the refused call
        assert "they said: subtraction is intended" in sent[-1].content
        assert (project / "calc.py").read_text() == BUGGY


async def test_always_covers_the_tool_for_the_rest_of_the_session(project):
    script = [
        reply("", call("replace_text", path="calc.py", oldText="a - b", newText="a + b")),
        reply("", call("create_file", path="notes.md", content="fixed\n")),
        reply("", call("create_file", path="more.md", content="more\n")),
        reply("Done.\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, script)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "fix and note")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        assert app.screen.request.call.name == "create_file"
        await pilot.press("a")
        await until(pilot, lambda: idle(app))
        assert (project / "more.md").read_text() == "more\n", "the second create_file did not ask"


async def test_always_is_not_offered_for_destructive_commands(project):
    script = [
        reply("", call("run_terminal_cmd", command="git reset --hard")),
        reply("ok\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, script, "--approval", "auto-edit")
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "reset")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        modal = app.screen
        keys = str(modal.query_one("#keys").render())
        assert "not offered, the destructive-command classifier asks every time" in keys
        await pilot.press("a")
        await pilot.pause()
        assert app.screen is modal, "a is refused for a destructive command"
        await pilot.press("n")
        await until(pilot, lambda: idle(app))
        assert "run_terminal_cmd" not in app.chat.agent.gate._always


async def test_esc_interrupts_and_the_session_resumes(project):
    backend = HangingBackend(
        [reply("", call("read_file", path="calc.py")), reply("Go on.\nAGENT_STATUS: DONE")], "The bug is in"
    )
    args = chat_args(project, "--approval", "yolo")
    chat = ChatSession.open(args, backend=backend)
    backend.script._replies = backend.script._replies[:1]  # the hang comes second
    app = ChatApp(args, chat)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "find the bug")
        await until(pilot, lambda: any("The bug is in" in r.text for r in app.query(ReplyView)))
        assert app.turn_worker.is_running, "the reply is still streaming"
        await pilot.press("escape")
        await until(pilot, lambda: idle(app))
        assert backend.cancelled, "the model request was cancelled"
        assert "interrupted" in notices(app)
        assert app.status.fields["agent_status"] == "INTERRUPTED"
        store = SessionStore(project / ".asi")
        assert [s.status for s in store.list()] == ["INTERRUPTED"]
        messages = store.open(chat.session_id).messages()
        assert messages[-2].role == "tool" and "def add" in messages[-2].content, (
            "the finished result is kept"
        )
        assert messages[-1].role == "assistant" and messages[-1].content.startswith("The bug is in")
        backend.script = type(backend.script)([reply("It subtracts.\nAGENT_STATUS: DONE")])
        await send(pilot, "go on")
        await until(pilot, lambda: app.status.fields.get("agent_status") == "DONE")
        assert [r.text for r in app.query(ReplyView)][-1] == "It subtracts."


async def test_reasoning_is_shown_dimmed_and_folded_above_the_answer(project):
    script = [reply("<think>The sign in add looks wrong.</think>The sign was wrong.\nAGENT_STATUS: DONE")]
    app = make_app(project, script)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "what is wrong?")
        await until(pilot, lambda: idle(app))
        view = app.query_one(ReplyView)
        assert view.text == "The sign was wrong."
        folded = view.query_one(Collapsible)
        assert folded.title == "reasoning" and folded.collapsed
        assert "The sign in add looks wrong." in str(view.query_one(".reasoning").render())


async def test_streamed_reply_never_shows_the_status_line(project):
    """The status line goes to the status bar only, also while the reply is still streaming."""
    backend = HangingBackend([], "Almost done.\nAGENT_STATUS: CONTINUE\nNow the rest: AGENT_STA")
    app = ChatApp(chat_args(project), ChatSession.open(chat_args(project), backend=backend))
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "go")
        await until(pilot, lambda: any("Now the rest:" in r.text for r in app.query(ReplyView)))
        shown = app.query_one(ReplyView).text
        assert "AGENT_STA" not in shown, shown
        assert shown.startswith("Almost done.\nNow the rest:")
        await pilot.press("escape")
        await until(pilot, lambda: idle(app))


async def test_modal_keys_stay_in_view_above_a_long_diff(project):
    """At 100x30 a change of 40 lines does not push the keys off the modal: the diff scrolls instead."""
    old = "".join(f"value_{i} = {i}\n" for i in range(40))
    (project / "values.py").write_text(old)
    new = old.replace(" = ", " == ")
    change = call("replace_text", path="values.py", oldText=old, newText=new)
    app = make_app(project, [reply("", change), reply("Done.\nAGENT_STATUS: DONE")])
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "change values.py")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await pilot.pause()
        modal = app.screen
        keys = modal.query_one("#keys")
        assert keys.region.bottom <= 30
        assert modal.get_widget_at(keys.region.x, keys.region.y)[0] is keys, "the keys are drawn, not clipped"
        assert "[Esc] interrupt" in str(keys.render())
        details = modal.query_one("#details")
        assert details.max_scroll_y > 0, "the diff scrolls inside the modal"
        await pilot.press("pagedown", "down")
        await until(pilot, lambda: details.scroll_y > 0)
        await pilot.press("y")
        await until(pilot, lambda: idle(app))
        assert (project / "values.py").read_text() == new


async def test_status_bar_keeps_the_spinner_when_the_fields_are_long(tmp_path):
    """A long project name and model at 100 columns: the steady fields are cut short with "…", and the
    spinner with what is happening stays visible (it used to fall off the end of the line)."""
    project = tmp_path / ("a-project-folder-with-a-rather-long-name-" * 2)
    project.mkdir()
    backend = HangingBackend([], "Thinking about it")
    app = ChatApp(chat_args(project), ChatSession.open(chat_args(project), backend=backend))
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "go")
        await until(pilot, lambda: any("Thinking" in r.text for r in app.query(ReplyView)))
        await pilot.pause(0.3)
        shown = app.status.render()
        assert "…" in shown.plain and shown.plain.rstrip().endswith("s"), shown.plain
        assert "writing" in shown.plain
        assert shown.cell_length <= app.status.content_size.width
        await pilot.press("escape")
        await until(pilot, lambda: idle(app))
