"""`asi-agent diff` without git: the session's changes from the change journal."""

from __future__ import annotations

import difflib
from pathlib import Path

from asi_agent.exceptions import UserError
from asi_agent.tools.files.journal import Journal

__all__ = ["journal_diff"]


def journal_diff(root: Path, journal: Journal, session_id: str | None = None) -> tuple[str, str]:
    """(session, unified diff of every file it changed: first content before it → the file now)."""
    entries = [e for e in reversed(journal.entries()) if e.session_id and e.tool != "checkpoint-restore"]
    if session_id is not None:
        entries = [e for e in entries if e.session_id == session_id or e.session_id.endswith(session_id)]
    if not entries:
        which = f"session '{session_id}'" if session_id else "any session"
        raise UserError(f"no recorded change of {which} in {journal.state_dir}")
    session = entries[-1].session_id
    first: dict[str, str | None] = {}
    for entry in entries:
        if entry.session_id == session and entry.path not in first:
            first[entry.path] = entry.before
    parts = [_file_diff(root, journal, path, before) for path, before in first.items()]
    return session, "".join(parts)


def _file_diff(root: Path, journal: Journal, path: str, before_sha: str | None) -> str:
    before = b"" if before_sha is None else journal.blob(before_sha)
    target = root / path
    after = target.read_bytes() if target.is_file() else b""
    if before == after:
        return ""
    old_name = "/dev/null" if before_sha is None else f"a/{path}"
    new_name = f"b/{path}" if target.is_file() else "/dev/null"
    try:
        old_lines = before.decode("utf-8").splitlines(keepends=True)
        new_lines = after.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return f"Binary files {old_name} and {new_name} differ\n"
    diff = difflib.unified_diff(old_lines, new_lines, old_name, new_name)
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in diff
    )
