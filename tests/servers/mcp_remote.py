"""A remote MCP server for the tests, made with the `mcp` SDK's own `MCPServer`: one read-only tool
(`shout`) served over streamable HTTP (`/mcp`) or SSE (`/sse`) on loopback, refusing requests without
the bearer token given on the command line.

    python tests/servers/mcp_remote.py PORT TOKEN http|sse
"""

from __future__ import annotations

import sys

import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.responses import PlainTextResponse


def main() -> None:
    port, token, transport = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    server = MCPServer("remote-demo")

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
