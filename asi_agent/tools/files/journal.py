"""The change journal: every write a tool makes, with the content before and after, so it can be undone.

Layout under the project's state folder (`.asi/`)::

    journal/entries.jsonl     one JSON object per change, append-only, `seq` increasing
    journal/blobs/<sha256>    file contents, stored once each, so big files are never inlined
    journal/lock              taken (fcntl) while appending or undoing, by any process

An undo is itself a journal entry (tool "undo", `reverts` = the seq it reverted), so the history stays
complete and an undone change is never undone twice.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import stat
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from asi_agent.exceptions import ModelFixableError, UserError
from asi_agent.state import ensure_state_dir
from asi_agent.tools.files.textio import write_atomic
from asi_agent.tools.paths import display_path, resolve_in_project

USER_PROMPT = ".asi/USER_PROMPT.md"
"""The project's user prompt, edited by `moss_update_asi_user_prompt`."""

__all__ = ["Journal", "JournalEntry", "move_to_trash"]

Kind = Literal["created", "modified", "deleted"]


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One recorded change. `before` None means the file was created, `after` None that it was deleted."""

    seq: int
    time: str
    path: str
    tool: str
    session_id: str
    before: str | None
    after: str | None
    mode: int | None = None
    reverts: int | None = None

    @property
    def kind(self) -> Kind:
        """Whether the change created, modified or deleted the file."""
        if self.before is None:
            return "created"
        return "deleted" if self.after is None else "modified"


class Journal:
    """The append-only journal of one project, stored in `state_dir` (normally `<project>/.asi`)."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self._dir = state_dir / "journal"
        self._entries_file = self._dir / "entries.jsonl"
        self._blobs = self._dir / "blobs"

    def record(
        self,
        path: str,
        before: bytes | None,
        after: bytes | None,
        *,
        tool: str,
        session_id: str,
        mode: int | None = None,
        reverts: int | None = None,
    ) -> JournalEntry:
        """Append one change (`path` relative to the project root) and return its entry."""
        with self._locked():
            entry = replace(
                self._new_entry(path, before, after, tool=tool, session_id=session_id, mode=mode),
                reverts=reverts,
            )
            self._append(entry)
        return entry

    def entries(self, path: str | None = None, limit: int | None = None) -> list[JournalEntry]:
        """Recorded changes, newest first, optionally only those of `path` and at most `limit`."""
        found = [entry for entry in reversed(self._read_all()) if path is None or entry.path == path]
        return found if limit is None else found[: max(limit, 0)]

    def last_seq(self) -> int:
        """The seq of the newest entry, 0 when nothing was recorded."""
        return self._tail_seq()

    def since(self, seq: int) -> list[JournalEntry]:
        """Entries recorded after `seq`, oldest first (what changed during a run)."""
        return [entry for entry in self._read_all() if entry.seq > seq]

    def blob(self, sha: str) -> bytes:
        """The content stored under `sha`."""
        try:
            return (self._blobs / sha).read_bytes()
        except FileNotFoundError as exc:
            raise UserError(f"the journal is missing content {sha[:12]}; {self._dir} is damaged") from exc

    def undoable(self) -> list[JournalEntry]:
        """Changes that can still be undone, newest first: not undo records, not already undone."""
        everything = self._read_all()
        undone = {entry.reverts for entry in everything if entry.reverts is not None}
        return [e for e in reversed(everything) if e.reverts is None and e.seq not in undone]

    def undo(self, root: Path, n: int = 1) -> list[JournalEntry]:
        """Revert the last `n` undoable changes, newest first; returns the entries that were reverted.

        Every file is checked before anything is written: if one no longer holds what its change
        wrote, UserError is raised and nothing is reverted.
        """
        with self._locked():
            targets = self.undoable()[: max(n, 0)]
            paths = self._check_undo(root, targets)
            for entry in targets:
                self._revert(root, paths[entry.path], entry)
        return targets

    # -- undo helpers ---------------------------------------------------------------------------

    def _check_undo(self, root: Path, targets: list[JournalEntry]) -> dict[str, Path]:
        """Resolve each target's file and verify that the disk matches what the change left there."""
        paths: dict[str, Path] = {}
        expected: dict[str, bytes | None] = {}
        for entry in targets:
            if entry.path not in paths:
                paths[entry.path] = self._resolve(root, entry.path)
                expected[entry.path] = _read_or_none(paths[entry.path])
            want = None if entry.after is None else self.blob(entry.after)
            if expected[entry.path] != want:
                raise UserError(
                    f"{entry.path} changed since change #{entry.seq} ({entry.tool}, {entry.time}) was made; "
                    "nothing was reverted. Restore or save that file's current content first, "
                    "or leave this change in place"
                )
            # Later (older) targets on the same file must match what this revert will leave.
            expected[entry.path] = None if entry.before is None else self.blob(entry.before)
        return paths

    def _revert(self, root: Path, target: Path, entry: JournalEntry) -> None:
        """Put back the content from before `entry` and record that as an undo entry."""
        current = _read_or_none(target)
        mode = _mode_or_none(target)
        if entry.before is None:
            move_to_trash(root, target)
            restored = None
        else:
            restored = self.blob(entry.before)
            target.parent.mkdir(parents=True, exist_ok=True)
            mode = mode if mode is not None else entry.mode
            write_atomic(target, restored, mode)
        undo = self._new_entry(entry.path, current, restored, tool="undo", session_id="", mode=mode)
        self._append(replace(undo, reverts=entry.seq))

    @staticmethod
    def _resolve(root: Path, path: str) -> Path:
        """The file an entry names, refused if it now lies outside the project (e.g. via a new link)."""
        if path == USER_PROMPT:  # the one file in .asi/ that a tool changes, so it must be undoable
            return root.resolve() / path
        try:
            return resolve_in_project(root, path, write=True)
        except ModelFixableError as exc:
            raise UserError(f"cannot undo the change of {path}: {exc}") from exc

    def _new_entry(
        self,
        path: str,
        before: bytes | None,
        after: bytes | None,
        *,
        tool: str,
        session_id: str,
        mode: int | None,
    ) -> JournalEntry:
        """Store the contents and build the next entry; the caller holds the lock and appends it."""
        return JournalEntry(
            seq=self._tail_seq() + 1,
            time=datetime.now(UTC).isoformat(timespec="microseconds"),
            path=path,
            tool=tool,
            session_id=session_id,
            before=None if before is None else self._store(before),
            after=None if after is None else self._store(after),
            mode=mode,
        )

    # -- storage --------------------------------------------------------------------------------

    def _ensure_dirs(self) -> None:
        """Create the state folder (ignored by git) and the journal folders on first use."""
        ensure_state_dir(self.state_dir)
        self._blobs.mkdir(parents=True, exist_ok=True)

    def _store(self, data: bytes) -> str:
        """Save content under its sha256 (once) and return the hash."""
        self._ensure_dirs()
        sha = hashlib.sha256(data).hexdigest()
        target = self._blobs / sha
        if not target.exists():
            write_atomic(target, data, 0o644)
        return sha

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the journal's lock file exclusively (between threads and processes alike)."""
        self._ensure_dirs()
        fd = os.open(self._dir / "lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _append(self, entry: JournalEntry) -> None:
        """Append one JSON line in a single write (O_APPEND), repairing a torn last line first."""
        line = json.dumps(asdict(entry), ensure_ascii=False, separators=(",", ":")) + "\n"
        fd = os.open(self._entries_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            if not _ends_with_newline(self._entries_file):
                line = "\n" + line
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)

    def _tail_seq(self) -> int:
        """The seq of the last readable line, reading only the end of the file."""
        try:
            with self._entries_file.open("rb") as handle:
                size = handle.seek(0, os.SEEK_END)
                handle.seek(max(0, size - 65536))
                tail = handle.read()
        except FileNotFoundError:
            return 0
        for raw in reversed(tail.splitlines()):
            entry = _parse(raw)
            if entry is not None:
                return entry.seq
        # The tail held no whole line (only possible with absurdly long paths): read everything.
        everything = self._read_all()
        return everything[-1].seq if everything else 0

    def _read_all(self) -> list[JournalEntry]:
        """Every valid entry, oldest first; a torn or foreign line is skipped, not fatal."""
        try:
            data = self._entries_file.read_bytes()
        except FileNotFoundError:
            return []
        return [entry for raw in data.splitlines() if (entry := _parse(raw)) is not None]


def move_to_trash(root: Path, path: Path) -> Path:
    """Move a file to `.asi/trash/<YYYYmmdd-HHMMSS-ffffff>/<relative path>` and return where it went."""
    rel = display_path(root, path)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    dest = root / ".asi" / "trash" / stamp / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    # shutil.move falls back to copy + delete when .asi lives on another filesystem.
    shutil.move(os.fspath(path), os.fspath(dest))
    return dest


def _parse(raw: bytes) -> JournalEntry | None:
    """One journal line as an entry, or None when it is not one (torn write, blank line)."""
    try:
        data: Any = json.loads(raw)
        return JournalEntry(**data) if isinstance(data, dict) else None
    except (ValueError, TypeError):
        return None


def _ends_with_newline(path: Path) -> bool:
    """True when the file is empty or its last byte is a newline."""
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            return True
        handle.seek(size - 1)
        return handle.read(1) == b"\n"


def _read_or_none(path: Path) -> bytes | None:
    """A file's bytes, or None when it does not exist."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _mode_or_none(path: Path) -> int | None:
    """A file's permission bits, or None when it does not exist."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return None
