"""How the plain chat shows a turn: events as lines, a change as a coloured diff.

And a resumed conversation, replayed as the same lines.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any

from asi_agent.calls import strip_status
from asi_agent.events import (
    AgentEvent,
    AssistantReplied,
    CallRejected,
    ReasoningStreamed,
    RetryRequested,
    RunFinished,
    SubagentEvent,
    TextStreamed,
    ToolFinished,
    ToolProgress,
    ToolStarted,
)
from asi_agent.messages import Message
from asi_agent.statusline import StatusFilter

__all__ = ["LinePrinter", "ending_detail", "replay_lines", "say"]


class LinePrinter:
    """Events as lines: streamed text, one line per tool call, diffs of changes."""

    def __init__(self) -> None:
        self.partial = ""
        """The reply's text so far, as the model wrote it (kept when the turn is interrupted)."""
        self.wrote = False
        """Some of the reply was shown: its line still needs ending."""
        self.status = StatusFilter()
        self.started: dict[str, float] = {}
        self.names: dict[str, str] = {}  # the calls' tool names, for their progress lines
        self.rejected: set[str] = set()
        """Calls already shown as rejected: their result events add nothing."""
        self.said = ""
        """The model's latest text: an ending whose result is something else says it."""

    def show(self, event: AgentEvent) -> None:
        """One event of the turn, as text on the terminal."""
        if isinstance(event, TextStreamed):
            self.partial += event.delta
            self._write(self.status.feed(event.delta))
        elif isinstance(event, ReasoningStreamed):
            sys.stdout.write(f"\x1b[2m{event.delta}\x1b[0m" if sys.stdout.isatty() else event.delta)
            sys.stdout.flush()
        elif isinstance(event, AssistantReplied):
            self.said = strip_status(event.message.content) or self.said
            self._write(self.status.finish())
            if self.wrote:
                sys.stdout.write("\n")
            elif not self.partial and strip_status(event.message.content).strip():
                say(strip_status(event.message.content))
            self.partial, self.wrote = "", False
        elif isinstance(event, ToolStarted | ToolFinished) and event.call.id in self.rejected:
            return
        elif isinstance(event, ToolStarted | ToolProgress):
            self._running(event)
        elif isinstance(event, ToolFinished):
            self._finished(event)
        elif isinstance(event, CallRejected):
            self.rejected.add(event.call_id)
            say(f"✗ {event.name}: {event.error}")
        elif isinstance(event, RetryRequested):
            say(f"(asked the model again: {event.reason})")
        elif isinstance(event, RunFinished):
            self._ended(event)

    def _ended(self, event: RunFinished) -> None:
        """The closing line, and under it the tests that failed before the run's change as well."""
        tokens = event.usage.prompt_tokens + event.usage.completion_tokens
        detail = ending_detail(event, self.said)
        used = f" · {tokens:,} tokens" if tokens else ""  # none: grounding answered without the model
        say(f"── {event.status}{detail} · {event.turns} turns{used}")
        if (before := event.baseline_line()) is not None:
            say(f"   {before}")

    def _running(self, event: ToolStarted | ToolProgress) -> None:
        """A call starts (one line), or reports how far it got (a line under it)."""
        if isinstance(event, ToolProgress):
            say(f"  … {self.names.get(event.call_id, 'tool')} {event.detail}")
            return
        self.started[event.call.id] = time.monotonic()
        self.names[event.call.id] = event.call.name
        say(f"· {event.call.name} {_key_argument(event.call.arguments)} …")

    def _write(self, text: str) -> None:
        """Streamed reply text (the status line already taken out)."""
        if text:
            self.wrote = True
            sys.stdout.write(text)
            sys.stdout.flush()

    def child(self, event: SubagentEvent) -> None:
        """A child agent's calls, indented under its `task` call."""
        inner = event.event
        if isinstance(inner, ToolStarted):
            self.names[f"{event.call_id}/{inner.call.id}"] = inner.call.name
            say(f"  ↳ {event.agent} · {inner.call.name} {_key_argument(inner.call.arguments)} …")
        elif isinstance(inner, ToolProgress):
            name = self.names.get(f"{event.call_id}/{inner.call_id}", "tool")
            say(f"  ↳ {event.agent} … {name} {inner.detail}")
        elif isinstance(inner, ToolFinished):
            first = inner.output.partition("\n")[0] if inner.ok else inner.output
            say(f"  ↳ {event.agent} {'✓' if inner.ok else '✗'} {inner.call.name} {first[:200]}")

    def _finished(self, event: ToolFinished) -> None:
        self.names.pop(event.call.id, None)
        seconds = time.monotonic() - self.started.pop(event.call.id, time.monotonic())
        took = "<1s" if seconds < 1 else f"{seconds:.1f}s"
        first, _, rest = event.output.partition("\n")
        if event.ok and event.call.name == "todo_write":
            say(f"✓ {event.call.name} ({took}) {event.output.strip()}")  # the whole list: it is the plan
        elif event.ok:
            say(f"✓ {event.call.name} ({took}) {first[:200]}")
        else:
            say(f"✗ {event.call.name} ({took}) {event.output[:500]}")
        if event.ok and event.changed_files and "@@" in rest:
            _print_diff(rest.splitlines())


def ending_detail(event: RunFinished, said: str) -> str:
    """What to add to the closing line: the error, or a result the model did not write (why the runtime
    stopped the run: a loop, a failed check)."""
    if event.error:
        return f": {event.error}"
    if event.status != "DONE" and event.result and event.result != said:
        return f": {event.result}"
    return ""


def replay_lines(messages: Sequence[Message]) -> list[str]:
    """A resumed conversation as lines: what was asked, the replies, each call and how it ended."""
    lines: list[str] = []
    for message in messages:
        if message.role == "user":
            typed = message.content.split('\n\n<file path="')[0]  # what was typed, not the attachments
            lines.append(f"› {typed if len(typed) < 600 else typed[:600] + ' …'}")
        elif message.role == "assistant":
            if strip_status(message.content).strip():
                lines.append(strip_status(message.content))
            lines += [f"· {call.name} {_key_argument(call.arguments)}" for call in message.tool_calls]
        elif message.role == "tool":
            mark = "✓" if message.ok else "✗"
            first = message.body.partition("\n")[0]
            lines.append(f"{mark} {message.name or 'result'}: {first[:200]}")
    return lines


def _key_argument(arguments: dict[str, Any]) -> str:
    for key in ("path", "command", "query", "pattern"):
        if isinstance(arguments.get(key), str):
            return str(arguments[key]).splitlines()[0][:80] if arguments[key] else ""
    return ""


def say(text: str) -> None:
    """One line to the terminal, shown at once."""
    print(text, flush=True)


def _print_diff(lines: Iterable[str]) -> None:
    from prompt_toolkit import print_formatted_text  # noqa: PLC0415
    from prompt_toolkit.formatted_text import FormattedText  # noqa: PLC0415

    from asi_agent.ui.confirm import diff_line_style  # noqa: PLC0415

    print_formatted_text(FormattedText([(diff_line_style(line), line + "\n") for line in lines]))
