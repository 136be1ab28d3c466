"""The pieces of the conversation view, the input, the status bar and the changed-files panel."""

from __future__ import annotations

import json
import time
from typing import Any, ClassVar

from rich.syntax import Syntax
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Collapsible, Label, ListItem, ListView, Markdown, Static, TextArea
from textual.widgets.markdown import MarkdownStream

from asi_agent.messages import ToolCall
from asi_agent.ui.textkind import looks_like_markdown

__all__ = [
    "ChangesPanel",
    "ChatInput",
    "DiffView",
    "Notice",
    "ReplyView",
    "StatusBar",
    "ToolCard",
    "UserLine",
    "diff_renderable",
    "key_arguments",
]

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
CARD_OUTPUT_LINES = 300


def key_arguments(call: ToolCall, width: int = 60) -> str:
    """The arguments that say what a call does, on one short line."""
    args = call.arguments
    for key in ("path", "command", "query", "pattern", "target", "file"):
        if isinstance(args.get(key), str):
            value = args[key].splitlines()[0] if args[key] else ""
            return value[:width] + ("…" if len(value) > width else "")
    text = json.dumps(args, ensure_ascii=False)
    return text[:width] + ("…" if len(text) > width else "")


def diff_renderable(diff: str) -> Syntax:
    """A unified diff, syntax-highlighted."""
    return Syntax(diff.rstrip("\n"), "diff", theme="ansi_dark", word_wrap=True, background_color="default")


def split_output(output: str) -> tuple[str, str]:
    """A tool's output as (text, diff): edit tools put a unified diff after their summary line."""
    marker = output.find("\n--- ")
    if marker < 0 or "\n@@" not in output[marker:]:
        return output, ""
    return output[:marker], output[marker + 1 :]


class UserLine(Static):
    """What the person sent."""

    def __init__(self, text: str) -> None:
        super().__init__(Text("› ", style="bold") + Text(text), classes="user")


class Notice(Static):
    """Output of a slash command or a note from the chat itself (dimmed)."""

    def __init__(self, text: str, *, error: bool = False) -> None:
        super().__init__(Text(text), classes="notice error" if error else "notice")


class ReplyView(Vertical):
    """One assistant reply: reasoning (dimmed, folded) above the answer, shown as what it is.

    A Markdown answer is rendered (and streamed) as Markdown; any other text, such as code without a
    fence or a file listing, is shown exactly, line for line (see `looks_like_markdown`).
    """

    def __init__(self) -> None:
        super().__init__(classes="reply")
        self._stream: MarkdownStream | None = None
        self._reasoning: Static | None = None
        self._reasoning_text = ""
        self.text = ""
        self.markdown = False
        """Whether the answer is shown as Markdown (else as plain text)."""

    def compose(self) -> ComposeResult:
        markdown = Markdown("", classes="answer")
        markdown.display = False
        yield markdown
        yield Static("", classes="answer plain")

    async def write(self, delta: str) -> None:
        """Append streamed answer text."""
        self.text += delta
        if looks_like_markdown(self.text) != self.markdown:
            await self._show(self.text)  # the kind changed: show everything so far the new way
        elif self.markdown:
            await self._answer_stream().write(delta)
        else:
            self._plain().update(Text(self.text.strip("\n")))

    async def finish(self, text: str) -> None:
        """The whole reply is known: show its clean text (no call markup, no status line)."""
        await self.stop()
        self.text = text
        await self._show(text)

    async def _show(self, text: str) -> None:
        """Show `text` whole, as Markdown or as plain text by what it looks like."""
        await self.stop()
        self.markdown = looks_like_markdown(text)
        view = self.query_one(Markdown)
        await view.update(text if self.markdown else "")
        view.display = self.markdown and bool(text.strip())
        self._plain().update(Text(text.strip("\n")) if not self.markdown else "")
        self._plain().display = not self.markdown and bool(text.strip())

    def _plain(self) -> Static:
        return self.query_one(".plain", Static)

    async def stop(self) -> None:
        """End streaming (the turn ended or was interrupted)."""
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None

    def _answer_stream(self) -> MarkdownStream:
        if self._stream is None:
            self._stream = Markdown.get_stream(self.query_one(Markdown))
        return self._stream

    async def think(self, text: str) -> None:
        """Append streamed reasoning (dimmed, folded)."""
        if not text:
            return
        self._reasoning_text += text
        if self._reasoning is None:
            self._reasoning = Static(classes="reasoning")
            await self.mount(Collapsible(self._reasoning, title="reasoning", collapsed=True), before=0)
        self._reasoning.update(Text(self._reasoning_text.strip()))


