"""One model request, streamed: its text deltas become reasoning and text events while it runs."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator

from asi_agent.backends.base import Backend, ToolSchema
from asi_agent.backends.guide import TurnPlan
from asi_agent.calls.reasoning import ReasoningSplitter
from asi_agent.events import AgentEvent
from asi_agent.messages import Completion, Message

__all__ = ["streamed"]


async def streamed(
    backend: Backend, messages: list[Message], tools: list[ToolSchema] | None, plan: TurnPlan | None = None
) -> AsyncIterator[AgentEvent | Completion]:
    """Yield the reply's events as its text arrives, then the `Completion` (or raise the request's error).

    Closing the iterator early (an interrupted turn) cancels the request: the model stops generating.
    """
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    request = asyncio.ensure_future(backend.complete(messages, tools, on_delta=queue.put_nowait, plan=plan))
    request.add_done_callback(functools.partial(_end_of_stream, queue))
    splitter = ReasoningSplitter()
    try:
        while (delta := await queue.get()) is not None:
            for event in splitter.events(delta):
                yield event
    finally:
        request.cancel()
    for event in splitter.events(None):
        yield event
    yield request.result()


def _end_of_stream(queue: asyncio.Queue[str | None], _request: object) -> None:
    queue.put_nowait(None)
