"""Conversation data shared by every component: messages, tool calls, completions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from asi_agent.wire import (
    NoteKind,
    Origin,
    ResultKind,
    legacy_error_kind,
    legacy_origin,
    legacy_result,
    result_body,
)

Role = Literal["system", "user", "assistant", "tool"]

__all__ = [
    "Completion",
    "Image",
    "Message",
    "NoteKind",
    "Origin",
    "RawCall",
    "ResultKind",
    "Role",
    "ToolCall",
    "Usage",
    "WithImages",
]

_ROLE_ORIGIN: dict[str, Origin] = {
    "user": "person",
    "assistant": "model",
    "system": "runtime",
    "tool": "runtime",
}


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
class Image:
    """An image a message carries to a model that accepts images (`read_file` of one, an `@image.png`)."""

    media_type: str
    """`image/png`, `image/jpeg`, `image/gif` or `image/webp`."""
    data: str
    """The image's bytes, base64-encoded."""
    name: str = ""
    """Where it came from, as the person or the model named it."""
    url: str = ""
    """An http(s) address the model's server fetches the image from, instead of `data` (a gateway
    client's image URL, passed through only to servers that take URLs); empty for an image at hand."""

    def data_url(self) -> str:
        """The image as a `data:` URL (OpenAI's `image_url`), or its http(s) address when it has one."""
        return self.url or f"data:{self.media_type};base64,{self.data}"

    def to_dict(self) -> dict[str, str]:
        """JSON-ready form for transcripts."""
        data = {"media_type": self.media_type, "data": self.data, "name": self.name}
        return data | ({"url": self.url} if self.url else {})


class WithImages(str):
    """A tool's text result that returns images too (they travel in `Message.images`)."""

    images: tuple[Image, ...]

    def __new__(cls, text: str, images: tuple[Image, ...]) -> WithImages:
        made = super().__new__(cls, text)
        made.images = images
        return made


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message. `tool_calls` on assistant messages; `tool_call_id`/`name` on tool results.

    What a message's text must never be read for is kept beside it: who wrote it (`origin`), how a tool
    call ended (`outcome`, `error_kind`), why the runtime wrote a user turn (`note`). `asi_agent.wire`
    renders the text from them.
    """

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None
    origin: Origin | None = None
    """Who wrote it; None takes the role's (user: the person, assistant: the model, else the runtime)."""
    outcome: ResultKind | None = None
    """A tool result's outcome (None: "ok"); None on other messages."""
    error_kind: str | None = None
    """A failed call's model-fixable error kind (the exception's class name, e.g. `ToolArgumentsError`)."""
    note: NoteKind | None = None
    """Why the runtime wrote this user turn (a retry's kind), when it did."""
    images: tuple[Image, ...] = ()
    """Images sent with the text (a person's attachments, an image `read_file` read)."""

    def __post_init__(self) -> None:
        if self.origin is None:
            object.__setattr__(self, "origin", _ROLE_ORIGIN[self.role])
        if self.role == "tool" and self.outcome is None:
            object.__setattr__(self, "outcome", "ok")

    @property
    def author(self) -> Origin:
        """Who wrote the message (`origin`, resolved)."""
        return self.origin or _ROLE_ORIGIN[self.role]

    @property
    def ok(self) -> bool:
        """Whether a tool result reports success (True for other messages)."""
        return self.outcome in (None, "ok")

    @property
    def body(self) -> str:
        """A tool result's output without the mark its wire text puts before a failure (for people)."""
        return result_body(self.content, self.outcome or "ok")

    @property
    def runtime_written(self) -> bool:
        """Whether the runtime, not the person or the model, wrote this user or assistant turn."""
        return self.author == "runtime" and self.role in ("user", "assistant")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for transcripts."""
        data: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            data["tool_calls"] = [call.to_dict() for call in self.tool_calls]
        if self.tool_call_id is not None:
            data["tool_call_id"] = self.tool_call_id
        if self.name is not None:
            data["name"] = self.name
        data["origin"] = self.author
        typed = {"outcome": self.outcome, "error_kind": self.error_kind, "note": self.note}
        data.update((key, value) for key, value in typed.items() if value is not None)
        if self.images:
            data["images"] = [image.to_dict() for image in self.images]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Message:
        """Inverse of `to_dict`; a message of an older transcript (without the typed fields) gets them
        from its text, as the runtime wrote it then."""
        role, content = data["role"], data.get("content") or ""
        origin, note = data.get("origin"), data.get("note")
        if origin is None:
            origin, note = legacy_origin(role, content)
        outcome, error_kind = data.get("outcome"), data.get("error_kind")
        if role == "tool" and "origin" not in data:
            outcome = outcome or legacy_result(content)
            error_kind = error_kind or (legacy_error_kind(content) if outcome != "ok" else None)
        return cls(
            role=role,
            content=content,
            tool_calls=tuple(ToolCall.from_dict(c) for c in data.get("tool_calls") or ()),
            tool_call_id=data.get("tool_call_id"),
            name=data.get("name"),
            origin=origin,
            outcome=outcome,
            error_kind=error_kind,
            note=note,
            images=tuple(Image(**image) for image in data.get("images") or ()),
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
    origin: Origin = "model"
    """Who wrote the reply: the model, or the runtime (a planner that left one possible reply, or that
    turned an unfounded answer into an honest STOP)."""
    problems: tuple[str, ...] = ()
    """Call fragments in the text that could not be read (a text-mode adapter's), told to the model."""
    retry: str | None = None
    """Why the reply cannot be used as it is (a text-mode reply with no readable call, a refusal): the
    runtime asks again with `retry_prompt`."""
    retry_prompt: str = ""
    """The user turn that asks again, in the model's own call format."""
