"""The ASI tools as an MCP server offers them: exact schemas, annotations from the policy's classes.

An MCP client reads `readOnlyHint`, `destructiveHint`, `idempotentHint` and `openWorldHint` to decide how
to ask its person; they follow the class the policy gives each tool here (`read`, `write`, `execute`,
`network`), so a client and asi-agent's own policy agree on what is harmless.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any

from asi_agent.tools.base import ToolSpec
from asi_agent.tools.catalog import builtin_specs
from asi_agent.tools.registry import ToolRegistry

__all__ = [
    "ADDITIVE", "MCP_SEPARATOR", "annotations_for", "chosen_specs", "missing_tools", "parse_tools_option",
    "wants_servers",
]  # fmt: skip

ADDITIVE = frozenset({"insert_line"})
"""Write-class tools that only add to a file: not destructive in MCP's sense."""
MCP_SEPARATOR = "__"
"""Between an MCP server's name and its tool's, as the agent sees them (`git__git_status`)."""


def parse_tools_option(value: str) -> str | tuple[str, ...]:
    """`asi` (the spec's 22 and the two `moss_*` tools), `all` (every tool of the registry), or a
    comma-separated list of names."""
    word = value.strip()
    if word in ("asi", "all"):
        return word
    return tuple(name.strip() for name in word.split(",") if name.strip())


def chosen_specs(registry: ToolRegistry, tools: str | Collection[str]) -> list[ToolSpec]:
    """The registry's implemented tools the server offers, in registry order: `asi`'s, every one (`all`:
    the MCP servers' tools too, as their lists change), or the listed ones that are registered."""
    if tools == "all":
        return [spec for spec in registry.specs() if spec.run is not None]
    wanted = _asi_names() if tools == "asi" else frozenset(tools)
    return [spec for spec in registry.specs() if spec.name in wanted and spec.run is not None]


def wants_servers(registry: ToolRegistry, tools: str | Collection[str]) -> bool:
    """Whether the selection may name tools of MCP servers (`all`, or a listed name no tool has yet): only
    then are the servers started."""
    if isinstance(tools, str):
        return tools == "all"
    return any(name not in registry for name in tools)


def missing_tools(registry: ToolRegistry, tools: str | Collection[str]) -> list[str]:
    """The listed names no tool has, once the MCP servers started: an MCP tool's (`server__tool`) server
    may have failed to start, so these are returned to be warned about; any other name is a ValueError."""
    if isinstance(tools, str):
        return []
    missing = [name for name in tools if name not in registry]
    unknown = [name for name in missing if MCP_SEPARATOR not in name]
    if unknown:
        raise ValueError(f"unknown tool(s): {', '.join(unknown)}; `asi-agent tools` lists them")
    return missing


@functools.cache
def _asi_names() -> frozenset[str]:
    return frozenset(spec.name for spec in builtin_specs())


def annotations_for(spec: ToolSpec, *, network: bool) -> dict[str, Any]:
    """MCP tool annotations for a tool of class `spec.risk`; `network`: whether the sandbox lets commands
    reach the network (an execute tool then touches the open world). A write tool of an MCP server is
    destructive as its own server said (`destructiveHint: false` made it a write)."""
    risk = spec.risk
    proxied = spec.source.startswith("mcp:")
    destroys = spec.destructive if proxied else spec.name not in ADDITIVE
    return {
        "readOnlyHint": risk == "read",
        "destructiveHint": risk in ("execute", "network") or (risk == "write" and destroys),
        "idempotentHint": risk == "read",
        "openWorldHint": risk == "network" or (risk == "execute" and network),
    }
