"""Answers in the Anthropic Messages format (checklist §8-§9): `content[].tool_use` with
`stop_reason = tool_use`, and the `message_start` … `message_stop` event stream.

In a stream, text deltas are the upstream's as they arrive; each `tool_use` block is synthesized once
the reply has ended and been parsed: `content_block_start`, one `input_json_delta` with the complete
input, `content_block_stop`. Output token counts arrive with `message_delta`, as the API sends them.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from json.encoder import encode_basestring
from typing import Any

from asi_agent import jsonfast
from asi_agent.calls.jsonish import hex_id
from asi_agent.gateway.emulate import Outcome
from asi_agent.messages import ToolCall

__all__ = ["error_body", "message", "message_events", "tool_use_id"]

_STOP = {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}


def error_body(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    """An error in the Anthropic shape."""
    return {"type": "error", "error": {"type": kind, "message": message}}


def tool_use_id(call: ToolCall) -> str:
    """The call's id as the client will send it back (ids the client gave are kept as they are)."""
    return call.id if call.id.startswith("toolu_") else f"toolu_{call.id.removeprefix('call_')}"


def _tool_use(call: ToolCall) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_use_id(call), "name": call.name, "input": call.arguments}


def message(outcome: Outcome) -> dict[str, Any]:
    """A non-streamed `message`."""
    content: list[dict[str, Any]] = [{"type": "text", "text": outcome.text}] if outcome.text else []
    content += [_tool_use(call) for call in outcome.calls]
    return {
        "id": f"msg_{hex_id(24)}",
        "type": "message",
        "role": "assistant",
        "model": outcome.model,
        "content": content,
        "stop_reason": _STOP[outcome.finish],
        "stop_sequence": None,
        "usage": {
            "input_tokens": outcome.usage.prompt_tokens,
            "output_tokens": outcome.usage.completion_tokens,
        },
    }


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {jsonfast.compact_text({'type': name, **data})}\n\n"


def _text_delta(index: int, text: str) -> str:
    """`_event("content_block_delta", {"index": index, "delta": {"type": "text_delta", "text": text}})`,
    without encoding its fixed parts again for every piece of text."""
    return (
        f'event: content_block_delta\ndata: {{"type":"content_block_delta","index":{index:d},'
        f'"delta":{{"type":"text_delta","text":{encode_basestring(text)}}}}}\n\n'
    )


async def message_events(stream: AsyncIterator[str | Outcome], model: str) -> AsyncGenerator[str, None]:
    """A Messages event stream from an upstream answer stream."""
    start: dict[str, Any] = {
        "id": f"msg_{hex_id(24)}",
        "type": "message",
        "role": "assistant",
        "model": model,
    }
    start |= {"content": [], "stop_reason": None, "stop_sequence": None}
    start["usage"] = {"input_tokens": 0, "output_tokens": 0}
    # One write per upstream piece: `message_start` goes with the first, the closing events together.
    events, index, text_open = [_event("message_start", {"message": start})], 0, False
    async for item in stream:
        pieces = [item] if isinstance(item, str) else [item.tail] if item.tail else []
        for piece in pieces:
            if not text_open:
                block: dict[str, Any] = {"type": "text", "text": ""}
                events.append(_event("content_block_start", {"index": index, "content_block": block}))
                text_open = True
            events.append(_text_delta(index, piece))
        if not isinstance(item, str):
            if text_open:
                events.append(_event("content_block_stop", {"index": index}))
                index += 1
            events += _closing(item, index)
            events.append(_event("message_stop", {}))
        yield "".join(events)
        events = []
    if events:
        yield "".join([*events, _event("message_stop", {})])


def _closing(outcome: Outcome, index: int) -> list[str]:
    """Each call as a whole `tool_use` block (start, the complete input in one delta, stop), then
    `message_delta` with the stop reason and the usage."""
    events = []
    for call in outcome.calls:
        block = {**_tool_use(call), "input": {}}
        events.append(_event("content_block_start", {"index": index, "content_block": block}))
        delta = {"type": "input_json_delta", "partial_json": jsonfast.dumps(call.arguments)}
        events.append(_event("content_block_delta", {"index": index, "delta": delta}))
        events.append(_event("content_block_stop", {"index": index}))
        index += 1
    usage = {"input_tokens": outcome.usage.prompt_tokens, "output_tokens": outcome.usage.completion_tokens}
    stop: dict[str, Any] = {"stop_reason": _STOP[outcome.finish], "stop_sequence": None}
    events.append(_event("message_delta", {"delta": stop, "usage": usage}))
    return events
