"""A local web site for the web tools' tests: fixed routes on 127.0.0.1, every request path recorded.

A route is a path mapped to `Page(status, body, headers, delay)`; JSON APIs (the search backends) are
routes whose body is a function of the request (path with query, headers, body)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

__all__ = ["Page", "Request", "WebSite"]


@dataclass(frozen=True)
class Request:
    """What the site received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Page:
    """One route's answer; `body` may compute the answer from the request."""

    body: bytes | str | Callable[[Request], bytes | str] = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "text/html; charset=utf-8"})
    delay: float = 0.0


class WebSite:
    """`with WebSite({"/": Page(...)}) as site:` serves the routes at `site.url`."""

    def __init__(self, routes: dict[str, Page]) -> None:
        self.routes = routes
        self.requests: list[Request] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                request = Request(self.command, self.path, dict(self.headers), self.rfile.read(length))
                site.requests.append(request)
                page = site.routes.get(self.path) or site.routes.get(self.path.split("?", 1)[0])
                page = page or Page("not found", status=404, headers={"Content-Type": "text/plain"})
                time.sleep(page.delay)
                body: Any = page.body(request) if callable(page.body) else page.body
                data = body.encode() if isinstance(body, str) else body
                self.send_response(page.status)
                for name, value in page.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up first
                    self.wfile.write(data)

            do_GET = do_POST = _answer

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet."""

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.host = f"127.0.0.1:{self.port}"

    def paths(self) -> list[str]:
        """The paths requested so far, in order."""
        return [request.path for request in self.requests]

    def __enter__(self) -> Self:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
