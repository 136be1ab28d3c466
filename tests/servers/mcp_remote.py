"""A remote MCP server for the tests, made with the `mcp` SDK's own `MCPServer`: a read-only tool
(`shout`), one that reports the client's roots, one that adds a tool and says so, a prompt, a resource and
instructions, served over streamable HTTP (`/mcp`) or SSE (`/sse`) on loopback, refusing requests
without the bearer token given on the command line.

    python tests/servers/mcp_remote.py PORT TOKEN http|sse
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from mcp_growing import add_grow_and_count
from mcp_types import ToolAnnotations
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.responses import PlainTextResponse


def main() -> None:
    port, token, transport = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    server = MCPServer("remote-demo", instructions="Call shout only with short texts.")

    @server.prompt()
    def review(topic: str) -> str:
        """A review request."""
        return f"Review the {topic} code carefully."

    @server.resource("demo://greeting", name="greeting", description="A greeting")
    def greeting() -> str:
        return "Hello from the resource."

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def sleepy(marker: str) -> str:
        """Wait a minute; write `marker` when the client cancels the call."""
        try:
            await anyio.sleep(60)
        except anyio.get_cancelled_exc_class():
            Path(marker).write_text("cancelled", encoding="utf-8")
            raise
        return "slept"

    add_grow_and_count(server)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def roots(ctx: Context) -> str:
        """The client's roots, one URI a line."""
        listed = await ctx.session.list_roots()
        return "\n".join(str(root.uri) for root in listed.roots)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def shout(text: str) -> str:
        """The text in capitals."""
        return text.upper() + "!"

    app = server.sse_app() if transport == "sse" else server.streamable_http_app()

    async def bearer(request, call_next):  # type: ignore[no-untyped-def]
        if request.headers.get("authorization") != f"Bearer {token}":
            return PlainTextResponse("unauthorized", status_code=401)
        return await call_next(request)

    app.add_middleware(BaseHTTPMiddleware, dispatch=bearer)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
