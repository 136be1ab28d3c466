"""`/undo` in the chats: what it would revert, and whether that needs the person's yes first.

`/undo` reverts the last change of this chat's session; `/undo N` the project's last N changes, which
may include other sessions' (another chat, an earlier `run`): then the chat asks first. `asi-agent undo N`
keeps its project-wide meaning and does not ask.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from asi_agent.exceptions import ModelFixableError
from asi_agent.tools import beneath
from asi_agent.tools.beneath import Anchored
from asi_agent.tools.files.journal import Journal, JournalEntry

__all__ = ["UndoPlan", "plan_undo", "prune_empty_parents", "undo_entries"]


@dataclass(frozen=True, slots=True)
class UndoPlan:
    """The changes an `/undo` would revert (newest first), for the chat of session `session_id`."""

    entries: list[JournalEntry]
    session_id: str

    @property
    def foreign(self) -> int:
        """How many of the changes are not this session's (the chat asks before reverting those)."""
        return sum(entry.session_id != self.session_id for entry in self.entries)

    def describe(self) -> str:
        """One line per change, for the question."""
        return "\n".join(
            f"  #{e.seq} {e.tool} {e.path}" + ("" if e.session_id == self.session_id else f"  ({_whose(e)})")
            for e in self.entries
        )


def plan_undo(journal: Journal, session_id: str, count: int | None) -> UndoPlan:
    """No count: this session's newest change still undoable; a count: the project's newest `count`."""
    undoable = journal.undoable()
    if count is None:
        own = [entry for entry in undoable if entry.session_id == session_id][:1]
        return UndoPlan(own, session_id)
    return UndoPlan(undoable[: max(count, 0)], session_id)


def undo_entries(journal: Journal, root: Path, entries: list[JournalEntry]) -> list[str]:
    """Revert `entries`; one line per reverted change. Folders left empty by an undone create go too."""
    reverted = journal.undo_entries(root, entries)
    for entry in reverted:
        if entry.before is None:
            prune_empty_parents(root, root / entry.path)
    return [f"reverted #{e.seq} {e.tool} {e.path}" for e in reverted]


def prune_empty_parents(root: Path, path: Path) -> None:
    """Remove the folders above `path` that are empty now, up to (not including) the project root.

    Beneath the root with no link followed, so a folder swapped for a link is never pruned through it."""
    top = root.resolve()
    if not path.is_relative_to(top):
        path = top / path.relative_to(root) if path.is_relative_to(root) else path
    if not path.is_relative_to(top):
        return
    parts = path.relative_to(top).parts[:-1]
    while parts:
        try:
            beneath.rmdir(Anchored(top, parts))  # only ever an empty folder
        except (OSError, ModelFixableError):
            return
        parts = parts[:-1]


def _whose(entry: JournalEntry) -> str:
    return f"another session, {entry.session_id}" if entry.session_id else "not from a session"
