"""A server that answers, but is not an OpenAI-compatible API (a web server on the port, a base URL without
its `/v1`), is reported as such — not as unreachable (`asi-agent run` as a subprocess, a loopback server)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from asi_cli import asi

PAGE = b"<!DOCTYPE html><html><body><h1>It works!</h1></body></html>"


class _WebPage(BaseHTTPRequestHandler):
    """Every GET is a web page; every POST a web page saying the method is not allowed."""

    def _page(self, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def do_GET(self) -> None:
        self._page(200)

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._page(405)

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture
def web_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _WebPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("model", [None, "some-model"], ids=["model-asked-from-the-server", "model-given"])
def test_a_web_page_is_not_an_api_and_the_message_says_so(tmp_path: Path, web_server: str, model: str | None):
    flags = ["--model", model] if model else []
    proc = asi(
        "run", "--provider", "openai", "--base-url", web_server, *flags, "hi", cwd=tmp_path, timeout=120
    )
    assert proc.returncode == 1
    error = next(line for line in proc.stderr.splitlines() if line.startswith("asi-agent: error:"))
    assert f"the server at {web_server} answers, but not as an OpenAI-compatible API" in error
    assert "usually ending in /v1" in error
    assert "Expecting value" not in error and "is it running" not in error
