"""The chat as a daily driver: text shown as it is, titles as they ran, keys as habit expects them."""

from __future__ import annotations

import io

from chat_helpers import BUGGY, HangingBackend, call, chat_args, make_app, reply, send, until
from rich.console import Console
from textual.widgets import Markdown, Static
from textual.widgets.collapsible import CollapsibleTitle

from asi_agent.backends.scripted import ScriptedBackend
from asi_agent.messages import Completion, Usage
from asi_agent.ui.chatsession import ChatSession
from asi_agent.ui.tui.app import ChatApp
from asi_agent.ui.tui.screens import ApprovalScreen
from asi_agent.ui.tui.widgets import ChatInput, Notice, ReplyView, ToolCard, UserLine

PROGRAM = 'def main():\n    print("hi")\n\n\nif __name__ == "__main__":\n    main()\n'


def rendered(widget: Static) -> str:
    """What a Static shows, as plain text."""
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


def idle(app) -> bool:
    return app.turn_worker is not None and not app.turn_worker.is_running


def shown_answer(view: ReplyView) -> str:
    """The answer as the screen shows it, when it is plain text."""
    plain = view.query_one(".plain", Static)
    assert plain.display and not view.query_one(Markdown).display
    return str(plain.render())


async def test_plain_code_keeps_its_lines_and_underscores(project):
    app = make_app(project, [reply(PROGRAM + "AGENT_STATUS: DONE")])
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "print a program")
        await until(pilot, lambda: idle(app))
        assert shown_answer(app.query_one(ReplyView)) == PROGRAM.rstrip("\n")


async def test_a_file_listing_keeps_one_name_a_line(project):
    listing = "calc.py\nREADME.md\n__init__.py"
    app = make_app(project, [reply(listing + "\nAGENT_STATUS: DONE")])
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "list the files")
        await until(pilot, lambda: idle(app))
        assert shown_answer(app.query_one(ReplyView)) == listing


async def test_markdown_replies_stay_markdown_with_fenced_code_exact(project):
    text = "Run this:\n\n```python\n" + PROGRAM + "```\n\n- **one** point"
    app = make_app(project, [reply(text + "\nAGENT_STATUS: DONE")])
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "how do I run it")
        await until(pilot, lambda: idle(app))
        view = app.query_one(ReplyView)
        assert view.markdown and view.query_one(Markdown).display
        assert not view.query_one(".plain", Static).display
        assert view.query_one(Markdown).source.strip() == text


