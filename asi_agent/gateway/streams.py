"""An upstream answer as a stream: visible text as it arrives, then the finished `Outcome`."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncGenerator

from asi_agent.gateway.emulate import Outcome, Upstream
from asi_agent.gateway.normalize import ChatRequest

__all__ = ["answer_stream"]


async def answer_stream(upstream: Upstream, request: ChatRequest) -> AsyncGenerator[str | Outcome, None]:
    """Text deltas (str) as the upstream streams them, then the `Outcome` (whose `tail` is the visible
    text held back at a possible call). Backends may stream from a worker thread (the in-process model):
    their deltas cross into this loop through `call_soon_threadsafe`."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    here = threading.get_ident()

    def on_text(delta: str) -> None:
        # From this loop's own thread (an HTTP upstream), directly: waking the loop from another thread
        # costs a system call per delta.
        if threading.get_ident() == here:
            queue.put_nowait(delta)
        else:
            loop.call_soon_threadsafe(queue.put_nowait, delta)

    task = asyncio.ensure_future(upstream.answer(request, on_text))
    task.add_done_callback(lambda _: queue.put_nowait(None))  # done callbacks run in the loop's thread
    try:
        while (delta := await queue.get()) is not None:
            yield delta
        yield await task
    finally:
        if not task.done():  # the client went away: stop asking the upstream
            task.cancel()