class ToolCard(Collapsible):
    """A tool call: name, key arguments, status and duration; expands to the whole result.

    The title is plain text, never markup: `app/[id]/page.tsx` or `echo [red]x[/red]` show as they ran.
    """

    def __init__(self, call: ToolCall, *, open_output: bool = False) -> None:
        self.call = call
        self.started = time.monotonic()
        self.open_output = open_output
        """Show the result open whatever it is (the output of the person's own `!command`)."""
        self.heading = ""
        """The title as plain text."""
        self._state = ("…", "running")
        self._body = Static("", classes="tool-output")
        self.output = ""
        """The result shown when the card is open."""
        super().__init__(self._body, title=self._heading("…", "running"), collapsed=True, classes="tool")

    def _heading(self, mark: str, status: str) -> Any:
        self._state = (mark, status)
        self.heading = f"{mark} {self.call.name}  {key_arguments(self.call)}  · {status}"
        # Content, not str: a str title would be parsed as markup and lose every `[...]` in it
        return Content(self.heading)

    def finished(self, ok: bool, output: str) -> None:
        """Show the result; a failed call, a change or a new file stays open so it is seen."""
        seconds = time.monotonic() - self.started
        took = "<1s" if seconds < 1 else f"{seconds:.1f}s"
        self.title = self._heading("✓" if ok else "✗", took if ok else f"failed, {took}")
        self.set_class(not ok, "failed")
        self.output = output
        text, diff = split_output(output)
        lines = text.splitlines()
        if len(lines) > CARD_OUTPUT_LINES:
            text = "\n".join([*lines[:CARD_OUTPUT_LINES], f"… {len(lines) - CARD_OUTPUT_LINES} more lines"])
        parts: list[Any] = [Text(text)]
        if diff:
            parts.append(diff_renderable(diff))
        elif ok and self.call.name == "create_file":
            parts += created_content(self.call)
        from rich.console import Group  # noqa: PLC0415

        self._body.update(Group(*parts))
        if diff or not ok or self.open_output or (ok and self.call.name == "create_file"):
            self.collapsed = False

    def progressed(self, detail: str) -> None:
        """The running call's progress (`40/100 · indexing`), until its result replaces it."""
        self.title = self._heading("…", f"running · {detail}")

    def interrupted(self) -> None:
        """The turn was interrupted while the call ran."""
        self.title = self._heading("✗", "interrupted")
        self.add_class("failed")

    def show_call(self, call: ToolCall) -> None:
        """The call is known in full (a rejected call's arguments come after the rejection)."""
        self.call = call
        self.title = self._heading(*self._state)

    def refused(self, reason: str) -> None:
        """The call was not run (refused, or its arguments were wrong): shown open, with the reason."""
        self.title = self._heading("✗", "not run")
        self.add_class("failed")
        self.output = reason
        self._body.update(Text(reason))
        self.collapsed = False


def created_content(call: ToolCall) -> list[Any]:
    """The text a `create_file` call wrote, highlighted by its file name (cut after CARD_OUTPUT_LINES)."""
    content = call.arguments.get("content")
    path = call.arguments.get("path")
    if not isinstance(content, str) or not isinstance(path, str):
        return []
    lines = content.splitlines()
    shown = "\n".join(lines[:CARD_OUTPUT_LINES])
    more = [Text(f"… {len(lines) - CARD_OUTPUT_LINES} more lines")] if len(lines) > CARD_OUTPUT_LINES else []
    lexer = Syntax.guess_lexer(path, shown)
    return [Syntax(shown, lexer, theme="ansi_dark", word_wrap=True, background_color="default"), *more]


class DiffView(VerticalScroll):
    """A diff in the changed-files panel."""

    def compose(self) -> ComposeResult:
        yield Static("Select a file to see its diff.", id="diff-text")

    def show(self, diff: str) -> None:
        """Replace the diff shown."""
        self.query_one("#diff-text", Static).update(diff_renderable(diff) if diff else "(no change now)")


