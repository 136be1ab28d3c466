"""The journal's files under the state folder's `journal/`: the append-only `entries.jsonl` (entries, and
the markers that settle a pending one), the content-addressed blobs and the lock file. Read and written
here; what a change is, write-ahead settling and undo are `journal.Journal`'s."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from asi_agent.exceptions import UserError
from asi_agent.state import ensure_state_dir, lock_within
from asi_agent.tools.files.journal_format import (
    ABORTED,
    JournalEntry,
    ends_with_newline,
    parse_entry,
    parse_marker,
)
from asi_agent.tools.files.textio import write_atomic

__all__ = ["LOCK_WAIT", "JournalBusyError", "JournalFiles", "JournalScan"]

LOCK_WAIT = 30.0
"""Seconds a process waits for the journal's lock before it gives up and says who holds it."""


class JournalBusyError(UserError):
    """Another process held the journal's lock for longer than `LOCK_WAIT`."""


class JournalFiles:
    """The files of one project's journal, under `state_dir/journal`."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.dir = state_dir / "journal"
        self.entries_file = self.dir / "entries.jsonl"
        self.blobs = self.dir / "blobs"

    def ensure_dirs(self) -> None:
        """Create the state folder (ignored by git) and the journal folders on first use."""
        ensure_state_dir(self.state_dir)
        self.blobs.mkdir(parents=True, exist_ok=True)

    def store(self, data: bytes) -> str:
        """Save content under its sha256 (once) and return the hash."""
        self.ensure_dirs()
        sha = hashlib.sha256(data).hexdigest()
        target = self.blobs / sha
        if not target.exists():
            write_atomic(target, data, 0o644)
        return sha

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the journal's lock file exclusively (between threads and processes alike)."""
        self.ensure_dirs()
        fd = os.open(self.dir / "lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            self._acquire(fd)
            yield
        finally:
            os.close(fd)

    def _acquire(self, fd: int) -> None:
        """Take the lock on `fd`, waiting at most `LOCK_WAIT` seconds; the holder's pid is written in it."""
        if not lock_within(fd, LOCK_WAIT):
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            raise JournalBusyError(
                f"another asi-agent process (pid {holder}) has held the change journal "
                f"({self.dir / 'lock'}) for more than {LOCK_WAIT:.0f} s; nothing was written. "
                "Wait for it to finish, or stop it if it hangs, and try again"
            )
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)

    def append_marker(self, marker: dict[str, int | None]) -> None:
        """Append a commit or abort line for a pending entry."""
        self._append_line(json.dumps(marker, separators=(",", ":")) + "\n")

    def append(self, entry: JournalEntry) -> None:
        """Append one entry as a JSON line (the `pending` key only while it is pending)."""
        data = asdict(entry)
        if not entry.pending:
            del data["pending"]
        self._append_line(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")

    def _append_line(self, line: str) -> None:
        """Append one line in a single write (O_APPEND), repairing a torn last line first."""
        fd = os.open(self.entries_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            if not ends_with_newline(self.entries_file):
                line = "\n" + line
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)

    def tail_seq(self) -> int:
        """The seq of the last readable line, reading only the end of the file."""
        try:
            with self.entries_file.open("rb") as handle:
                size = handle.seek(0, os.SEEK_END)
                handle.seek(max(0, size - 65536))
                tail = handle.read()
        except FileNotFoundError:
            return 0
        for raw in reversed(tail.splitlines()):
            entry = parse_entry(raw)
            if entry is not None:
                return entry.seq
        # The tail held no whole line (only possible with absurdly long paths): read everything.
        everything = self.read_all()
        return everything[-1].seq if everything else 0

    def read_all(self) -> list[JournalEntry]:
        """Every committed entry, oldest first; a torn or foreign line is skipped, not fatal."""
        return self.scan().committed

    def scan(self) -> JournalScan:
        """The journal file read once: committed entries, and pending ones nothing settled yet."""
        try:
            data = self.entries_file.read_bytes()
        except FileNotFoundError:
            return JournalScan([], [])
        entries: list[JournalEntry] = []
        settled: dict[int, int | None] = {}  # seq -> final mode (committed) ; aborted seqs map to -1
        for raw in data.splitlines():
            entry = parse_entry(raw)
            if entry is not None:
                entries.append(entry)
            elif (marker := parse_marker(raw)) is not None:
                settled[marker[0]] = marker[1]
        committed: list[JournalEntry] = []
        unsettled: list[JournalEntry] = []
        for entry in entries:
            if not entry.pending:
                committed.append(entry)
            elif entry.seq not in settled:
                unsettled.append(entry)
            elif settled[entry.seq] != ABORTED:
                committed.append(replace(entry, pending=False, mode=settled[entry.seq]))
        return JournalScan(committed, unsettled)

    def blob_or_none(self, sha: str) -> bytes | None:
        """The content stored under `sha`, or None when it is missing."""
        try:
            return (self.blobs / sha).read_bytes()
        except FileNotFoundError:
            return None


@dataclass(frozen=True, slots=True)
class JournalScan:
    """The journal file read once: committed entries, oldest first, and pending ones nothing settled."""

    committed: list[JournalEntry]
    unsettled: list[JournalEntry]
