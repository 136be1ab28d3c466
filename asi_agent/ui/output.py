"""Rendering agent events for headless runs: `text`, `json` and `stream-json` (DESIGN.md contracts)."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from asi_agent.calls import STATUS_RE, strip_status
from asi_agent.events import (
    AgentEvent,
    AssistantReplied,
    ContextCompacted,
    DecisionMade,
    ReasoningStreamed,
    RetryRequested,
    RunFinished,
    SessionStarted,
    StatusDecided,
    SubagentEvent,
    TextStreamed,
    ToolFinished,
    ToolStarted,
)
from asi_agent.messages import Usage
from asi_agent.tools.files.correct import corrected_edits

__all__ = ["Renderer", "RunSummary", "error_object", "make_renderer"]


@dataclass
class RunSummary:
    """What the final JSON object reports, accumulated from events."""

    session_id: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    changed_files: list[str] = field(default_factory=list)
    denied: list[dict[str, Any]] = field(default_factory=list)
    context_left: int | None = None
    todos: list[dict[str, Any]] = field(default_factory=list)
    """The model's task list as its last successful `todo_write` left it."""
    tool_state: Mapping[str, Any] = field(default_factory=dict)
    """The session's tool state (`ToolContext.state`), where the edit corrections are counted."""
    subagents: list[dict[str, Any]] = field(default_factory=list)
    """Each child agent's ending: its `task` call, agent, status, turns and tokens."""

    def observe(self, event: AgentEvent) -> None:
        """Take what matters from one event."""
        if isinstance(event, SubagentEvent):
            self._child(event)
            return
        if isinstance(event, AssistantReplied | ContextCompacted):
            self.context_left = event.context_left
        if isinstance(event, SessionStarted):
            self.session_id = event.session_id
        elif isinstance(event, ToolFinished):
            self.tool_calls.append({"name": event.call.name, "ok": event.ok, "error": event.error})
            self.changed_files.extend(f for f in event.changed_files if f not in self.changed_files)
            if event.ok and event.call.name == "todo_write":
                self.todos = list(event.call.arguments.get("todos") or [])
        elif isinstance(event, DecisionMade) and event.action == "deny":
            self.denied.append(
                {"name": event.call.name, "arguments": event.call.arguments, "reason": event.reason}
            )

    def _child(self, event: SubagentEvent) -> None:
        inner = event.event
        while isinstance(inner, SubagentEvent):  # a grandchild's, where depth allows them
            event, inner = inner, inner.event
        if isinstance(inner, RunFinished):
            usage = {
                "prompt_tokens": inner.usage.prompt_tokens,
                "completion_tokens": inner.usage.completion_tokens,
            }
            self.subagents.append(
                {"call_id": event.call_id, "agent": event.agent, "status": inner.status, "turns": inner.turns,
                 "usage": usage}
            )  # fmt: skip

    def result(self, end: RunFinished) -> dict[str, Any]:
        """The final object of `--output-format json` and of the `result` line of `stream-json`; `usage`
        counts the child agents' tokens too (`subagents` has each one's)."""
        children = [child["usage"] for child in self.subagents]
        return {
            "status": end.status,
            "result": end.result,
            "turns": end.turns,
            "session_id": self.session_id,
            "tool_calls": self.tool_calls,
            "changed_files": self.changed_files,
            "usage": {
                "prompt_tokens": end.usage.prompt_tokens + sum(c["prompt_tokens"] for c in children),
                "completion_tokens": end.usage.completion_tokens
                + sum(c["completion_tokens"] for c in children),
            },
            "subagents": self.subagents,
            "denied_calls": self.denied,
            "error": end.error,
            "context_left": self.context_left,
            "verified": end.verified,
            "checks": [check.to_dict() for check in end.checks],
            "verification": {"baseline": end.baseline.to_dict() if end.baseline is not None else None},
            "guarded_edits": end.guarded_edits,
            "sandbox": end.sandbox,
            "todos": self.todos,
            "corrected_edits": corrected_edits(self.tool_state),
        }


class Renderer:
    """Base renderer: keeps the summary; subclasses decide what to print."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out, self.err = out, err
        self.summary = RunSummary()
        self.plan_mode = False
        """A `--approval plan` run: the text format ends with the plan's todo list on stdout."""

    def show(self, event: AgentEvent) -> None:
        """Render one event."""
        self.summary.observe(event)
        self.render(event)

    def render(self, event: AgentEvent) -> None:
        """Print what this format prints for the event."""

    def fail(self, message: str) -> None:
        """The run ended in an error outside the loop (the caller prints the message to stderr)."""


