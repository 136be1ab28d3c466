"""Conversation data shared by every component: messages, tool calls, completions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["system", "user", "assistant", "tool"]

__all__ = ["Completion", "Message", "RawCall", "Role", "ToolCall", "Usage"]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A parsed, normalised call of one tool, as the agent executes it."""

    id: str
    name: str
    arguments: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, used by transcripts and backends."""
        return {"id": self.id, "name": self.name, "arguments": self.arguments}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ToolCall:
        """Inverse of `to_dict`."""
        return cls(id=str(data["id"]), name=str(data["name"]), arguments=dict(data.get("arguments") or {}))


@dataclass(frozen=True, slots=True)
class RawCall:
    """A native tool call exactly as a backend received it; `arguments` may be a JSON string or a mapping."""

    id: str | None
    name: str
    arguments: str | dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message. `tool_calls` on assistant messages; `tool_call_id`/`name` on tool results."""

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for transcripts."""
        data: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            data["tool_calls"] = [call.to_dict() for call in self.tool_calls]
        if self.tool_call_id is not None:
            data["tool_call_id"] = self.tool_call_id
        if self.name is not None:
            data["name"] = self.name
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Message:
        """Inverse of `to_dict`."""
        return cls(
            role=data["role"],
            content=data.get("content") or "",
            tool_calls=tuple(ToolCall.from_dict(c) for c in data.get("tool_calls") or ()),
            tool_call_id=data.get("tool_call_id"),
            name=data.get("name"),
        )


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts of one request (or a sum of them)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens, self.completion_tokens + other.completion_tokens
        )


@dataclass(frozen=True, slots=True)
class Completion:
    """A backend's reply: its text, the native calls it carried, token usage, and why it ended."""

    text: str
    native_calls: tuple[RawCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    """`stop` / `tool_calls` when the model ended the reply itself; a reply that did not end by itself is
    `length` (the token limit), `context_full` (the context window), `content_filter`, or `repetition`
    (cut by the backend because it kept repeating itself). None when the backend cannot tell."""
