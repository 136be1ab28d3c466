"""A tool call's card in the conversation: its title line, its result, the diff or new file it wrote."""

from __future__ import annotations

import json
import time
from typing import Any

from rich.syntax import Syntax
from rich.text import Text
from textual.content import Content
from textual.widgets import Collapsible, Static

from asi_agent.messages import ToolCall

__all__ = ["CARD_OUTPUT_LINES", "ToolCard", "diff_renderable", "key_arguments"]

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
