"""Answers in the OpenAI Responses format (`/v1/responses`, as Codex uses it): `output` items of type
`message` and `function_call`, and the `response.*` event stream ending in `response.completed`.

In a stream, text deltas are the upstream's as they arrive; each `function_call` item is synthesized
once the reply has ended and been parsed (`output_item.added`, one `function_call_arguments.delta` with
the complete arguments, `function_call_arguments.done`, `output_item.done`).
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

from asi_agent import jsonfast
from asi_agent.calls.jsonish import hex_id
from asi_agent.gateway.emulate import Outcome
from asi_agent.messages import ToolCall

__all__ = ["response", "response_events"]


def _function_call(call: ToolCall, status: str = "completed") -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": f"fc_{hex_id(16)}",
        "call_id": call.id,
        "name": call.name,
        "arguments": jsonfast.dumps(call.arguments),
        "status": status,
    }


def _custom_call(call: ToolCall, status: str = "completed") -> dict[str, Any]:
    raw = call.arguments.get("input")
    return {
        "type": "custom_tool_call",
        "id": f"ctc_{hex_id(16)}",
        "call_id": call.id,
        "name": call.name,
        "input": raw if isinstance(raw, str) else jsonfast.dumps(call.arguments),
        "status": status,
    }


def _message(text: str, item_id: str, status: str = "completed") -> dict[str, Any]:
    content = [{"type": "output_text", "text": text, "annotations": []}] if status == "completed" else []
    return {"type": "message", "id": item_id, "status": status, "role": "assistant", "content": content}


def _envelope(
    model: str, status: str, output: list[dict[str, Any]], outcome: Outcome | None, response_id: str = ""
) -> dict[str, Any]:
    usage = None
    if outcome is not None:
        prompt, completion = outcome.usage.prompt_tokens, outcome.usage.completion_tokens
        usage = {
            "input_tokens": prompt,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": completion,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": prompt + completion,
        }
    return {
        "id": response_id or f"resp_{hex_id(24)}",
        "object": "response",
        "created_at": int(time.time()),
        "status": status,
        "model": model,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete" else None,
        "usage": usage,
    }


def _output(outcome: Outcome, text: str, message_id: str) -> list[dict[str, Any]]:
    items = [_message(text, message_id)] if text else []
    return items + [
        _custom_call(call) if call.name in outcome.custom_tools else _function_call(call)
        for call in outcome.calls
    ]


def response(outcome: Outcome) -> dict[str, Any]:
    """A non-streamed `response`."""
    status = "incomplete" if outcome.finish == "length" else "completed"
    return _envelope(outcome.model, status, _output(outcome, outcome.text, f"msg_{hex_id(16)}"), outcome)


class _Events:
    def __init__(self) -> None:
        self.number, self.response_id = 0, ""

    def __call__(self, kind: str, **data: Any) -> str:
        self.number += 1
        payload = {"type": kind, "sequence_number": self.number, **data}
        return f"event: {kind}\ndata: {jsonfast.compact_text(payload)}\n\n"


async def response_events(stream: AsyncIterator[str | Outcome], model: str) -> AsyncGenerator[str, None]:
    """A Responses event stream from an upstream answer stream."""
    event, message_id, text = _Events(), f"msg_{hex_id(16)}", ""
    created = _envelope(model, "in_progress", [], None)
    event.response_id = created["id"]
    # One write per upstream piece: the opening events go with the first, the closing ones together.
    events = [event("response.created", response=created), event("response.in_progress", response=created)]
    async for item in stream:
        piece = item if isinstance(item, str) else item.tail
        if piece:
            if not text:
                events += _text_opened(event, message_id)
            text += piece
            events.append(
                event(
                    "response.output_text.delta",
                    item_id=message_id,
                    output_index=0,
                    content_index=0,
                    delta=piece,
                )
            )
        if not isinstance(item, str):
            events += [line async for line in _finish(event, item, model, message_id, text)]
        yield "".join(events)
        events = []
    if events:
        yield "".join(events)


def _text_opened(event: _Events, message_id: str) -> list[str]:
    """The message item and its text part, added empty."""
    part = {"type": "output_text", "text": "", "annotations": []}
    return [
        event("response.output_item.added", output_index=0, item=_message("", message_id, "in_progress")),
        event("response.content_part.added", item_id=message_id, output_index=0, content_index=0, part=part),
    ]


async def _call_item(event: _Events, index: int, item: dict[str, Any]) -> AsyncIterator[str]:
    """One call item: added empty, its whole input or arguments in one delta, done."""
    key, kind = (
        ("input", "custom_tool_call_input")
        if item["type"] == "custom_tool_call"
        else ("arguments", "function_call_arguments")
    )
    yield event(
        "response.output_item.added", output_index=index, item={**item, key: "", "status": "in_progress"}
    )
    where = {"item_id": item["id"], "output_index": index}
    yield event(f"response.{kind}.delta", **where, delta=item[key])
    yield event(f"response.{kind}.done", **where, **{key: item[key]})
    yield event("response.output_item.done", output_index=index, item=item)


async def _finish(
    event: _Events, outcome: Outcome, model: str, message_id: str, text: str
) -> AsyncIterator[str]:
    """The closing events: the text item done, each call as an item, `response.completed`."""
    output = _output(outcome, text, message_id)
    if text:
        where = {"item_id": message_id, "output_index": 0, "content_index": 0}
        yield event("response.output_text.done", **where, text=text)
        yield event("response.content_part.done", **where, part=output[0]["content"][0])
        yield event("response.output_item.done", output_index=0, item=output[0])
    for index, item in enumerate(output[1 if text else 0 :], start=1 if text else 0):
        async for line in _call_item(event, index, item):
            yield line
    status = "incomplete" if outcome.finish == "length" else "completed"
    final = _envelope(model, status, output, outcome, event.response_id)
    yield event("response.completed" if status == "completed" else "response.incomplete", response=final)
