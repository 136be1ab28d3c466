"""The MCP servers an editor passes in `session/new` and `session/load`, in the configuration's format.

They are the person's own (their editor's configuration), so they start as the user's `mcp.json` servers
do: in any folder, a stdio server inside the sandbox. ACP's own transport (`type: "acp"`, the editor
relaying the messages) is not supported: such a server is skipped with a warning.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

__all__ = ["editor_servers"]

log = logging.getLogger("asi_agent.acp")


def editor_servers(servers: Sequence[Any] | None) -> dict[str, dict[str, Any]]:
    """{name: definition} of the servers the editor sent (stdio, http, sse)."""
    found: dict[str, dict[str, Any]] = {}
    for server in servers or ():
        kind = getattr(server, "type", None) or "stdio"
        if kind == "stdio" and getattr(server, "command", None):
            found[server.name] = {
                "type": "stdio",
                "command": server.command,
                "args": list(server.args or []),
                "env": {variable.name: variable.value for variable in server.env or []},
            }
        elif kind in ("http", "sse"):
            headers = {header.name: header.value for header in server.headers or []}
            found[server.name] = {"type": kind, "url": server.url, "headers": headers}
        else:
            log.warning("MCP server %s: the editor's %s transport is not supported", server.name, kind)
    return found
