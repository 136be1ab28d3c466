"""The project's `.asi/` folder: created on first use, with a `.gitignore` of `*` so git never shows it.

Several asi-agent processes may share one project (a chat beside a headless run, `eval --jobs`), so
what they write here is safe to do at once: files are created exclusively, and records are appended
in one `write` to a file opened with O_APPEND, so two processes' lines never mix.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from pathlib import Path

__all__ = ["append_line", "ensure_state_dir", "lock_within"]


def ensure_state_dir(state_dir: Path, *parts: str) -> Path:
    """Create `state_dir` (ignored by git) and the folder `parts` below it; return that folder."""
    state_dir.mkdir(parents=True, exist_ok=True)
    ignore = state_dir / ".gitignore"
    if not ignore.exists():
        # Created whole or not at all: another process never sees an empty one.
        with contextlib.suppress(FileExistsError):
            fd = os.open(ignore, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                os.write(fd, b"*\n")
            finally:
                os.close(fd)
    folder = state_dir.joinpath(*parts)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def append_line(path: Path, line: str) -> None:
    """Append `line` (a newline is added) in a single write, so concurrent appenders never interleave."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        data = (line + "\n").encode("utf-8")
        written = os.write(fd, data)
        while written < len(data):  # only on a full disk or a signal; the rest follows at once
            written += os.write(fd, data[written:])
    finally:
        os.close(fd)


def lock_within(fd: int, seconds: float) -> bool:
    """Take an exclusive `flock` on `fd`, trying for at most `seconds`; False when another process still
    holds it then (every asi-agent process honours these locks, and none waits on one forever)."""
    deadline = time.monotonic() + seconds
    delay = 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(delay)
            delay = min(delay * 2, 0.005)
