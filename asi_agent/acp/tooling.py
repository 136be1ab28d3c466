"""How a tool call looks in the editor: its kind, a one-line title, and the places it touches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from acp.schema import ToolCallLocation, ToolKind

from asi_agent.messages import ToolCall
from asi_agent.tools.base import Cursor

__all__ = ["call_kind", "call_locations", "call_paths", "call_title"]

KINDS: dict[str, ToolKind] = {
    "read_file": "read",
    "list_directory": "read",
    "get_project_structure": "read",
    "get_cursor_context": "read",
    "diff_history": "read",
    "codebase_search": "search",
    "grep_search": "search",
    "file_search": "search",
    "find_code_location": "search",
    "delete_file": "delete",
    "run_terminal_cmd": "execute",
    "lint_check": "execute",
    "run_tests": "execute",
}
"""The built-in tools whose kind is not their risk class's (every other write edits)."""
BY_RISK: dict[str, ToolKind] = {"read": "read", "write": "edit", "execute": "execute", "network": "fetch"}
PATH_KEYS = ("path", "filePath", "file_path", "file", "testFile")
"""Arguments that name a file (aliases included: the model's call may not be normalised yet)."""
LINE_KEYS = ("startLine", "line")
TITLE_KEYS = ("command", "path", "filePath", "file_path", "file", "pattern", "query", "search", "testFile")


def call_kind(name: str, risk: str) -> ToolKind:
    """The protocol's kind of a call of tool `name` (of risk class `risk`), which picks the editor's icon."""
    return KINDS.get(name) or BY_RISK.get(risk, "other")


def call_title(call: ToolCall) -> str:
    """`name argument`: the tool and what it works on, cut to one short line."""
    for key in TITLE_KEYS:
        value = call.arguments.get(key)
        if isinstance(value, str) and value.strip():
            line = value.strip().splitlines()[0]
            return f"{call.name} {line[:97] + '…' if len(line) > 100 else line}"
    return call.name


def call_paths(call: ToolCall, root: Path, cursor: Cursor | None = None) -> list[Path]:
    """The absolute paths of the files a call names (the cursor's file for `get_cursor_context`)."""
    found: list[Path] = []
    for key in PATH_KEYS:
        value = call.arguments.get(key)
        if isinstance(value, str) and value.strip():
            path = Path(value.strip()).expanduser()
            found.append((path if path.is_absolute() else root / path).resolve())
    if call.name == "get_cursor_context" and cursor is not None:
        found.append(cursor.path)
    return list(dict.fromkeys(found))


def call_locations(call: ToolCall, root: Path, cursor: Cursor | None = None) -> list[ToolCallLocation]:
    """Where the editor can follow the call: each file it names, at the line it names if any."""
    line = _line(call.arguments)
    return [ToolCallLocation(path=str(path), line=line) for path in call_paths(call, root, cursor)]


def _line(arguments: dict[str, Any]) -> int | None:
    for key in LINE_KEYS:
        value = arguments.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value
    return None