class TextRenderer(Renderer):
    """Human-readable: the reply streams to stdout (without its `AGENT_STATUS` line and without blank
    lines for turns that said nothing); tool activity goes to stderr."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        super().__init__(out, err)
        self._line = ""
        """The reply's line being streamed, held back until it is known not to be the status line."""
        self._reply = ""
        """The latest reply's text, to tell a result the runtime wrote (a stopped loop) from the model's."""

    def render(self, event: AgentEvent) -> None:
        if isinstance(event, TextStreamed):
            self._stream(event.delta)
        elif isinstance(event, AssistantReplied):
            self._end_reply()
            self._reply = strip_status(event.message.content) or self._reply
        elif isinstance(event, ToolStarted):
            args = json.dumps(event.call.arguments, ensure_ascii=False)
            self.err.write(f"→ {event.call.name} {_clip(args, 200)}\n")
        elif isinstance(event, ToolFinished) and event.ok and event.call.name == "todo_write":
            self.err.write(f"✓ todo_write: {event.output.strip()}\n")  # the whole list: it is the plan
        elif isinstance(event, ToolFinished):
            mark = "✓" if event.ok else "✗"
            first = (event.output.strip().splitlines() or [""])[0]
            self.err.write(f"{mark} {event.call.name}: {_clip(first, 200)}\n")
        elif isinstance(event, DecisionMade) and event.action == "deny":
            self.err.write(f"⊘ {event.call.name} refused: {event.reason}\n")
        elif isinstance(event, RetryRequested):
            self.err.write(f"↻ asking the model again ({event.reason})\n")
        elif isinstance(event, ContextCompacted):
            left = "" if event.context_left is None else f", {event.context_left} tokens left"
            self.err.write(
                f"⇣ context: {event.tokens_before} → {event.tokens_after} tokens ({event.shrunk} results "
                f"shrunk, {event.summarised} messages summarised{left})\n"
            )
        elif isinstance(event, RunFinished):
            self._finish(event)
        elif isinstance(event, SubagentEvent):
            self._nested(event)

    def _nested(self, event: SubagentEvent) -> None:
        """A child agent's calls and ending, indented under its `task` call."""
        inner = event.event
        if isinstance(inner, ToolStarted):
            args = json.dumps(inner.call.arguments, ensure_ascii=False)
            self.err.write(f"  ↳ {event.agent} → {inner.call.name} {_clip(args, 160)}\n")
        elif isinstance(inner, ToolFinished):
            first = (inner.output.strip().splitlines() or [""])[0]
            self.err.write(
                f"  ↳ {event.agent} {'✓' if inner.ok else '✗'} {inner.call.name}: {_clip(first, 160)}\n"
            )
        elif isinstance(inner, RunFinished):
            self.err.write(f"  ↳ {event.agent} [{inner.status}] turns: {inner.turns}\n")

    def _stream(self, delta: str) -> None:
        *complete, self._line = (self._line + delta).split("\n")
        shown = [line for line in map(_without_status, complete) if line is not None]
        if shown:
            self.out.write("\n".join(shown) + "\n")
            self.out.flush()

    def _end_reply(self) -> None:
        last, self._line = _without_status(self._line), ""
        if last and last.strip():
            self.out.write(last + "\n")
            self.out.flush()

    def _finish(self, event: RunFinished) -> None:
        self._end_reply()
        if self.plan_mode and self.summary.todos:
            todos = self.summary.todos
            steps = "\n".join(f"{i}. {item.get('content', '')}" for i, item in enumerate(todos, 1))
            self.out.write(f"\nPlan:\n{steps}\n")
        changed = ", ".join(self.summary.changed_files) or "none"
        self.err.write(
            f"[{event.status}] turns: {event.turns}, changed files: {changed}, session: "
            f"{self.summary.session_id}\n"
        )
        if event.result and event.result not in (self._reply, event.error):  # the runtime's reason
            self.err.write(f"asi-agent: {event.result}\n")
        if (before := event.baseline_line()) is not None:
            self.err.write(f"asi-agent: {before}\n")
        if event.error:
            self.err.write(f"asi-agent: {_kind(event)}{event.error}\n")


