"""Leaving promptly while a blocking call still runs in a worker thread.

An in-process model generating a reply nobody will read (the turn was interrupted, the person quit), or a
plugin tool still working, must not hold the process: asyncio's default executor waits for its threads
when the loop closes, and the interpreter joins them again at exit.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["AbandoningExecutor", "abandon_threads_at_exit", "leave"]


class AbandoningExecutor(ThreadPoolExecutor):
    """The loop's executor: at the end, a blocking call still running is abandoned instead of waited for."""

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Never wait."""
        super().shutdown(wait=False, cancel_futures=True)


def abandon_threads_at_exit() -> None:
    """Make the running loop's `to_thread` calls use an `AbandoningExecutor`."""
    asyncio.get_running_loop().set_default_executor(AbandoningExecutor(thread_name_prefix="asi-worker"))


def leave(code: int) -> int:
    """`code`, or, when an abandoned worker thread would hold the process, exit at once with it."""
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)  # the transcript and journal are already on disk: each record is written at once
    return code