class ChangesPanel(Vertical):
    """The files this session changed; selecting one shows its diff."""

    class Opened(Message):
        """A file was selected in the panel."""

        def __init__(self, path: str) -> None:
            super().__init__()
            self.path = path

    def compose(self) -> ComposeResult:
        yield Label("Changed files", classes="panel-title")
        yield ListView(id="changed-files")
        yield DiffView(id="diff")

    async def set_files(self, paths: list[str]) -> None:
        """Show these files, the first one highlighted."""
        view = self.query_one(ListView)
        await view.clear()
        await view.extend([ListItem(Label(path), name=path) for path in paths])
        if paths:
            view.index = 0

    class Highlighted(Message):
        """A file was highlighted in the panel (its diff is shown)."""

        def __init__(self, path: str) -> None:
            super().__init__()
            self.path = path

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        """Tell the app which file was opened."""
        if event.item.name:
            self.post_message(self.Opened(event.item.name))

    def on_list_view_highlighted(self, event: ListView.Highlighted) -> None:
        """Tell the app which file to show."""
        if event.item is not None and event.item.name:
            self.post_message(self.Highlighted(event.item.name))


class StatusBar(Static):
    """Project, branch, model, mode, turn, tokens, AGENT_STATUS; a spinner and elapsed time while busy."""

    def __init__(self) -> None:
        super().__init__(id="status")
        self.fields: dict[str, str] = {}
        self.activity = ""
        self._since: float | None = None
        self._frame = 0

    def set(self, **fields: str) -> None:
        """Update some fields."""
        self.fields.update(fields)
        self.refresh_text()

    def busy(self, activity: str) -> None:
        """Show the spinner with what is happening ("" stops it)."""
        if activity and self._since is None:
            self._since = time.monotonic()
        if not activity:
            self._since = None
        self.activity = activity
        self.refresh_text()

    def waiting(self, text: str) -> None:
        """The agent waits for the person: no spinner, nothing is working."""
        self._since = None
        self.activity = text
        self.refresh_text()

    def tick(self) -> None:
        """Advance the spinner (called by a timer while busy)."""
        if self._since is not None:
            self._frame = (self._frame + 1) % len(SPINNER)
            self.refresh_text()

    def refresh_text(self) -> None:
        """Render the fields; when they do not fit, the steady ones (project, branch, model, mode) are cut
        short, never the counts (turn, tokens, context left) or the live ones."""
        steady = [self.fields.get(k, "") for k in ("project", "branch", "model", "mode")]
        counts = [self.fields.get(k, "") for k in ("turn", "tokens", "context")]
        text = Text(" · ".join(p for p in steady if p))
        live = Text(" · ".join(p for p in counts if p))
        if live and text:
            live = Text(" · ") + live
        if self.fields.get("agent_status"):
            live.append(f" · {self.fields['agent_status']}", style="bold")
        if self._since is not None:
            elapsed = time.monotonic() - self._since
            live.append(f"  {SPINNER[self._frame]} {self.activity} {elapsed:.0f}s", style="bold")
        elif self.activity:
            live.append(f" · {self.activity}", style="bold")
        room = self.content_size.width - live.cell_len
        if self.content_size.width and text.cell_len > room:
            text.truncate(max(room, 1), overflow="ellipsis")
        self.update(text + live)

    def on_resize(self) -> None:
        """Fit the fields to the new width."""
        self.refresh_text()


class ChatInput(TextArea):
    """The message box: Enter sends, Shift+Enter or Ctrl+J adds a line, Up/Down walk the history."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+j", "newline", "new line", show=False),
        Binding("shift+enter", "newline", "new line", show=False),
    ]

    class Submitted(Message):
        """The person pressed Enter."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class HistoryWanted(Message):
        """Up on the first line or Down on the last: walk the history."""

        def __init__(self, older: bool) -> None:
            super().__init__()
            self.older = older

    class CompletionKey(Message):
        """Tab (accept) or Up/Down (move) while completions are shown."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    completing = False
    """Set by the app while the completion list is visible."""

    def action_newline(self) -> None:
        """Insert a line break."""
        self.insert("\n")

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter" and not self.completing:
            event.prevent_default()
            event.stop()
            self.post_message(self.Submitted(self.text))
            return
        word = self.document.get_line(self.cursor_location[0])[: self.cursor_location[1]].split(" ")[-1]
        completable = event.key == "tab" and word.startswith(("@", "/"))  # even before the list shows
        if completable or (self.completing and event.key in ("tab", "enter", "up", "down")):
            event.prevent_default()
            event.stop()
            self.post_message(self.CompletionKey(event.key))
            return
        row = self.cursor_location[0]
        if (event.key == "up" and row == 0) or (event.key == "down" and row == self.document.line_count - 1):
            event.prevent_default()
            event.stop()
            self.post_message(self.HistoryWanted(event.key == "up"))
            return
        await super()._on_key(event)
