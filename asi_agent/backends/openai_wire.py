"""The Chat Completions wire shapes: messages as sent, and a streamed reply assembled from its chunks.

Chunks are the plain JSON objects of the stream (`json.loads` of each `data:` line): building the SDK's
pydantic `ChatCompletionChunk` for every chunk cost more than everything else the runtime does per turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from typing import Any

from asi_agent import jsonfast
from asi_agent.backends.base import DeltaCallback
from asi_agent.backends.guard import StreamGuard, cut_reason
from asi_agent.backends.thinking import ThinkingText
from asi_agent.messages import Completion, Message, RawCall, Usage

__all__ = ["StreamState", "WireMessages", "as_chunk", "json_body", "to_openai_messages"]


def to_openai_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Messages in the Chat Completions wire shape."""
    return _in_order(
        messages, [_wire_item(message) for message in messages], [_images_turn(m) for m in messages]
    )


def _in_order(messages: Sequence[Message], items: list[Any], extras: list[Any]) -> list[Any]:
    """The wire items in order, each tool result's images in a user turn after the results of its reply
    (a tool message cannot carry images, and nothing may come between the results of one reply)."""
    ordered: list[Any] = []
    waiting: list[Any] = []
    for message, item, extra in zip(messages, items, extras, strict=True):
        if message.role != "tool" and waiting:
            ordered += waiting
            waiting = []
        ordered.append(item)
        if extra is not None:
            (waiting if message.role == "tool" else ordered).append(extra)
    return ordered + waiting


def as_chunk(reply: Any) -> Any:
    """A whole (not streamed) reply in the shape of one stream chunk: each choice's `message` as its delta."""
    if not isinstance(reply, dict):
        return reply
    choices = [
        {**choice, "delta": choice.get("message")}
        for choice in reply.get("choices") or ()
        if isinstance(choice, dict)
    ]
    return {**reply, "choices": choices}


_SCALARS: dict[Any, str] = {True: "true", False: "false", None: "null"}


def _encoded(value: Any) -> str:
    """`json.dumps(value, ensure_ascii=False)`, without its per-call set-up for the scalars a request's
    fields mostly are (the model's name, `stream`, a token limit, the temperature)."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is bool or value is None:
        return _SCALARS[value]
    if kind is int:
        return int.__repr__(value)
    if kind is float and value - value == 0:  # finite (the temperature): NaN and infinities are spelled out
        return float.__repr__(value)
    return jsonfast.dumps(value)


def json_body(params: dict[str, Any], encoded: dict[str, str]) -> bytes:
    """`json.dumps(params, ensure_ascii=False)` in UTF-8, with the values in `encoded` already encoded."""
    fields = [
        f"{encode_basestring(key)}: {encoded[key] if key in encoded else _encoded(value)}"
        for key, value in params.items()
    ]
    return ("{" + ", ".join(fields) + "}").encode("utf-8")


class WireMessages:
    """`to_openai_messages` converting and encoding each message once: a turn does only the messages it added.

    Messages are immutable and the history keeps them, so a message is known again by identity (or
    equality: an equal message has the same wire item). The history grows at its end, so the part that is
    the same as last time is recognised with one list comparison, and only what follows it is looked at.
    The wire items are only read afterwards (serialised, measured), never changed.
    """

    def __init__(self) -> None:
        self._sources: list[Message] = []
        self._items: list[dict[str, Any]] = []
        self._texts: list[str] = []
        self._extras: list[tuple[dict[str, Any], str] | None] = []
        """Each tool result's images as a user turn of their own (`image_url` parts), and its JSON."""

    def __call__(self, messages: Sequence[Message]) -> list[dict[str, Any]]:
        """The wire shape of `messages`."""
        self._update(messages)
        if not any(self._extras):
            return list(self._items)
        return _in_order(self._sources, self._items, [extra and extra[0] for extra in self._extras])

    def json_array(self, messages: Sequence[Message]) -> str:
        """`json.dumps(self(messages), ensure_ascii=False)`, each message encoded once in its life."""
        self._update(messages)
        if not any(self._extras):
            return "[" + ", ".join(self._texts) + "]"
        texts = _in_order(self._sources, self._texts, [extra and extra[1] for extra in self._extras])
        return "[" + ", ".join(texts) + "]"

    def _update(self, messages: Sequence[Message]) -> None:
        known = len(self._sources)
        same = known if len(messages) >= known and list(messages[:known]) == self._sources else 0
        if same < known:  # a compaction (or another conversation): the part that is still the same
            for old, new in zip(self._sources, messages, strict=False):
                if old is not new:
                    break
                same += 1
        if same == known == len(messages):
            return
        # After a compaction, messages kept from further on are still known (the rest is forgotten).
        rest = zip(
            self._sources[same:], self._items[same:], self._texts[same:], self._extras[same:], strict=True
        )
        later = {id(source): (source, item, text, extra) for source, item, text, extra in rest}
        del self._sources[same:], self._items[same:], self._texts[same:], self._extras[same:]
        for message in messages[same:]:
            kept = later.get(id(message))
            if kept is None or kept[0] is not message:
                item, images = _wire_item(message), _images_turn(message)
                extra = (images, jsonfast.dumps(images)) if images is not None else None
                kept = (message, item, jsonfast.dumps(item), extra)
            self._sources.append(kept[0])
            self._items.append(kept[1])
            self._texts.append(kept[2])
            self._extras.append(kept[3])


