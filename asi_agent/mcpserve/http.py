"""`asi-agent mcp serve --http`: the same server over streamable HTTP, on loopback only, every request
carrying the bearer token (`ASI_MCP_TOKEN`, or one made at start and printed on standard error)."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["BearerGate", "serve_http"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class BearerGate:
    """ASGI middleware: an HTTP request without `Authorization: Bearer <token>` gets 401."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], token: str) -> None:
        self.app, self.expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass lifespan events and authorised requests on; refuse the others."""
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not secrets.compare_digest(given, self.expected):
                headers = [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")]
                await send({"type": "http.response.start", "status": 401, "headers": headers})
                await send({"type": "http.response.body", "body": b"a bearer token is required\n"})
                return
        await self.app(scope, receive, send)


async def serve_http(server: Any, *, port: int, token: str | None) -> None:
    """Serve `server` (a low-level MCP Server) at http://127.0.0.1:PORT/mcp until interrupted."""
    import uvicorn  # noqa: PLC0415 - heavy, only for --http

    if not token:
        token = secrets.token_urlsafe(24)
        print(f"asi-agent mcp: bearer token {token}", file=sys.stderr, flush=True)
    app = BearerGate(server.streamable_http_app(host="127.0.0.1"), token)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    print(f"asi-agent mcp: serving at http://127.0.0.1:{port}/mcp", file=sys.stderr, flush=True)
    await uvicorn.Server(config).serve()
