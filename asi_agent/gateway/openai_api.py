"""Answers in the OpenAI Chat Completions format (checklist §8-§9): `message.tool_calls` with
`finish_reason = tool_calls`, and streams of `chat.completion.chunk`s ending in `[DONE]`.

In a stream, text deltas are the upstream's as they arrive; each call is synthesized once the reply has
ended and been parsed, as one tool-call delta carrying its id, name and complete arguments.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, AsyncIterator
from json.encoder import encode_basestring
from typing import Any

from asi_agent import jsonfast
from asi_agent.calls.jsonish import hex_id
from asi_agent.gateway.emulate import Outcome
from asi_agent.messages import ToolCall

__all__ = ["chat_chunks", "chat_completion", "error_body"]


def error_body(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    """An error in the OpenAI shape."""
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _tool_call(call: ToolCall, index: int | None = None) -> dict[str, Any]:
    encoded: dict[str, Any] = {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": jsonfast.dumps(call.arguments)},
    }
    return encoded if index is None else {"index": index, **encoded}


def _usage(outcome: Outcome) -> dict[str, int]:
    prompt, completion = outcome.usage.prompt_tokens, outcome.usage.completion_tokens
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def chat_completion(outcome: Outcome) -> dict[str, Any]:
    """A non-streamed `chat.completion`."""
    message: dict[str, Any] = {"role": "assistant", "content": outcome.text or None}
    if outcome.calls:
        message["tool_calls"] = [_tool_call(call) for call in outcome.calls]
    return {
        "id": f"chatcmpl-{hex_id(24)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": outcome.model,
        "choices": [{"index": 0, "message": message, "finish_reason": outcome.finish, "logprobs": None}],
        "usage": _usage(outcome),
    }


def _sse(data: dict[str, Any] | str) -> str:
    return f"data: {data if isinstance(data, str) else jsonfast.compact_text(data)}\n\n"


async def chat_chunks(stream: AsyncIterator[str | Outcome], model: str) -> AsyncGenerator[str, None]:
    """A Chat Completions event stream from an upstream answer stream."""
    base: dict[str, Any] = {"id": f"chatcmpl-{hex_id(24)}", "object": "chat.completion.chunk"}
    base |= {"created": int(time.time()), "model": model}

    def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> str:
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
        return _sse({**base, "choices": [choice], **extra})

    # A text chunk is what `chunk({"content": text})` gives, its fixed parts encoded once per stream.
    fixed = jsonfast.compact_text(base)[:-1]
    opening = f'data: {fixed},"choices":[{{"index":0,"delta":{{"content":'
    closing = '},"finish_reason":null,"logprobs":null}]}\n\n'
    # One write per upstream piece: the opening chunk goes with the first, the closing ones together.
    head = chunk({"role": "assistant", "content": ""})
    async for item in stream:
        if isinstance(item, str):
            yield head + opening + encode_basestring(item) + closing
            head = ""
            continue
        events = [head, chunk({"content": item.tail})] if item.tail else [head]
        events += [chunk({"tool_calls": [_tool_call(call, index)]}) for index, call in enumerate(item.calls)]
        events.append(chunk({}, item.finish, usage=_usage(item)))
        # The outcome is the last item: `[DONE]` goes in the same write, which ends the body.
        yield "".join([*events, _sse("[DONE]")])
        return
    yield head + _sse("[DONE]")