def _images_turn(message: Message) -> dict[str, Any] | None:
    """A tool result's images as a user turn of `image_url` parts, after a text naming where they came from
    (a user message carries its own images: a second user turn in a row breaks templates that insist on
    alternating roles)."""
    if not message.images or message.role == "user":
        return None
    return {"role": "user", "content": _image_parts(message)}


def _image_parts(message: Message) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = []
    for image in message.images:
        shown = f"the image {image.name}" if image.name else "an image"
        source = f" (read by {message.name})" if message.role == "tool" and message.name else ""
        parts.append({"type": "text", "text": f"[{shown}{source}]"})
        parts.append({"type": "image_url", "image_url": {"url": image.data_url()}})
    return parts


def _wire_item(message: Message) -> dict[str, Any]:
    item: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.role == "user" and message.images:
        item["content"] = [{"type": "text", "text": message.content}, *_image_parts(message)]
    if message.tool_calls:
        item["content"] = message.content or None
        item["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": jsonfast.dumps(call.arguments)},
            }
            for call in message.tool_calls
        ]
    if message.role == "tool" and message.tool_call_id is not None:
        item["tool_call_id"] = message.tool_call_id
    return item


@dataclass(slots=True)
class _PartialCall:
    """One native call being assembled from stream fragments."""

    id: str | None = None
    name: str = ""
    parts: list[str] = field(default_factory=list)
    mapping: dict[str, Any] | None = None

    def raw(self) -> RawCall:
        arguments: str | dict[str, Any] | None = self.mapping
        if arguments is None and self.parts:
            arguments = "".join(self.parts)
        return RawCall(id=self.id, name=self.name, arguments=arguments)


@dataclass(slots=True)
class StreamState:
    """Everything gathered from the chunks of one streamed reply."""

    guard: StreamGuard
    text: list[str] = field(default_factory=list)
    calls: list[_PartialCall] = field(default_factory=list)
    by_index: dict[int, _PartialCall] = field(default_factory=dict)
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    streamed: bool = False
    thinking: ThinkingText = field(default_factory=ThinkingText)
    chunks: int = 0
    model: str | None = None
    cut: str | None = None
    """Why the guard cut the stream, if it did."""

    def feed(self, chunk: Any, on_delta: DeltaCallback | None) -> None:
        """Take one chunk (a JSON object of the stream; anything else is ignored)."""
        if not isinstance(chunk, dict):
            return
        self.chunks += 1
        model = chunk.get("model")
        if self.model is None and isinstance(model, str) and model:
            self.model = model
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            self.usage = Usage(_count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens")))
        for choice in chunk.get("choices") or ():
            if isinstance(choice, dict):
                self._feed_choice(choice, on_delta)

    def _feed_choice(self, choice: dict[str, Any], on_delta: DeltaCallback | None) -> None:
        if choice.get("finish_reason"):
            self.finish_reason = str(choice["finish_reason"])
        delta = choice.get("delta")
        if not isinstance(delta, dict):
            return
        reasoning = delta.get("reasoning_content") or delta.get("reasoning")
        if text := self.thinking.piece(reasoning, delta.get("content")):
            self.text.append(text)
            self.streamed = True
            if on_delta is not None:
                on_delta(text)
            self._watch(text)
        for fragment in delta.get("tool_calls") or ():
            if isinstance(fragment, dict):
                self._add_fragment(fragment)

    def _watch(self, fragment: str) -> None:
        if self.cut is None:
            self.cut = self.guard.feed(fragment)

    def _add_fragment(self, fragment: dict[str, Any]) -> None:
        self.streamed = True
        call = self._call_for(fragment)
        if fragment.get("id") and call.id is None:
            call.id = str(fragment["id"])
        function = fragment.get("function")
        if not isinstance(function, dict):
            return
        if function.get("name") and not call.name:
            call.name = str(function["name"])
        arguments: object = function.get("arguments")
        if isinstance(arguments, str):
            call.parts.append(arguments)
            self._watch(arguments)
        elif isinstance(arguments, dict):
            # A non-conforming server sent an object: keep it as received.
            call.mapping = {**(call.mapping or {}), **arguments}

    def _call_for(self, fragment: dict[str, Any]) -> _PartialCall:
        index = fragment.get("index")
        if isinstance(index, int):
            if index not in self.by_index:
                self.by_index[index] = _PartialCall()
                self.calls.append(self.by_index[index])
            return self.by_index[index]
        # Without an index, a new id starts a call and a fragment without id continues the last one.
        last = self.calls[-1] if self.calls else None
        new_id = fragment.get("id")
        if last is None or (new_id and last.id is not None and new_id != last.id):
            last = _PartialCall()
            self.calls.append(last)
        return last

    def completion(self, max_tokens: int | None, n_ctx: int | None) -> Completion:
        calls = tuple(call.raw() for call in self.calls if call.name or call.parts or call.mapping)
        reason = self.cut or cut_reason(self.finish_reason, self.usage, max_tokens=max_tokens, n_ctx=n_ctx)
        return Completion("".join(self.text) + self.thinking.end(), calls, self.usage, reason)


def _count(value: object) -> int:
    return value if isinstance(value, int) else 0
