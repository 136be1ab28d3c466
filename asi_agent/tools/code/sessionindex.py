"""The code index of one session: opened on first use, kept in `ctx.state`, brought up to date per call.

Before a code tool answers, the index is refreshed without rescanning the project: file-system
notifications (`index.watch`) say which files changed since the last call, and the files this session
read or wrote are checked too, so the agent's own edits are seen at once. Where notifications are
unavailable, the whole project is rescanned when the last scan is older than `RESCAN_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from asi_agent.exceptions import ToolError
from asi_agent.state import ensure_state_dir
from asi_agent.tools.base import ToolContext
from asi_agent.tools.code.index.store import BUSY_TIMEOUT_MS, CodeIndex
from asi_agent.tools.code.index.watch import ChangeFeed

__all__ = ["RESCAN_SECONDS", "IndexSession", "indexed_session", "open_index"]

RESCAN_SECONDS = 2.0
"""How old the last full scan may be before a tool call rescans the whole project."""

_T = TypeVar("_T")


@dataclass
class IndexSession:
    """The open index of one session and when it was last fully scanned."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    index: CodeIndex | None = None
    feed: ChangeFeed | None = None
    scanned_at: float = float("-inf")

    async def run(self, function: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run `function` on the index connection in a worker thread."""
        index = self.index
        assert index is not None, "open_index() first"

        def locked() -> _T:
            with index.lock, _busy_is_an_error(index):
                return function(index.conn)

        return await asyncio.to_thread(locked)


@contextlib.contextmanager
def _busy_is_an_error(index: CodeIndex | Path) -> Iterator[None]:
    """SQLite's "database is locked" after the busy timeout, said as what it is and what to do."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        if "locked" not in str(exc) and "busy" not in str(exc):
            raise
        where = index.db_path if isinstance(index, CodeIndex) else index
        raise ToolError(
            f"the code index ({where.name} in {where.parent}) stayed locked by another asi-agent process "
            f"for {BUSY_TIMEOUT_MS // 1000} s; try again when it has finished, or use grep_search meanwhile"
        ) from exc


async def open_index(ctx: ToolContext) -> CodeIndex:
    """The session's code index, created on first use and brought up to date (see the module docstring)."""
    session = ctx.state.setdefault(__name__, IndexSession())
    async with session.lock:
        if session.index is None:
            db_path = ensure_state_dir(ctx.state_dir, "index") / "code.db"
            with _busy_is_an_error(db_path):
                session.index = await asyncio.to_thread(CodeIndex, ctx.root, db_path)
            session.feed = ChangeFeed.start(session.index.root)
            ctx.cleanups.append(functools.partial(asyncio.to_thread, _close, session))
        index: CodeIndex = session.index
        changed = session.feed.drain() if session.feed is not None else None
        never_scanned = session.scanned_at == float("-inf")
        with _busy_is_an_error(index):
            if never_scanned or (changed is None and time.monotonic() - session.scanned_at > RESCAN_SECONDS):
                await asyncio.to_thread(index.update)
                session.scanned_at = time.monotonic()
            else:
                cursor = [ctx.last_location[0]] if ctx.last_location else []
                touched = {*(changed or ()), *ctx.stamps, *cursor}
                if touched:
                    await asyncio.to_thread(index.update, touched)
    return index


def _close(session: IndexSession) -> None:
    if session.feed is not None:
        # Its daemon thread touches nothing but the feed: waiting out its polling step (up to 50 ms)
        # would only delay the end of the run after the result was shown.
        session.feed.stop(wait=False)
    if session.index is not None:
        session.index.close()


async def indexed_session(ctx: ToolContext) -> IndexSession:
    """The session's index, opened and brought up to date (`open_index`), with its lock and worker."""
    await open_index(ctx)
    session: IndexSession = ctx.state[__name__]
    return session
