"""A stdio MCP server for the tests, made with the `mcp` SDK's own `MCPServer` (FastMCP's 2.x name): its
`index` tool reports progress (`40/100 · indexing`), waits `pause` seconds so a front end can show it,
reports `100/100 · done` and returns `indexed`.

    python tests/servers/mcp_progress.py
"""

from __future__ import annotations

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations


def main() -> None:
    server = MCPServer("progress-demo")

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def index(ctx: Context, pause: float = 1.0) -> str:
        """Index the project, reporting how far it got."""
        await ctx.report_progress(40, 100, "indexing")
        await anyio.sleep(pause)
        await ctx.report_progress(100, 100, "done")
        return "indexed"

    server.run("stdio")


if __name__ == "__main__":
    main()