class JsonRenderer(Renderer):
    """Prints nothing until the end, then one JSON object as the last line of stdout."""

    def render(self, event: AgentEvent) -> None:
        if isinstance(event, RunFinished):
            self.out.write(json.dumps(self.summary.result(event), ensure_ascii=False) + "\n")
            self.out.flush()
            if event.error:
                self.err.write(f"asi-agent: {_kind(event)}{event.error}\n")

    def fail(self, message: str) -> None:
        self.out.write(json.dumps(self.summary.result(_failed(message)), ensure_ascii=False) + "\n")
        self.out.flush()


class StreamJsonRenderer(Renderer):
    """One JSON object per line for every event of interest, ending with a `result` line."""

    def render(self, event: AgentEvent) -> None:
        line = self._line(event)
        if line is not None:
            self.out.write(json.dumps(line, ensure_ascii=False) + "\n")
            self.out.flush()
        if isinstance(event, RunFinished) and event.error:
            self.err.write(f"asi-agent: {_kind(event)}{event.error}\n")

    def fail(self, message: str) -> None:
        line = {"type": "result", **self.summary.result(_failed(message))}
        self.out.write(json.dumps(line, ensure_ascii=False) + "\n")
        self.out.flush()

    def _line(self, event: AgentEvent) -> dict[str, Any] | None:  # noqa: PLR0911 - one return per event type
        if isinstance(event, SessionStarted):
            return {
                "type": "session_start",
                "session_id": event.session_id,
                "model": event.model,
                "tool_mode": event.tool_mode,
                "resumed": event.resumed,
            }
        if isinstance(event, TextStreamed):
            return {"type": "assistant", "delta": event.delta}
        if isinstance(event, ReasoningStreamed):
            return {"type": "reasoning", "delta": event.delta}
        if isinstance(event, AssistantReplied):
            return {
                "type": "assistant",
                "message": event.message.to_dict(),
                "turn": event.turn,
                "context_left": event.context_left,
            }
        if isinstance(event, ToolStarted):
            return {
                "type": "tool_call",
                "id": event.call.id,
                "name": event.call.name,
                "arguments": event.call.arguments,
            }
        if isinstance(event, ToolFinished):
            return {
                "type": "tool_result",
                "id": event.call.id,
                "name": event.call.name,
                "ok": event.ok,
                "output": event.output,
            }
        if isinstance(event, StatusDecided):
            return {"type": "status", "status": event.status, "turn": event.turn}
        if isinstance(event, RunFinished):
            return {"type": "result", **self.summary.result(event)}
        if isinstance(event, SubagentEvent):
            inner = self._line(event.event)
            if inner is None or inner["type"] == "result":
                inner = _child_end(event.event) if isinstance(event.event, RunFinished) else inner
            if inner is None:
                return None
            return {
                "type": "subagent",
                "parent_tool_call_id": event.call_id,
                "agent": event.agent,
                "event": inner,
            }
        return None


def _child_end(end: RunFinished) -> dict[str, Any]:
    """A child agent's ending, in a `subagent` line of stream-json."""
    usage = {"prompt_tokens": end.usage.prompt_tokens, "completion_tokens": end.usage.completion_tokens}
    return {"type": "end", "status": end.status, "result": end.result, "turns": end.turns, "usage": usage}


def make_renderer(output_format: str, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> Renderer:
    """The renderer of one `--output-format`."""
    kinds: dict[str, type[Renderer]] = {
        "text": TextRenderer,
        "json": JsonRenderer,
        "stream-json": StreamJsonRenderer,
    }
    return kinds[output_format](out, err)


def error_object(message: str) -> dict[str, Any]:
    """The `--output-format json` object of a run that failed before it began (a usage error)."""
    return RunSummary().result(_failed(message))


def _without_status(line: str) -> str | None:
    """The line without an `AGENT_STATUS` ending; None when nothing but the status was on it."""
    if not STATUS_RE.search(line):
        return line
    rest = STATUS_RE.sub("", line).rstrip()
    return rest or None


def _failed(message: str) -> RunFinished:
    return RunFinished("ERROR", "", 0, Usage(), message)


def _kind(event: RunFinished) -> str:
    """`error: ` before the message of an error; other ends (TIMEOUT) speak for themselves."""
    return "error: " if event.status == "ERROR" else ""


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
