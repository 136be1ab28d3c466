"""An upstream answer as a stream: visible text as it arrives, then the finished `Outcome`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from asi_agent.gateway.emulate import Outcome, Upstream
from asi_agent.gateway.normalize import ChatRequest

__all__ = ["answer_stream"]


async def answer_stream(upstream: Upstream, request: ChatRequest) -> AsyncIterator[str | Outcome]:
    """Text deltas (str) as the upstream streams them, then the `Outcome` (whose `tail` is the visible
    text held back at a possible call). Backends may stream from a worker thread: deltas cross into
    this loop through `call_soon_threadsafe`."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def on_text(delta: str) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, delta)

    task = asyncio.ensure_future(upstream.answer(request, on_text))
    task.add_done_callback(lambda _: loop.call_soon_threadsafe(queue.put_nowait, None))
    try:
        while (delta := await queue.get()) is not None:
            yield delta
        yield await task
    finally:
        if not task.done():  # the client went away: stop asking the upstream
            task.cancel()
