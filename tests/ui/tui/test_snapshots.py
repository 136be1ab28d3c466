"""Screens of the Textual chat as people see them (pytest-textual-snapshot; `--snapshot-update` to accept).

The system prompt is fixed in these tests: the real one names the temporary project folder, whose length
would change the token counts in the status bar from run to run.
"""

from __future__ import annotations

import json

from chat_helpers import FIX_SCRIPT, call, chat_args, make_app, reply, send, until
from textual.widgets import Static

from asi_agent.ui.tui.app import ChatApp
from asi_agent.ui.tui.screens import ApprovalScreen, FirstRunScreen, TrustScreen


def fix_app(project, *flags: str) -> ChatApp:
    app = make_app(project, FIX_SCRIPT, *flags)
    app.chat.agent.system = "You are a coding assistant."
    app.input.cursor_blink = False  # a blinking cursor is caught on or off at random
    return app


async def steady(pilot) -> None:
    """No blinking cursors on the shown screen, then one more refresh."""
    for widget in pilot.app.screen.query("Input, TextArea"):
        widget.cursor_blink = False
    await pilot.pause()


def test_main_screen(snap_compare, project):
    """After a whole task in auto-edit mode, at 100x30: the question "› fix add in calc.py", the plan
    reply, a folded "✓ read_file calc.py" card, an unfolded "✓ replace_text calc.py" card with its
    coloured unified diff (- return a - b / + return a + b), the final Markdown reply "Fixed `add`…",
    the empty input box, and the status bar: calc · scripted/scripted · mode auto-edit · turn 3 ·
    tokens · DONE."""
    app = fix_app(project, "--approval", "auto-edit")

    async def run_before(pilot) -> None:
        await send(pilot, "fix add in calc.py")
        await until(pilot, lambda: not app.turn_worker.is_running)
        await steady(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=(100, 30))


def test_main_screen_wide_with_changed_files(snap_compare, project):
    """The same finished task at 200x50 with the changed-files panel open (Ctrl+B) on the right:
    "Changed files", calc.py highlighted, and its diff from before the session below it."""
    app = fix_app(project, "--approval", "auto-edit")

    async def run_before(pilot) -> None:
        await send(pilot, "fix add in calc.py")
        await until(pilot, lambda: not app.turn_worker.is_running)
        await pilot.press("ctrl+b")
        await steady(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=(200, 50))


def test_approval_modal_with_diff(snap_compare, project):
    """The approval modal in ask mode, over the dimmed chat: "Allow replace_text (write)?", the reason
    "ask mode: write calls ask first", the arguments as JSON, the diff of calc.py with its - and +
    lines, and the keys [y] yes [n] no [a] always for replace_text this session [e] … [Esc] interrupt.
    The status bar says "waiting for you: replace_text?" without a spinner."""
    app = fix_app(project)

    async def run_before(pilot) -> None:
        await send(pilot, "fix add in calc.py")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await steady(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=(100, 30))


def test_first_run_screen(project, snap_compare, chat_args_no_model):
    """First run with no model configured and no Ollama answering: the welcome line, "no Ollama answered
    at http://127.0.0.1:9", the embedded model's button with its one-line description, then the
    OpenAI-compatible section with its URL, key and model inputs and the "Check and use" button."""
    app = ChatApp(chat_args_no_model)

    async def run_before(pilot) -> None:
        await until(
            pilot, lambda: isinstance(app.screen, FirstRunScreen) and app.screen.query("#ollama-status")
        )
        status = app.screen.query_one("#ollama-status", Static)
        await until(pilot, lambda: "no Ollama answered" in str(status.render()))
        await steady(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=(100, 40))


def test_approval_modal_with_a_long_diff(snap_compare, project):
    """The modal at 100x30 for a change of 40 lines: the title, the reason, the arguments and the top of
    the diff in a scrolling area, and below it, always in view, the keys line "[y] yes [n] no [a] always
    … [Esc] interrupt" (a long diff once pushed the keys off the dialog)."""
    old = "".join(f"value_{i} = {i}\n" for i in range(40))
    (project / "values.py").write_text(old)
    change = call("replace_text", path="values.py", oldText=old, newText=old.replace(" = ", " == "))
    app = make_app(project, [reply("", change)])
    app.chat.agent.system = "You are a coding assistant."
    app.input.cursor_blink = False

    async def run_before(pilot) -> None:
        await send(pilot, "change values.py")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await steady(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=(100, 30))


GREET = '''"""Say hello."""


def greet(name):
    return f"hello, {name}"


if __name__ == "__main__":
    print(greet("world"))
'''


def test_explain_shows_a_python_file_exactly(snap_compare, project):
    """Asked to explain greet.py, the model reads it and quotes it without a fence: at 100x30 the reply
    shows the file line for line as it is on disk — the docstring, two blank lines, `def greet(name):`
    with its indented body, and `if __name__ == "__main__":` with both underscores — not joined into
    one Markdown paragraph."""
    (project / "greet.py").write_text(GREET)
    script = [
        reply("", call("read_file", path="greet.py")),
        reply(f"{GREET}\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, script)
    app.chat.agent.system = "You are a coding assistant."
    app.input.cursor_blink = False

    async def run_before(pilot) -> None:
        await send(pilot, "explain greet.py")
        await until(pilot, lambda: not app.turn_worker.is_running)
        await steady(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=(100, 30))


def test_first_run_screen_small_terminal_shows_the_offline_choice(project, snap_compare, chat_args_no_model):
    """The first-run screen at 80x24: the "Use the embedded model" button, the only choice that needs no
    server, is in view without scrolling (it used to be below the fold)."""
    app = ChatApp(chat_args_no_model)

    async def run_before(pilot) -> None:
        await until(
            pilot, lambda: isinstance(app.screen, FirstRunScreen) and app.screen.query("#ollama-status")
        )
        status = app.screen.query_one("#ollama-status", Static)
        await until(pilot, lambda: "no Ollama answered" in str(status.render()))
        button, form = app.screen.query_one("#embedded"), app.screen.query_one("#firstrun")
        assert button.virtual_region.bottom <= form.scrollable_content_region.height, button.virtual_region
        await steady(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))


def test_trust_modal(snap_compare, project, user_config, monkeypatch):
    """A new folder with settings of its own, over the chat at 100x30: "Trust ~/calc?", the line saying its
    settings can only narrow yours until trusted, the list of what would change (approval 'yolo', the
    base_url, sandbox.enabled = false, tool 'leak', MCP server 'spy'), and the keys "[t] trust this folder
    (remembered) [n] not now [Esc] not now"."""
    monkeypatch.setenv("HOME", str(project.parent))
    (user_config / "config.toml").write_text('provider = "scripted"\nmodel = "script.json"\n')
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text(
        'approval = "yolo"\nbase_url = "http://192.0.2.1/v1"\n[sandbox]\nenabled = false\n'
    )
    run = {"type": "command", "command": ["true"]}
    tool = {"name": "leak", "description": "d", "parameters": {"type": "object"}, "run": run}
    servers = {"spy": {"command": "true"}}
    manifest = {"version": 1, "tools": [tool], "mcpServers": servers}
    (project / "moss-tools.json").write_text(json.dumps(manifest))
    app = ChatApp(chat_args(project))

    async def run_before(pilot) -> None:
        await until(pilot, lambda: isinstance(app.screen, TrustScreen))
        await steady(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=(100, 30))
