"""The journal's records on disk and the file helpers it shares with undo.

`entries.jsonl` holds `JournalEntry` objects, one JSON line each, and the commit/abort lines that settle
a pending (write-ahead) entry: `{"commit": seq, "mode": m}` or `{"abort": seq}`.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from asi_agent.tools import beneath
from asi_agent.tools.beneath import Anchored, LinkOnPathError, anchor

__all__ = [
    "ABORTED",
    "JournalEntry",
    "Kind",
    "ends_with_newline",
    "mode_or_none",
    "move_to_trash",
    "parse_entry",
    "parse_marker",
    "read_or_none",
]

ABORTED = -1
"""The mode `parse_marker` gives an abort line."""

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
    pending: bool = False
    """Written before the change was made; settled by a later commit or abort line."""

    @property
    def kind(self) -> Kind:
        """Whether the change created, modified or deleted the file."""
        if self.before is None:
            return "created"
        return "deleted" if self.after is None else "modified"


def parse_marker(raw: bytes) -> tuple[int, int | None] | None:
    """A commit line as (seq, mode), an abort line as (seq, ABORTED), anything else None."""
    try:
        data: Any = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("commit"), int):
        mode = data.get("mode")
        return data["commit"], mode if isinstance(mode, int) else None
    if isinstance(data.get("abort"), int):
        return data["abort"], ABORTED
    return None


def move_to_trash(root: Path, path: Path | Anchored) -> Path:
    """Move a file to `.asi/trash/<YYYYmmdd-HHMMSS-ffffff>/<relative path>` and return where it went.

    Both ends are reached beneath their base folders with no link followed (`beneath.move`); a file of a
    folder outside the project keeps its absolute path below the stamp folder."""
    source = path if isinstance(path, Anchored) else anchor(path, (root,))
    inside = source.base in (root, root.resolve())
    rel = source.parts if inside else source.path.parts[1:]
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    dest = Anchored(source.base if inside else root, (".asi", "trash", stamp, *rel))
    beneath.move(source, dest)
    return dest.path


def parse_entry(raw: bytes) -> JournalEntry | None:
    """One journal line as an entry, or None when it is not one (torn write, blank line)."""
    try:
        data: Any = json.loads(raw)
        return JournalEntry(**data) if isinstance(data, dict) else None
    except (ValueError, TypeError):
        return None


def ends_with_newline(path: Path) -> bool:
    """True when the file is empty or its last byte is a newline."""
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            return True
        handle.seek(size - 1)
        return handle.read(1) == b"\n"


def read_or_none(path: Anchored) -> bytes | None:
    """A file's bytes, or None when it does not exist."""
    try:
        return beneath.read_bytes(path)
    except (FileNotFoundError, NotADirectoryError):
        return None


def mode_or_none(path: Anchored) -> int | None:
    """A file's permission bits, or None when it does not exist (or a link now stands on its path)."""
    try:
        found = beneath.lstat(path)
    except LinkOnPathError:
        return None
    return None if found is None else stat.S_IMODE(found.st_mode)
