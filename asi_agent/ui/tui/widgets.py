"""The pieces of the conversation view, the input, the status bar and the changed-files panel.

A tool call's card lives in `toolcard`; its names are importable from here too.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Collapsible, Label, ListItem, ListView, Markdown, Static, TextArea
from textual.widgets.markdown import MarkdownStream

from asi_agent.ui.textkind import looks_like_markdown
from asi_agent.ui.tui.toolcard import ToolCard, diff_renderable, key_arguments

if TYPE_CHECKING:
    from textual.widget import Widget

    from asi_agent.ui.chatsession import FileChange

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


class DiffView(VerticalScroll):
    """A diff in the changed-files panel."""

    def compose(self) -> ComposeResult:
        yield Static("Select a file to see its diff.", id="diff-text")

    def show(self, diff: str) -> None:
        """Replace the diff shown."""
        self.query_one("#diff-text", Static).update(diff_renderable(diff) if diff else "(no change now)")


class ChangesPanel(Vertical):
    """The files this session changed; the highlighted one's diff is shown."""

    class Opened(Message):
        """A file was selected in the panel."""

        def __init__(self, path: str) -> None:
            super().__init__()
            self.path = path

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.changes: dict[str, FileChange] = {}
        """The files shown, by path."""

    def compose(self) -> ComposeResult:
        yield Label("Changed files", classes="panel-title")
        yield ListView(id="changed-files")
        yield DiffView(id="diff")

    def toggle(self, back_to: Widget) -> None:
        """Show or hide the panel: shown, its list takes the focus; hidden, `back_to` gets it back."""
        self.display = not self.display
        if self.display:
            self.query_one(ListView).focus()
        else:
            back_to.focus()

    async def set_files(self, changes: list[FileChange]) -> None:
        """Show these files, the first one highlighted."""
        self.changes = {change.path: change for change in changes}
        paths = list(self.changes)
        view = self.query_one(ListView)
        await view.clear()
        await view.extend([ListItem(Label(path), name=path) for path in paths])
        if paths:
            view.index = 0

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        """Show the file's diff and tell the app which file was opened."""
        if event.item.name:
            self._show(event.item.name)
            self.post_message(self.Opened(event.item.name))

    def on_list_view_highlighted(self, event: ListView.Highlighted) -> None:
        """Show the highlighted file's diff."""
        if event.item is not None and event.item.name:
            self._show(event.item.name)

    def _show(self, path: str) -> None:
        change = self.changes.get(path)
        if change is not None:
            self.query_one(DiffView).show(change.diff)


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
