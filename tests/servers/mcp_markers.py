"""A stdio MCP server for the tests, made with the `mcp` SDK's own `MCPServer`: `echo` (read-only) answers
`echo: TEXT`; `stamp` (destructive) writes the harmless marker file NAME, holding `stamped`, in its working
folder; `note` (an additive write, `destructiveHint: false`) answers `noted`; `grow` and `count` as in
`mcp_growing.py`. Its instructions say `MARKERS-INSTRUCTIONS`.

    python tests/servers/mcp_markers.py
"""

from __future__ import annotations

from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp_growing import add_grow_and_count
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

    add_grow_and_count(server)

    server.run("stdio")


if __name__ == "__main__":
    main()
