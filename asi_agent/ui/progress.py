"""The progress line: on a terminal, stderr shows what is happening (loading the model, indexing, waiting
for the model, retrying, running a tool) and for how long, on one line redrawn in place.

It consumes two kinds of typed events: the agent's events (which say when a tool runs, how far it got,
and when the model is asked) and the `ProgressReported` events that backends and indexers send with
`report_progress`. It draws from its own thread, so the line keeps moving while the event loop waits on
a slow call; every other write to the terminal happens inside `cleared()`, so the line never mixes with
output.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr
from typing import Any, TextIO, cast

from asi_agent.events import (
    AgentEvent,
    ApprovalRequested,
    AssistantReplied,
    ProgressReported,
    RetryRequested,
    RunFinished,
    SessionStarted,
    StatusDecided,
    TextStreamed,
    ToolFinished,
    ToolProgress,
    ToolStarted,
)

__all__ = ["ProgressLine", "format_elapsed", "wants_progress"]

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
WAITING = "waiting for the model"


def wants_progress(stream: TextIO, output_format: str) -> bool:
    """Progress is drawn only for people: text output, and stderr is a terminal that can redraw a line."""
    return output_format == "text" and stream.isatty() and os.environ.get("TERM") != "dumb"


def format_elapsed(seconds: float) -> str:
    """`7s`, `1m05s`."""
    whole = int(seconds)
    return f"{whole}s" if whole < 60 else f"{whole // 60}m{whole % 60:02d}s"


class ProgressLine:
    """One redrawn line on `stream`; does nothing at all when not `enabled`."""

    def __init__(
        self,
        stream: TextIO,
        *,
        enabled: bool = True,
        interval: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream, self.enabled, self.interval, self.clock = stream, enabled, interval, clock
        self.activity: str | None = None
        self.detail = ""
        self.since = clock()
        self._drawn = False
        self._frame = 0
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Begin drawing (from a daemon thread)."""
        if self.enabled and self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="asi-progress", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop drawing and clear the line."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1)
            self._thread = None
        with self._lock:
            self._clear()

    def report(self, progress: ProgressReported) -> None:
        """The `ProgressSink` of backends and indexers (safe to call from any thread)."""
        self.set(progress.activity, progress.detail)

    def show(self, event: AgentEvent) -> None:
        """Follow the agent: what it does now. Streaming text and questions pause the line."""
        if isinstance(event, TextStreamed | ApprovalRequested | AssistantReplied | RunFinished):
            self.set(None)
        elif isinstance(event, ToolStarted):
            self.set(f"running {event.call.name}")
        elif isinstance(event, ToolProgress):  # the call's own report: its clock keeps running
            self.set(self.activity or "running", event.detail)
        elif isinstance(event, SessionStarted):
            self.set(WAITING, event.model)
        elif isinstance(event, ToolFinished | RetryRequested) or (
            isinstance(event, StatusDecided) and event.status == "CONTINUE"
        ):
            self.set(WAITING)

    def set(self, activity: str | None, detail: str = "") -> None:
        """Show `activity` (None: nothing, and clear the line now); its clock restarts when it changes."""
        with self._lock:
            if activity != self.activity:
                self.since = self.clock()
            self.activity, self.detail = activity, detail
            if activity is None:
                self._clear()

    @contextmanager
    def cleared(self) -> Iterator[None]:
        """Hold the line off the terminal while the caller writes; it comes back at the next tick."""
        with self._lock:
            self._clear()
            yield

    @contextmanager
    def guarding_stderr(self) -> Iterator[None]:
        """Clear the line before anything else writes to `sys.stderr` (notices, warnings, plugin output)."""
        if not self.enabled:
            yield
            return
        with redirect_stderr(cast(TextIO, _ClearingStream(self, sys.stderr))):
            yield

    def line(self) -> str | None:
        """The text of the line now, or None when there is nothing to show."""
        if self.activity is None:
            return None
        detail = f" ({self.detail})" if self.detail else ""
        elapsed = format_elapsed(self.clock() - self.since)
        return f"{FRAMES[self._frame % len(FRAMES)]} {self.activity}{detail} · {elapsed}"

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self._draw()

    def _draw(self) -> None:
        with self._lock:
            text = self.line()
            if text is None:
                return
            self._frame += 1
            width = shutil.get_terminal_size((80, 24)).columns
            if len(text) >= width:
                text = text[: max(width - 2, 10)] + "…"
            self.stream.write(f"\r{text}\x1b[K")
            self.stream.flush()
            self._drawn = True

    def _clear(self) -> None:
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False


class _ClearingStream:
    """Stands in for stderr while the line is shown: each write first takes the line off the terminal."""

    def __init__(self, progress: ProgressLine, stream: TextIO) -> None:
        self._progress, self._stream = progress, stream

    def write(self, text: str) -> int:
        with self._progress.cleared():
            written = self._stream.write(text)
            self._stream.flush()
            return written

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
