"""An MCP tool's permission class from its annotations (the MCP spec's tool hints).

`readOnlyHint` → read; `openWorldHint` → network (it reaches beyond the machine); a tool that is neither
read-only nor marked `destructiveHint: false` is destructive (the spec's default) and asks in every mode
but yolo; one marked additive (`destructiveHint: false`) is a write. A `risk` the server's configuration
sets explicitly wins over every hint: the person's word outranks the server's.
"""

from __future__ import annotations

from typing import Any

from asi_agent.tools.base import Risk

__all__ = ["classify_mcp_tool"]


def classify_mcp_tool(annotations: Any, configured: Risk | None) -> tuple[Risk, bool]:
    """(the tool's class, whether it is destructive) from its `ToolAnnotations` (or None) and the risk its
    server's configuration sets (None: not set)."""
    if configured is not None:
        return configured, False
    if annotations is None:
        return "execute", False  # says nothing: a command run by a program, as before annotations
    read_only = annotations.read_only_hint is True
    open_world = annotations.open_world_hint is True
    destructive = not read_only and annotations.destructive_hint is not False
    if open_world:
        return "network", destructive
    if read_only:
        return "read", False
    return ("execute", True) if destructive else ("write", False)
