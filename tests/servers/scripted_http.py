"""Machinery shared by the local test servers: a threaded HTTP server answering from a script.

`OpenAIServer` (openai_server.py) and `OllamaServer` (ollama_server.py) build on `ScriptedServer`:
it runs a stdlib `ThreadingHTTPServer` on 127.0.0.1 (port 0) in a daemon thread, records every
request, and hands out the scripted replies and the failures asked for. Subclasses only translate
a `Reply` into their protocol's wire format.

Fault modes (`Reply.fault`), each after `Reply.fault_after` streamed lines:
`drop` closes the connection with the body incomplete, `close` ends the response cleanly but early
(no finish reason, no `[DONE]`), `stall` stops sending without closing,
`malformed` sends a line that is not valid JSON, `endless` streams new text until the client hangs up
(a server that ignores the token limit), `loop` streams the same line until the client hangs up.
Unless a reply sets `prompt_tokens`, the usage reported counts the request's messages and tools
(~4 characters per token) — without the tools when the server `drop_tools`, like a llama.cpp whose
chat template cannot render them.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal, Self

__all__ = ["Call", "Fault", "JsonHandler", "Recorded", "Reply", "Responder", "ScriptedServer"]

Fault = Literal["drop", "close", "stall", "malformed", "endless", "loop"]
_FAULT_CAP = 30.0  # seconds an endless or stalled reply lasts at most (the test has failed by then)


@dataclass
class Call:
    """A tool call the fake model makes. A str `arguments` is sent as is, a dict as the protocol prefers."""

    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)
    id: str | None = None


@dataclass
class Reply:
    """One scripted model reply: text and/or tool calls."""

    text: str = ""
    calls: list[Call] = field(default_factory=list)
    finish_reason: str | None = None
    reasoning: str = ""
    """Thinking sent apart from the text, before it (`reasoning_content` / Ollama's `thinking`)."""
    prompt_tokens: int | None = None
    """None counts the request (see the module docstring)."""
    completion_tokens: int = 7
    delay: float = 0.0
    """Seconds to wait before answering (to exercise client timeouts)."""
    fault: Fault | None = None
    """A broken stream (see the module docstring)."""
    fault_after: int = 2
    """Lines streamed before the fault (the first line carries no text)."""
    interval: float = 0.0
    """Seconds between the lines of an `endless` or `loop` reply."""
    model: str | None = None
    """The model name to answer with; None echoes the request's."""

    @property
    def finish(self) -> str:
        """The finish reason to report."""
        return self.finish_reason or ("tool_calls" if self.calls else "stop")


Responder = Callable[[dict[str, Any]], Reply]
"""Builds a reply from the request body, for tests that answer based on what was sent."""


@dataclass
class Recorded:
    """One request the server received."""

    method: str
    path: str
    body: Any
    headers: dict[str, str]


class JsonHandler(BaseHTTPRequestHandler):
    """Reads a request's JSON body and hands it to the server's `dispatch`."""

    server: _Http

    def do_GET(self) -> None:
        self.server.app.dispatch(self, "GET", None)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            body = raw.decode("utf-8", "replace")
        self.server.app.dispatch(self, "POST", body)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""


class _Http(ThreadingHTTPServer):
    daemon_threads = True
    app: ScriptedServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet when a client hangs up early (timeouts are tested on purpose)."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class ScriptedServer:
    """Base of the test servers; use as a context manager or call `start()` / `stop()`."""

    handler_class: type[BaseHTTPRequestHandler] = JsonHandler
    """The request handler (a subclass may time or trace requests)."""

    def __init__(self, models: Iterable[str] = ("test-model",)) -> None:
        self.models = list(models)
        self.reject_tools = False
        """Answer 400 "tools not supported" to chat requests that carry tools."""
        self.reject_unknown_models = False
        """Answer 404 to chat requests for a model not in `models`."""
        self.drop_tools = False
        """Accept tools but ignore them: they are not counted in the prompt tokens."""
        self.requests: list[Recorded] = []
        self.replies_used = 0
        self._replies: deque[Reply | Responder] = deque()
        self._failures: deque[tuple[int, float | None]] = deque()
        self._lock = threading.Lock()
        self._http: _Http | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    # -- scripting ---------------------------------------------------------------------------

    def reply(self, *replies: Reply | str | Responder) -> None:
        """Queue replies for the next chat requests (a str is a text-only reply)."""
        with self._lock:
            self._replies.extend(Reply(text=r) if isinstance(r, str) else r for r in replies)

    def fail_next(self, count: int, status: int = 503, retry_after: float | None = None) -> None:
        """Answer the next `count` chat requests with `status` (and a Retry-After header if given)."""
        with self._lock:
            self._failures.extend((status, retry_after) for _ in range(count))

    @property
    def chat_bodies(self) -> list[Any]:
        """Bodies of the chat requests received so far."""
        return [r.body for r in self.requests if r.path == self.chat_path]

    # -- life cycle --------------------------------------------------------------------------

    def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        self._http = _Http(("127.0.0.1", 0), self.handler_class)
        self._http.app = self
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop listening and wait for the serving thread."""
        self._stopping.set()
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def root_url(self) -> str:
        """`http://127.0.0.1:PORT`."""
        assert self._http is not None, "server not started"
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    # -- for subclasses ----------------------------------------------------------------------

    chat_path = "/chat"

    def dispatch(self, handler: BaseHTTPRequestHandler, method: str, body: Any) -> None:
        """Record the request, then route it (subclasses implement `route`)."""
        path = handler.path.split("?", 1)[0]
        with self._lock:
            self.requests.append(Recorded(method, path, body, dict(handler.headers.items())))
        self.route(handler, method, path, body)

    def route(self, handler: BaseHTTPRequestHandler, method: str, path: str, body: Any) -> None:
        """Answer one request."""
        raise NotImplementedError

    def take_failure(self) -> tuple[int, float | None] | None:
        """The next injected failure, if any."""
        with self._lock:
            return self._failures.popleft() if self._failures else None

    def next_reply(self, body: dict[str, Any]) -> Reply | None:
        """The next scripted reply (calling a responder with the body), or None when none is left."""
        with self._lock:
            if not self._replies:
                return None
            item = self._replies.popleft()
            self.replies_used += 1
        reply = item if isinstance(item, Reply) else item(body)
        if reply.delay:
            time.sleep(reply.delay)
        return reply

    def prompt_tokens(self, reply: Reply, body: dict[str, Any]) -> int:
        """The prompt tokens to report: the reply's own, else ~4 characters per token of the request."""
        if reply.prompt_tokens is not None:
            return reply.prompt_tokens
        shown: list[Any] = [body.get("messages") or []]
        if not self.drop_tools:
            shown.append(body.get("tools") or [])
        return max(1, len(json.dumps(shown)) // 4)

    def send_stream(
        self,
        handler: BaseHTTPRequestHandler,
        content_type: str,
        lines: list[str],
        reply: Reply,
        faulty: Callable[[str, int], str],
    ) -> None:
        """Stream `lines`, or break the stream as `reply.fault` asks; `faulty(kind, n)` gives the
        fault's lines (`malformed`, the n-th `endless` / `loop` line)."""
        if reply.fault is None:
            start_stream(handler, content_type)
            for line in lines:
                write_line(handler, line)
            return
        # A length far beyond what is sent: closing early is then a broken body, not the end of it.
        start_stream(handler, content_type, length=1 << 20 if reply.fault == "drop" else None)
        for line in lines[: reply.fault_after]:
            write_line(handler, line)
        if reply.fault == "stall":
            self._stopping.wait(_FAULT_CAP)
        elif reply.fault == "malformed":
            write_line(handler, faulty("malformed", 0))
        elif reply.fault in ("endless", "loop"):
            self._stream_forever(handler, reply, faulty)

    def _stream_forever(
        self, handler: BaseHTTPRequestHandler, reply: Reply, faulty: Callable[[str, int], str]
    ) -> None:
        """Until the client hangs up (the write fails), the server stops, or the cap is reached."""
        assert reply.fault is not None
        ends = time.monotonic() + _FAULT_CAP
        count = 0
        while not self._stopping.is_set() and time.monotonic() < ends:
            write_line(handler, faulty(reply.fault, count))
            count += 1
            if reply.interval:
                time.sleep(reply.interval)

    def no_reply_message(self) -> str:
        """Error text when the script is exhausted."""
        return f"test server has no scripted reply left ({self.replies_used} used)"


def send_json(
    handler: BaseHTTPRequestHandler, status: int, payload: Any, headers: dict[str, str] | None = None
) -> None:
    """Send one JSON response with a Content-Length."""
    data = json.dumps(payload).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    for key, value in (headers or {}).items():
        handler.send_header(key, value)
    handler.end_headers()
    handler.wfile.write(data)


def start_stream(handler: BaseHTTPRequestHandler, content_type: str, length: int | None = None) -> None:
    """Begin a response whose end is marked by closing the connection (HTTP/1.0 style)."""
    handler.send_response(200)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Connection", "close")
    if length is not None:
        handler.send_header("Content-Length", str(length))
    handler.end_headers()


def write_line(handler: BaseHTTPRequestHandler, text: str) -> None:
    """Write and flush one piece of a streamed response."""
    handler.wfile.write(text.encode())
    handler.wfile.flush()


def pieces(text: str, count: int = 3) -> list[str]:
    """`text` cut into up to `count` consecutive pieces (mid-word, mid-string: on purpose)."""
    if not text:
        return []
    size = max(1, -(-len(text) // count))
    return [text[i : i + size] for i in range(0, len(text), size)]
