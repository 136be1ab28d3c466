"""A stdio MCP server for the tests, made with the `mcp` SDK's own `MCPServer`: `echo` (read-only) answers
`echo: TEXT`; `stamp` (destructive) writes the harmless marker file NAME, holding `stamped`, in its working
folder; `note` (an additive write, `destructiveHint: false`) answers `noted`; `grow` adds the tool `late`
(answering `late but here`) and tells the client its tool list changed; `count` reports progress `1/2 ·
one`, `2/2 · two`. Its instructions say `MARKERS-INSTRUCTIONS`.

    python tests/servers/mcp_markers.py
"""

from __future__ import annotations

from pathlib import Path

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations


def main() -> None:
    server = MCPServer("markers", instructions="MARKERS-INSTRUCTIONS: echo answers, stamp writes a marker.")

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def echo(text: str) -> str:
        """Answer with the text."""
        return f"echo: {text}"

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True))
    def stamp(name: str) -> str:
        """Write the marker file NAME in the working folder."""
        Path(name).write_text("stamped\n", encoding="utf-8")
        return f"stamped {name}"

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False))
    def note(text: str) -> str:
        """Take a note (changes nothing here)."""
        return "noted"

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def grow(ctx: Context) -> str:
        """Add the tool `late` and say the tool list changed."""

        def late() -> str:
            """A tool that exists only after grow."""
            return "late but here"

        server.add_tool(late, annotations=ToolAnnotations(read_only_hint=True))
        await ctx.session.send_tool_list_changed()
        return "grown"

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def count(ctx: Context) -> str:
        """Count to two, reporting progress."""
        await ctx.report_progress(1, 2, "one")
        await ctx.report_progress(2, 2, "two")
        return "counted"

    server.run("stdio")


if __name__ == "__main__":
    main()