async def test_tool_card_titles_are_not_markup(project):
    script = [
        reply("", call("create_file", path="app/[id]/page.tsx", content="export default 1;\n")),
        reply("", call("run_terminal_cmd", command="echo [red]x[/red] && ls app/[id]")),
        reply("Done.\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, script, "--approval", "yolo")
    async with app.run_test(size=(120, 30)) as pilot:
        await send(pilot, "make the page")
        await until(pilot, lambda: idle(app))
        titles = [str(title.render()) for title in app.query(CollapsibleTitle)]
        assert any("create_file  app/[id]/page.tsx" in t for t in titles), titles
        assert any("echo [red]x[/red] && ls app/[id]" in t for t in titles), titles
        created = app.query(ToolCard).first()
        assert not created.collapsed  # a new file's content is shown
        assert "export default 1;" in rendered(created.query_one(".tool-output", Static))


async def test_bang_command_output_and_refused_calls_are_shown_open(project):
    script = [
        reply("", call("read_file", pth="calc.py")),  # invalid arguments: rejected, never run
        reply("Sorry.\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, script, "--approval", "yolo")
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "!echo hello")
        await until(pilot, lambda: idle(app))
        await send(pilot, "read it")
        await until(pilot, lambda: len(app.query(ToolCard)) >= 2 and idle(app))
        shell, rejected = list(app.query(ToolCard))
        assert not shell.collapsed and "hello" in shell.output
        assert not rejected.collapsed and rejected.has_class("failed")
        assert len(app.query(ToolCard)) == 2  # one card for the rejected call, not two
        assert rejected.heading.startswith("✗ read_file") and "calc.py" in rejected.heading


async def test_ctrl_c_interrupts_the_turn_and_a_second_quits(project):
    backend = HangingBackend([], "I am still writ")
    chat = ChatSession.open(chat_args(project), backend=backend)
    app = ChatApp(chat_args(project), chat)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "explain calc.py")
        await until(pilot, lambda: any("still writ" in r.text for r in app.query(ReplyView)))
        await pilot.press("ctrl+c")
        await until(pilot, lambda: idle(app))
        assert backend.cancelled and app.is_running
        assert "interrupted" in "\n".join(str(n.render()) for n in app.query(Notice))
        await pilot.press("ctrl+c")
        await until(pilot, lambda: not app.is_running)
    assert app.return_code == 0


async def test_keyboard_reaches_cards_and_typing_returns_to_the_input(project):
    script = [
        reply("", call("read_file", path="calc.py"), call("read_file", path="README.md")),
        reply("Read both.\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, script)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "read")
        await until(pilot, lambda: idle(app))
        first, second = list(app.query(ToolCard))
        assert first.collapsed and second.collapsed
        await pilot.press("tab", "tab")  # from the input: the conversation, then the first card
        assert app.focused is first.query_one(CollapsibleTitle)
        await pilot.press("enter")
        assert not first.collapsed
        await pilot.press("down")
        assert app.focused is second.query_one(CollapsibleTitle)
        await pilot.press("enter")
        assert not second.collapsed
        await pilot.press("h", "i")  # typing while a card has the focus goes to the input
        assert app.focused is app.input and app.input.text == "hi"
        second.query_one(CollapsibleTitle).focus()
        await pilot.press("escape")
        assert app.focused is app.input


async def test_history_browsing_gives_the_draft_back(project):
    app = make_app(project, [reply("One.\nAGENT_STATUS: DONE")])
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "first message")
        await until(pilot, lambda: idle(app))
        box = app.query_one(ChatInput)
        box.text = "a draft\non two lines"
        box.move_cursor((0, 0))
        await pilot.press("up")
        assert box.text == "first message"
        await pilot.press("down")
        assert box.text == "a draft\non two lines"
        await pilot.press("down")  # not browsing: Down on the last line leaves the draft alone
        assert box.text == "a draft\non two lines"


async def test_a_message_sent_while_the_agent_works_is_queued(project):
    backend = HangingBackend([], "working on it")
    chat = ChatSession.open(chat_args(project), backend=backend)
    app = ChatApp(chat_args(project), chat)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "explain calc.py")
        await until(pilot, lambda: any("working on it" in r.text for r in app.query(ReplyView)))
        await send(pilot, "/mode plan")
        assert app.queued == ["/mode plan"]
        assert "queued" in "\n".join(str(n.render()) for n in app.query(Notice))
        app.turn_worker.cancel()  # the turn ends (as an interrupt): the queued text goes back to the input
        await until(pilot, lambda: idle(app))
        assert app.queued == [] and app.input.text == "/mode plan"
        assert chat.mode == "ask"


async def test_a_queued_message_is_sent_when_the_turn_ends(project):
    script = [
        reply("", call("run_terminal_cmd", command="sleep 1")),
        reply("Slept.\nAGENT_STATUS: DONE"),
        reply("Second answer.\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, script, "--approval", "yolo")
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "sleep")
        await until(pilot, lambda: len(app.query(ToolCard)) == 1)
        await send(pilot, "and then?")
        await until(pilot, lambda: any(r.text == "Second answer." for r in app.query(ReplyView)))
        assert [str(u.render()) for u in app.query(UserLine)] == ["› sleep", "› and then?"]


async def test_a_write_refused_twice_in_the_modal_ends_the_turn_saying_what_cycled(project):
    write = call("replace_text", path="calc.py", oldText="a - b", newText="a + b")
    script = [reply("", call("read_file", path="calc.py")), reply("", write)] * 15
    app = make_app(project, script)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "fix add")
        asked: list[object] = []
        for _ in range(3000):  # answer "n" to every question; the third write must not be asked about
            if idle(app):
                break
            if isinstance(app.screen, ApprovalScreen) and app.screen not in asked:
                asked.append(app.screen)
                await pilot.press("n")
            await pilot.pause(0.02)
        assert len(asked) == 2
        said = "\n".join(str(n.render()) for n in app.query(Notice))
        assert "ended with STOP after" in said and "stopped a loop" in said and "replace_text" in said
        assert (project / "calc.py").read_text() == BUGGY


async def test_status_bar_cuts_the_names_never_the_context_left(project):
    app = make_app(project, [])
    async with app.run_test(size=(100, 30)) as pilot:
        app.status.set(
            project="a-project-folder-with-a-rather-long-name-" * 2,
            model="openai/a-model-with-a-long-name-too",
            turn="turn 12",
            tokens="123,456 tokens",
            context="7,123 left",
        )
        await pilot.pause()
        shown = app.status.render().plain
        assert shown.rstrip().endswith("turn 12 · 123,456 tokens · 7,123 left"), shown
        assert "…" in shown


class UnmeteredBackend(ScriptedBackend):
    """A scripted model whose replies used no model tokens (as turns grounding answers alone)."""

    async def complete(self, messages, tools=None, *, on_delta=None, plan=None):
        done = await super().complete(messages, tools, on_delta=on_delta)
        return Completion(done.text, done.native_calls, Usage(0, 0), done.finish_reason)


async def test_no_zero_tokens_when_no_model_token_was_used(project):
    chat = ChatSession.open(
        chat_args(project), backend=UnmeteredBackend([reply("Two lines.\nAGENT_STATUS: DONE")])
    )
    app = ChatApp(chat_args(project), chat)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "how long is calc.py?")
        await until(pilot, lambda: idle(app))
        shown = app.status.render().plain
        assert "turn 1" in shown and "tokens" not in shown, shown


async def test_a_call_cut_short_by_an_interrupt_says_so(project):
    app = make_app(project, [reply("", call("run_terminal_cmd", command="sleep 30"))], "--approval", "yolo")
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "wait")
        await until(pilot, lambda: len(app.query(ToolCard)) == 1)
        await pilot.press("escape")
        await until(pilot, lambda: idle(app))
        assert app.query_one(ToolCard).heading.endswith("· interrupted")
