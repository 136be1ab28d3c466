"""Where the editor cursor is, for `get_cursor_context`, and the numbered window of lines around it.

Sources, first found wins: the cursor the UI or `--cursor` set (`ctx.cursor`), the project's
`.asi/cursor.json` (`{"path": ..., "line": ..., "column": ...}`, written by an editor integration),
then the last place the agent read or edited (`ctx.last_location`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools.base import ToolContext
from asi_agent.tools.paths import display_path

__all__ = ["CURSOR_FILE", "CursorAt", "number_lines", "resolve_cursor"]

CURSOR_FILE = "cursor.json"
"""Name of the cursor file inside the project's `.asi/` folder."""
_FORMAT = (
    '{"path": "src/app.py", "line": 42, "column": 5} (path relative to the project root or absolute; 1-based)'
)


@dataclass(frozen=True, slots=True)
class CursorAt:
    """A resolved cursor: an existing project file and a 1-based position."""

    path: Path
    rel: str
    line: int
    column: int
    source: str


def resolve_cursor(ctx: ToolContext) -> CursorAt:
    """The cursor from the first source that has one (see the module docstring); ToolError if none."""
    if ctx.cursor is not None:
        cursor = ctx.cursor
        return _checked(ctx, str(cursor.path), cursor.line, cursor.column, "editor cursor")
    cursor_file = ctx.state_dir / CURSOR_FILE
    if cursor_file.is_file():
        return _from_file(ctx, cursor_file)
    if ctx.last_location is not None:
        path, line = ctx.last_location
        return _checked(ctx, str(path), line, 1, "last place the agent read or edited")
    raise ToolError(
        "no cursor position is known: no editor cursor was given and the agent has not read or edited a "
        "file yet. Start asi-agent with --cursor PATH:LINE[:COL], or write .asi/cursor.json as "
        + _FORMAT
        + ", or read a file first"
    )


def _from_file(ctx: ToolContext, cursor_file: Path) -> CursorAt:
    """The cursor written in `.asi/cursor.json`."""
    try:
        data = json.loads(cursor_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ToolError(f".asi/cursor.json cannot be read as JSON ({exc}); it must be {_FORMAT}") from exc
    if not isinstance(data, dict):
        raise ToolError(f".asi/cursor.json must hold one JSON object: {_FORMAT}")
    path, line, column = data.get("path"), data.get("line"), data.get("column", 1)
    if not isinstance(path, str) or not path.strip():
        raise ToolError(f'.asi/cursor.json needs a "path" string: {_FORMAT}')
    if isinstance(line, bool) or not isinstance(line, int) or line < 1:
        raise ToolError(f'.asi/cursor.json needs a "line" integer ≥ 1: {_FORMAT}')
    if isinstance(column, bool) or not isinstance(column, int) or column < 1:
        raise ToolError(f'.asi/cursor.json has a bad "column" (an integer ≥ 1, or leave it out): {_FORMAT}')
    return _checked(ctx, path, line, column, ".asi/cursor.json")


def _checked(ctx: ToolContext, raw: str, line: int, column: int, source: str) -> CursorAt:
    """Resolve the path inside the project and insist that it is an existing file."""
    path = ctx.resolve(raw, write=False)
    rel = display_path(ctx.root, path)
    if not path.is_file():
        raise ToolError(f"the cursor ({source}) points at {rel}, which is not an existing file; {_FORMAT}")
    return CursorAt(path, rel, max(1, line), max(1, column), source)


def number_lines(lines: list[str], first: int, last: int, marked: int) -> str:
    """Lines `first`..`last` (1-based) with their numbers, the `marked` line flagged with "→"."""
    width = len(str(last))
    return "\n".join(
        f"{'→' if number == marked else ' '} {number:>{width}} | {lines[number - 1]}"
        for number in range(first, last + 1)
    )
