"""Tools the test MCP servers share: `grow` adds the tool `late` (answering `late but here`) and tells the
client its tool list changed; `count` reports progress `1/2 · one`, `2/2 · two` and answers `counted`."""

from __future__ import annotations

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations


def add_grow_and_count(server: MCPServer) -> None:
    """Register `grow` and `count` (both read-only) on `server`."""

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def count(ctx: Context) -> str:
        """Count to two, reporting progress."""
        await ctx.report_progress(1, 2, "one")
        await ctx.report_progress(2, 2, "two")
        return "counted"

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def grow(ctx: Context) -> str:
        """Add the tool `late` and tell the client its tool list changed."""

        def late() -> str:
            """A tool that exists only after grow."""
            return "late but here"

        server.add_tool(late, annotations=ToolAnnotations(read_only_hint=True))
        await ctx.session.send_tool_list_changed()
        return "grown"
