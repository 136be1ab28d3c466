"""The change journal: every write a tool makes, with the content before and after, so it can be undone.

Layout under the project's state folder (`.asi/`)::

    journal/entries.jsonl     one JSON object per change, append-only, `seq` increasing
    journal/blobs/<sha256>    file contents, stored once each, so big files are never inlined
    journal/lock              taken (fcntl) while a change is checked and made, or undone, by any process

Every write of every asi-agent process in the project goes through `change()`, which holds the lock
while it checks that the file still holds what the caller read (`before`) and replaces it. Two
processes (two agents, a chat and a headless run, `eval --jobs`) can therefore never both write on the
same base: the second one gets `StaleFileError` (what changed, nothing written, no entry) instead of
silently overwriting the first one's edit. Sequence numbers are taken under the same lock, so the
journal is one ordered history across processes, and `undo` of any interleaving is exact. A lock that
another process holds for longer than `LOCK_WAIT` seconds is reported (`JournalBusyError`), never waited
on forever.

An undo is itself a journal entry (tool "undo", `reverts` = the seq it reverted), so the history stays
complete and an undone change is never undone twice.

Changes are write-ahead: `change()` appends the entry marked `pending` (both contents already stored)
before the file is touched, and a `{"commit": seq}` line after it; a failed write gets `{"abort": seq}`.
A process killed in between leaves a pending entry that the next process settles before doing anything
else (`recover`): the disk shows whether the change happened (committed) or not (aborted), and the
temporary files of the interrupted write are deleted. Only committed entries are history.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from asi_agent.exceptions import ModelFixableError, ToolError, UserError
from asi_agent.tools import beneath
from asi_agent.tools.beneath import Anchored, LinkOnPathError, anchor
from asi_agent.tools.files.journal_file import JournalFiles
from asi_agent.tools.files.journal_format import JournalEntry, mode_or_none, move_to_trash, read_or_none
from asi_agent.tools.files.textio import decode, is_binary, unified_diff
from asi_agent.tools.paths import resolve_in_project

USER_PROMPT = ".asi/USER_PROMPT.md"
"""The project's user prompt, edited by `moss_update_asi_user_prompt`."""

__all__ = [
    "ChangeInProgress",
    "Journal",
    "JournalEntry",
    "RecoveryReport",
    "StaleFileError",
    "move_to_trash",
]

_STALE_DIFF_LINES = 40
_T = TypeVar("_T")


class StaleFileError(ToolError):
    """The file is no longer what the change was computed from: another process wrote it in between."""

    def __init__(self, path: str, expected: bytes | None, found: bytes | None) -> None:
        self.path, self.expected, self.found = path, expected, found
        super().__init__(_stale_message(path, expected, found))


@dataclass(slots=True)
class ChangeInProgress:
    """The entry of a change being made; `entry` is the committed entry once the change is done."""

    entry: JournalEntry


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """What `Journal.recover` found: interrupted changes completed or rolled back, temp files removed."""

    committed: tuple[int, ...] = ()
    aborted: tuple[int, ...] = ()
    removed: tuple[Path, ...] = ()


