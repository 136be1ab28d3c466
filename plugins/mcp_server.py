"""An example MCP server (stdio) with two small tools, registered in the repo's `moss-tools.json`.

Its tools reach the model as `demo__slugify` and `demo__count_lines` (`<server>__<tool>`).
Run it by hand with `python plugins/mcp_server.py`; it speaks MCP on stdin/stdout.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer("demo")


@server.tool(description="Turn a title into a URL slug: lower case ASCII words joined by '-'")
def slugify(text: str) -> str:
    """The slug of `text`."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


@server.tool(description="Count the lines of a text file of the project (path relative to the project root)")
def count_lines(path: str) -> str:
    """The number of lines of `path`, read from the server's working folder (the project root)."""
    file = Path(path)
    if not file.is_file():
        raise ToolError(f"{path} is not a file; give a path relative to the project root")
    return str(len(file.read_text(encoding="utf-8", errors="replace").splitlines()))


if __name__ == "__main__":
    server.run("stdio")
