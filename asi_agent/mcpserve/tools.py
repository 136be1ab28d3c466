"""The ASI tools as an MCP server offers them: exact schemas, annotations from the policy's classes.

An MCP client reads `readOnlyHint`, `destructiveHint`, `idempotentHint` and `openWorldHint` to decide how
to ask its person; they follow the class the policy gives each tool here (`read`, `write`, `execute`,
`network`), so a client and asi-agent's own policy agree on what is harmless.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from asi_agent.tools.base import ToolSpec
from asi_agent.tools.catalog import builtin_specs
from asi_agent.tools.registry import ToolRegistry

__all__ = ["ADDITIVE", "annotations_for", "chosen_specs", "parse_tools_option"]

ADDITIVE = frozenset({"insert_line"})
"""Write-class tools that only add to a file: not destructive in MCP's sense."""


def parse_tools_option(value: str) -> str | tuple[str, ...]:
    """`asi` (the spec's 22 and the two `moss_*` tools), `all` (every tool of the registry), or a
    comma-separated list of names."""
    word = value.strip()
    if word in ("asi", "all"):
        return word
    return tuple(name.strip() for name in word.split(",") if name.strip())


def chosen_specs(registry: ToolRegistry, tools: str | Collection[str]) -> list[ToolSpec]:
    """The registry's implemented tools the server offers, in registry order; ValueError names an unknown
    tool of a list."""
    if tools == "asi":
        wanted: Collection[str] = [spec.name for spec in builtin_specs()]
    elif tools == "all":
        wanted = registry.names()
    else:
        wanted = list(tools)
        unknown = [name for name in wanted if name not in registry]
        if unknown:
            raise ValueError(f"unknown tool(s): {', '.join(unknown)}; `asi-agent tools` lists them")
    return [spec for spec in registry.specs() if spec.name in wanted and spec.run is not None]


def annotations_for(spec: ToolSpec, *, network: bool) -> dict[str, Any]:
    """MCP tool annotations for a tool of class `spec.risk`; `network`: whether the sandbox lets commands
    reach the network (an execute tool then touches the open world)."""
    risk = spec.risk
    return {
        "readOnlyHint": risk == "read",
        "destructiveHint": risk in ("execute", "network") or (risk == "write" and spec.name not in ADDITIVE),
        "idempotentHint": risk == "read",
        "openWorldHint": risk == "network" or (risk == "execute" and network),
    }