class Journal:
    """The append-only journal of one project, stored in `state_dir` (normally `<project>/.asi`)."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self._files = JournalFiles(state_dir)
        self._recovered = False
        self._last_recovery = RecoveryReport()

    @contextlib.contextmanager
    def change(
        self,
        target: Path | Anchored,
        path: str,
        before: bytes | None,
        after: bytes | None,
        *,
        tool: str,
        session_id: str,
        mode: int | None = None,
        checked: bool = True,
    ) -> Iterator[ChangeInProgress]:
        """Journal a change write-ahead around the block that makes it (writing or trashing `target`).

        Under the lock, `target` must still hold `before` (what the caller read and computed the change
        from); when another process or person wrote it since, StaleFileError says what changed and
        nothing is written or journaled. The pending entry is durable before the block runs; afterwards
        the disk decides: holding `after`, the change is committed (with the file's final mode); else
        it is aborted. `checked` False skips the check, for a change computed from an editor's unsaved
        buffer rather than from the disk (the editor holds that file's truth).

        `target` is walked beneath its base with no link followed (`beneath`); a plain path is taken
        beneath the project root. The block makes the change through `beneath` too.
        """
        target = self._anchored(target)
        with self._locked():
            found = read_or_none(target)
            if checked and found != before:
                raise StaleFileError(path, before, found)
            with self._change(
                target, path, before, after, tool=tool, session_id=session_id, mode=mode
            ) as cip:
                yield cip

    def recover(self) -> RecoveryReport:
        """Settle the changes a killed process left pending and delete their temporary files."""
        fresh = not self._recovered
        with self._locked():
            return self._last_recovery if fresh else self._recover_locked()

    @contextlib.contextmanager
    def _change(
        self,
        target: Anchored,
        path: str,
        before: bytes | None,
        after: bytes | None,
        *,
        tool: str,
        session_id: str,
        mode: int | None,
        reverts: int | None = None,
    ) -> Iterator[ChangeInProgress]:
        """`change` for a caller that already holds the lock."""
        entry = replace(
            self._new_entry(path, before, after, tool=tool, session_id=session_id, mode=mode),
            reverts=reverts,
            pending=True,
        )
        self._files.append(entry)
        cip = ChangeInProgress(entry)
        try:
            yield cip
        except BaseException:
            self._settle(entry, target)
            raise
        cip.entry = self._commit(entry, target)

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
            self._files.append(entry)
        return entry

    def entries(self, path: str | None = None, limit: int | None = None) -> list[JournalEntry]:
        """Recorded changes, newest first, optionally only those of `path` and at most `limit`."""
        found = [entry for entry in reversed(self._files.read_all()) if path is None or entry.path == path]
        return found if limit is None else found[: max(limit, 0)]

    def last_seq(self) -> int:
        """The seq of the newest entry, 0 when nothing was recorded."""
        return self._files.tail_seq()

    def since(self, seq: int) -> list[JournalEntry]:
        """Entries recorded after `seq`, oldest first (what changed during a run)."""
        return [entry for entry in self._files.read_all() if entry.seq > seq]

    def blob(self, sha: str) -> bytes:
        """The content stored under `sha`."""
        try:
            return (self._files.blobs / sha).read_bytes()
        except FileNotFoundError as exc:
            damaged = self._files.dir
            raise UserError(f"the journal is missing content {sha[:12]}; {damaged} is damaged") from exc

    def undoable(self) -> list[JournalEntry]:
        """Changes that can still be undone, newest first: not undo records, not already undone."""
        everything = self._files.read_all()
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

    def undo_entries(self, root: Path, chosen: list[JournalEntry]) -> list[JournalEntry]:
        """Revert exactly these changes, newest first (e.g. only one session's); returns them.

        A change that was undone meanwhile (by another process) is left out; the rest are checked as
        `undo` checks them, so a file changed since raises UserError and nothing is reverted.
        """
        with self._locked():
            still = {entry.seq for entry in self.undoable()}
            targets = sorted((e for e in chosen if e.seq in still), key=lambda e: e.seq, reverse=True)
            paths = self._check_undo(root, targets)
            for entry in targets:
                self._revert(root, paths[entry.path], entry)
        return targets

    # -- undo helpers ---------------------------------------------------------------------------

    def _check_undo(self, root: Path, targets: list[JournalEntry]) -> dict[str, Anchored]:
        """Resolve each target's file and verify that the disk matches what the change left there."""
        paths: dict[str, Anchored] = {}
        expected: dict[str, bytes | None] = {}
        for entry in targets:
            if entry.path not in paths:
                paths[entry.path] = self._resolve(root, entry.path)
                expected[entry.path] = _for_undo(entry.path, read_or_none, paths[entry.path])
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

    def _revert(self, root: Path, target: Anchored, entry: JournalEntry) -> None:
        """Put back the content from before `entry`, journaled (write-ahead) as an undo entry."""
        current = _for_undo(entry.path, read_or_none, target)
        mode = mode_or_none(target)
        restored = None if entry.before is None else self.blob(entry.before)
        mode = mode if mode is not None or restored is None else entry.mode
        with self._change(
            target, entry.path, current, restored, tool="undo", session_id="", mode=mode, reverts=entry.seq
        ):
            if restored is None:
                _for_undo(entry.path, lambda where: move_to_trash(root, where), target)
            else:
                _for_undo(entry.path, lambda where: beneath.write_atomic(where, restored, mode), target)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the journal's lock (`JournalFiles.locked`).

        The first time in this object, changes a killed process left pending are settled first, so
        nothing is ever recorded or undone on top of an unsettled change.
        """
        with self._files.locked():
            if not self._recovered:
                self._last_recovery = self._recover_locked()
                self._recovered = True
            yield

    # -- write-ahead settling -------------------------------------------------------------------

    def _commit(self, entry: JournalEntry, target: Anchored) -> JournalEntry:
        """Mark `entry` done, with the mode the file ended up with; returns the committed entry."""
        mode = mode_or_none(target) if entry.after is not None else entry.mode
        self._files.append_marker({"commit": entry.seq, "mode": mode})
        return replace(entry, pending=False, mode=mode)

    def _settle(self, entry: JournalEntry, target: Anchored) -> bool:
        """Commit or abort a pending entry by what the disk holds; True when it is committed."""
        beneath.remove_write_temps(target)
        after = None if entry.after is None else self._files.blob_or_none(entry.after)
        try:
            disk = read_or_none(target)
        except (LinkOnPathError, OSError):
            return self._abort(entry)  # a link (or a folder) now in its place: the change did not land
        if disk == after and (entry.after is None or after is not None):
            self._commit(entry, target)
            return True
        return self._abort(entry)

    def _abort(self, entry: JournalEntry) -> bool:
        """Mark a pending entry as not made; False, for `_settle`."""
        self._files.append_marker({"abort": entry.seq})
        return False

    def _recover_locked(self) -> RecoveryReport:
        """Settle every unmarked pending entry; the caller holds the lock."""
        committed: list[int] = []
        aborted: list[int] = []
        removed: list[Path] = []
        root = self.state_dir.parent
        for entry in self._files.scan().unsettled:
            try:
                target = self._anchored(root / entry.path)  # an absolute path stays as it is
            except ToolError:  # `..` or an empty name: no change of ours has one
                target = None
            if target is None or target.base not in (root, root.resolve()):
                # Outside the project (or planted in a cloned `.asi/`): nothing there is read or cleaned up.
                self._abort(entry)
                aborted.append(entry.seq)
                continue
            removed += beneath.remove_write_temps(target)
            (committed if self._settle(entry, target) else aborted).append(entry.seq)
        for leftover in self._files.blobs.glob(".*.tmp"):
            leftover.unlink(missing_ok=True)
            removed.append(leftover)
        return RecoveryReport(tuple(committed), tuple(aborted), tuple(removed))

    @staticmethod
    def _resolve(root: Path, path: str) -> Anchored:
        """The file an entry names, refused if it now lies outside the project (e.g. via a new link)."""
        if path == USER_PROMPT:  # the one file in .asi/ that a tool changes, so it must be undoable
            return Anchored(root.resolve(), tuple(path.split("/")))
        try:
            return anchor(resolve_in_project(root, path, write=True), (root,))
        except ModelFixableError as exc:
            raise UserError(f"cannot undo the change of {path}: {exc}") from exc

    def _anchored(self, target: Path | Anchored) -> Anchored:
        """A target as `beneath` walks it: a plain path is taken beneath the project root."""
        return target if isinstance(target, Anchored) else anchor(target, (self.state_dir.parent,))

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
            seq=self._files.tail_seq() + 1,
            time=datetime.now(UTC).isoformat(timespec="microseconds"),
            path=path,
            tool=tool,
            session_id=session_id,
            before=None if before is None else self._files.store(before),
            after=None if after is None else self._files.store(after),
            mode=mode,
        )


def _for_undo(path: str, action: Callable[[Anchored], _T], target: Anchored) -> _T:
    """Run one file step of an undo; a link swapped onto the file's path is the person's error."""
    try:
        return action(target)
    except LinkOnPathError as exc:
        raise UserError(f"cannot undo the change of {path}: {exc}") from exc


def _stale_message(path: str, expected: bytes | None, found: bytes | None) -> str:
    """What changed under a write: the file appeared, vanished, or differs (with the diff)."""
    who = "another asi-agent run, an editor or a command"
    if expected is None:
        return (
            f"{path} was created by someone else ({who}) while this call was working; nothing was written. "
            "Call read_file to see it, then decide whether to change or overwrite it"
        )
    if found is None:
        return (
            f"{path} was deleted by someone else ({who}) after it was read; nothing was written. "
            "Call list_directory or file_search to see what is there now"
        )
    if is_binary(expected) or is_binary(found):
        what = f"(binary content: {len(expected)} bytes then, {len(found)} bytes now)"
    else:
        then, now = decode(expected)[0], decode(found)[0]
        what = unified_diff(then, now, path, max_lines=_STALE_DIFF_LINES)
    return (
        f"{path} changed on disk after it was read ({who} wrote it in between); nothing was written. "
        f"What changed since it was read:\n{what}\n"
        "Call read_file again and redo the edit on the current text"
    )
