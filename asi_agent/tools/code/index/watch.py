"""Which project files changed since the index last looked: file-system notifications (`watchfiles`).

A `ChangeFeed` watches the project in a daemon thread and collects the paths that changed; the code
tools `drain()` it before answering and re-index just those files, so a tool call never rescans the
project. When notifications are unavailable (no `watchfiles`, no inotify watches left, a filesystem
without notifications) or the feed overflowed, `drain()` answers None and the caller falls back to
rescanning by stat, as before.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from asi_agent.tools.ignore import ALWAYS_IGNORED

__all__ = ["MAX_PENDING", "ChangeFeed"]

MAX_PENDING = 5000
"""More changed paths than this between two drains: cheaper to rescan than to check them one by one."""
_DEBOUNCE_MS = 50


class ChangeFeed:
    """Paths changed under `root` since the last `drain()`, reported by the operating system."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._changed: set[Path] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._overflow = False
        self._alive = False
        self._thread: threading.Thread | None = None

    @classmethod
    def start(cls, root: Path) -> ChangeFeed | None:
        """A feed for `root` that starts watching in the background, or None without `watchfiles`.

        Setting the watches up takes a moment (a walk of the tree in the notifier); the caller's first
        full scan covers that time. A watcher that fails later makes `drain()` ask for rescans.
        """
        try:
            import watchfiles  # noqa: PLC0415 - only the code tools need it
        except ImportError:
            return None
        feed = cls(root)
        feed._thread = threading.Thread(
            target=feed._run, args=(watchfiles,), name="asi-index-watch", daemon=True
        )
        feed._alive = True
        feed._thread.start()
        return feed

    def wait_ready(self, timeout: float) -> bool:
        """Wait until the watches are set up (or the watcher failed); True when it is watching."""
        self._ready.wait(timeout)
        return self._alive

    def drain(self) -> set[Path] | None:
        """The paths changed since the last call (absolute), or None when the caller must rescan."""
        with self._lock:
            if not self._alive or self._overflow:
                self._overflow = False
                self._changed.clear()
                return None
            changed, self._changed = self._changed, set()
        return changed

    @property
    def alive(self) -> bool:
        """Whether notifications are still arriving (False after an error in the watcher)."""
        return self._alive

    def stop(self, *, wait: bool = True) -> None:
        """Stop watching; the thread ends within one polling step (waited for when `wait`)."""
        self._stop.set()
        if wait and self._thread is not None:
            self._thread.join(timeout=2.0)

    def _run(self, watchfiles: Any) -> None:
        try:
            changes = watchfiles.watch(
                self.root,
                watch_filter=self._keep,
                debounce=_DEBOUNCE_MS,
                step=_DEBOUNCE_MS,
                stop_event=self._stop,
                yield_on_timeout=True,
                rust_timeout=500,
                raise_interrupt=False,
                ignore_permission_denied=True,
            )
            for batch in changes:  # the first batch comes once the watches are set (or on timeout)
                self._ready.set()
                self._add(Path(path) for _change, path in batch)
        except (OSError, RuntimeError):
            pass  # e.g. the inotify watch limit: the caller falls back to rescans
        finally:
            self._alive = False
            self._ready.set()

    def _add(self, paths: Any) -> None:
        with self._lock:
            self._changed.update(paths)
            if len(self._changed) > MAX_PENDING:
                self._overflow = True
                self._changed.clear()

    def _keep(self, _change: object, path: str) -> bool:
        """Skip what the walker never indexes (version control, `.asi/`, caches, environments)."""
        rel = Path(path).relative_to(self.root) if path.startswith(str(self.root)) else Path(path)
        return not ALWAYS_IGNORED.intersection(rel.parts)
