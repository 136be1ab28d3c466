"""The tool names of Claude Code's configuration files (`allowed-tools`, agents' `tools`, hook matchers),
as asi-agent's tools: what files written for it mean here."""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["PEER_NAMES", "our_tools", "peer_names"]

PEER_NAMES: dict[str, tuple[str, ...]] = {
    "Read": ("read_file",),
    "Edit": ("replace_text", "replace_lines", "insert_line", "delete_lines"),
    "MultiEdit": ("replace_text", "replace_lines", "insert_line", "delete_lines"),
    "Write": ("create_file",),
    "Bash": ("run_terminal_cmd",),
    "Grep": ("grep_search",),
    "Glob": ("file_search",),
    "LS": ("list_directory",),
    "Task": ("task",),
    "WebFetch": ("web_fetch",),
    "WebSearch": ("web_search",),
    "TodoWrite": ("todo_write",),
}
"""Claude Code's name → the asi-agent tools that do the same."""

_RULE = re.compile(r"^(?P<name>[A-Za-z0-9_.:*-]+)\s*(\(.*\))?$")


def our_tools(names: Iterable[str]) -> set[str]:
    """asi-agent's tool names for a list that may use Claude Code's (`Bash(git add:*)` is `run_terminal_cmd`:
    the part in parentheses is a permission rule, which here only the policy grants)."""
    found: set[str] = set()
    for raw in names:
        match = _RULE.match(raw.strip())
        name = match["name"] if match else raw.strip()
        found.update(PEER_NAMES.get(name, (name,)))
    return found


def peer_names(tool: str) -> tuple[str, ...]:
    """The tool's own name and the Claude Code names that mean it (what a hook matcher may say)."""
    return (tool, *(peer for peer, ours in PEER_NAMES.items() if tool in ours))
