"""The `/api/chat` wire shapes: messages as Ollama takes them, and a reply assembled from its NDJSON lines."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from asi_agent.backends.base import DeltaCallback
from asi_agent.backends.guard import StreamGuard, cut_reason
from asi_agent.backends.thinking import ThinkingText
from asi_agent.messages import Completion, Message, RawCall, Usage

__all__ = ["OllamaStreamState", "to_ollama_messages"]


def to_ollama_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Messages in `/api/chat` shape: calls without ids, tool results named by `tool_name`."""
    names_by_id: dict[str, str] = {}
    wire: list[dict[str, Any]] = []
    for message in messages:
        item: dict[str, Any] = {"role": message.role, "content": message.content}
        if message.images:
            item["images"] = [image.data for image in message.images]
        if message.tool_calls:
            item["tool_calls"] = [
                {"function": {"name": call.name, "arguments": call.arguments}} for call in message.tool_calls
            ]
            names_by_id.update((call.id, call.name) for call in message.tool_calls)
        if message.role == "tool":
            name = message.name or names_by_id.get(message.tool_call_id or "")
            if name:
                item["tool_name"] = name
        wire.append(item)
    return wire


@dataclass(slots=True)
class OllamaStreamState:
    """Everything gathered from the NDJSON lines of one reply."""

    guard: StreamGuard
    text: list[str] = field(default_factory=list)
    calls: list[RawCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    streamed: bool = False
    thinking: ThinkingText = field(default_factory=ThinkingText)
    lines: int = 0
    model: str | None = None
    cut: str | None = None
    """Why the guard cut the stream, if it did."""

    def feed(self, part: dict[str, Any], on_delta: DeltaCallback | None) -> None:
        """Take one NDJSON line of the reply (its text, its calls, and at the end its counts)."""
        self.lines += 1
        if self.model is None and isinstance(part.get("model"), str):
            self.model = part["model"]
        message = part.get("message") or {}
        if text := self.thinking.piece(message.get("thinking"), message.get("content")):
            self.text.append(text)
            self.streamed = True
            if on_delta is not None:
                on_delta(text)
            self.cut = self.cut or self.guard.feed(text)
        for call in message.get("tool_calls") or ():
            function = call.get("function") or {}
            # Ollama gives calls no id; the agent assigns its own.
            self.calls.append(
                RawCall(id=None, name=str(function.get("name") or ""), arguments=function.get("arguments"))
            )
            self.streamed = True
        if part.get("done"):
            self.finish_reason = part.get("done_reason") or "stop"
            self.usage = Usage(int(part.get("prompt_eval_count") or 0), int(part.get("eval_count") or 0))

    def completion(self, max_tokens: int, n_ctx: int) -> Completion:
        """The reply as gathered, with why it ended (cut by the guard, by length, by the context)."""
        text = "".join(self.text) + self.thinking.end()
        reason = self.cut or cut_reason(self.finish_reason, self.usage, max_tokens=max_tokens, n_ctx=n_ctx)
        return Completion(text, tuple(self.calls), self.usage, reason)
