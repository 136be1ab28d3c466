"""A served call's progress, sent to the MCP client as `notifications/progress`.

A client that passes a progress token (`_meta.progressToken`) with its `tools/call` hears the call's
progress as it runs: a command's elapsed seconds and lines of output, an MCP tool's own progress when it
is proxied from another server. The tools report through the call's progress sink, which is synchronous;
the forwarder queues the reports and one task sends them in order, all of them before the call's result.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from asi_agent.events import tool_progress_sink

__all__ = ["forwarded_progress", "wants_progress"]

log = logging.getLogger("asi_agent.mcpserve")

_Report = tuple[float, float | None, str]


def wants_progress(meta: Any) -> bool:
    """Whether the request's `_meta` carries a progress token."""
    if meta is None:
        return False
    token = meta.get("progress_token") if isinstance(meta, dict) else getattr(meta, "progress_token", None)
    return token is not None


class _Forwarder:
    """The call's progress sink: reports queued on the event loop, sent by `send` one after another."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.queue: asyncio.Queue[_Report | None] = asyncio.Queue()

    def __call__(self, progress: float, total: float | None, message: str) -> None:
        self.queue.put_nowait((progress, total, message))

    async def send(self) -> None:
        """Send the queued reports until the end mark; a failed send is logged, the call goes on."""
        while (report := await self.queue.get()) is not None:
            progress, total, message = report
            try:
                await self.session.report_progress(progress, total, message or None)
            except Exception as exc:  # the client went away or refused it: progress is never worth a failure
                log.warning("progress not sent: %s", exc)


@contextlib.asynccontextmanager
async def forwarded_progress(session: Any, meta: Any) -> AsyncIterator[None]:
    """Within this context, the running call's progress goes to the client as `notifications/progress`
    (only when the request asked for it, by a progress token); on leaving, every report is sent."""
    if not wants_progress(meta):
        yield
        return
    forwarder = _Forwarder(session)
    sender = asyncio.ensure_future(forwarder.send())
    try:
        with tool_progress_sink(forwarder):
            yield
    finally:
        forwarder.queue.put_nowait(None)
        await sender
