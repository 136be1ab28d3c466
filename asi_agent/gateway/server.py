"""The gateway's own HTTP/1.1 server: an asyncio `Protocol` over `httptools`' parser that hands each
request straight to the application's handler — no ASGI scope, no receive/send messages per request.

What a server must do, it does here: keep-alive (several requests on one connection, one after the
other; pipelined ones wait their turn with reading paused), Content-Length and chunked request bodies
(the parser decodes chunks), `Expect: 100-continue` (answered when the handler first reads the body),
a body size limit (the handler answers 413; the rest of that body is not read: the connection closes),
400 for what cannot be parsed, 500 for a handler's bug (the traceback is logged), idle connections
closed after a few seconds, backpressure on streamed answers (`pause_writing`), and a client that goes
away mid-stream stops the stream (its task is cancelled; the cancel ends there, quietly).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import time
from collections import deque
from collections.abc import AsyncGenerator
from email.utils import formatdate
from http import HTTPStatus
from typing import Protocol
from urllib.parse import unquote

import httptools

__all__ = ["App", "Connection", "Gone", "Request", "TooLarge", "run"]

log = logging.getLogger("asi_agent.gateway")

IDLE_SECONDS = 5.0
"""A kept-alive connection with no request in this long is closed (uvicorn's default too)."""

_REASONS = {status.value: status.phrase.encode("latin-1") for status in HTTPStatus}
_STREAM_HEAD = (
    b"content-type: text/event-stream; charset=utf-8\r\ncache-control: no-cache\r\nx-accel-buffering: no\r\n"
)
_CHUNKED = b"transfer-encoding: chunked\r\n"
_CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
_LAST_CHUNK = b"0\r\n\r\n"


class _Clock:
    second, line = 0, b""


def _date_header() -> bytes:
    """`date: …` for this second (formatted once a second)."""
    now = int(time.time())
    if now != _Clock.second:
        _Clock.second, _Clock.line = now, b"date: %s\r\n" % formatdate(now, usegmt=True).encode("latin-1")
    return _Clock.line


class TooLarge(Exception):
    """The request body is over the limit."""


class Gone(Exception):
    """The client went away before its request's body had come."""


class App(Protocol):
    """What the server serves: one handler per request, and the application's start and end."""

    async def start(self) -> None:
        """Before the first request."""

    async def handle(self, request: Request) -> None:
        """Answer one request (through `request.answer` or `request.stream`)."""

    async def close(self) -> None:
        """After the last request."""


class Request:
    """One request: method, path and headers as parsed, its body on demand, and the ways to answer."""

    __slots__ = (
        "_body",
        "_complete",
        "_conn",
        "_size",
        "_waiter",
        "answered",
        "headers",
        "http10",
        "keep_alive",
        "method",
        "path",
        "task",
        "too_large",
        "url",
    )

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self.url = b""
        self.headers: dict[bytes, bytes] = {}
        """Header values by lower-case name (a repeated header: the last one)."""
        self.method, self.path, self.keep_alive, self.http10 = "GET", "/", True, False
        self._body: list[bytes] = []
        self._size, self._complete, self.too_large, self.answered = 0, False, False, False
        self._waiter: asyncio.Future[None] | None = None
        self.task: asyncio.Task[None] | None = None

    def header(self, name: bytes) -> str | None:
        """The value of the header `name` (lower case), or None."""
        value = self.headers.get(name)
        return None if value is None else value.decode("latin-1")

    def _feed(self, piece: bytes) -> None:
        self._size += len(piece)
        if self._size > self._conn.max_body:
            self.too_large, self._body = True, []  # nothing more is kept
            self._wake()
        elif not self.too_large:
            self._body.append(piece)

    def _end(self) -> None:
        self._complete = True
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def body(self) -> bytes:
        """The whole body; `TooLarge` past the server's limit, `Gone` when the client went away first."""
        waiting = not self._complete and not self.too_large
        if waiting and self.headers.get(b"expect", b"").lower() == b"100-continue":
            self._conn.write(_CONTINUE)
        while not self._complete and not self.too_large and not self._conn.lost:
            self._waiter = self._conn.loop.create_future()
            await self._waiter
        if self.too_large:
            raise TooLarge
        if not self._complete:
            raise Gone
        return b"".join(self._body)

    def _closes(self) -> bool:
        """Whether the connection ends with this answer (said in its head)."""
        conn = self._conn
        closes = not self.keep_alive or not self._complete or conn.closing or conn.close_after
        return closes or self.http10

    def answer(self, status: int, body: bytes, content_type: bytes, extra: bytes = b"") -> None:
        """A whole answer in one write; `extra` is more header lines (each ending in CRLF)."""
        self.answered = True
        close = self._closes()
        head = b"HTTP/1.1 %d %s\r\ncontent-type: %s\r\ncontent-length: %d\r\n%s%s%s\r\n" % (
            status,
            _REASONS.get(status, b""),
            content_type,
            len(body),
            extra,
            _date_header(),
            b"connection: close\r\n" if close else b"",
        )
        self._conn.write(head if self.method == "HEAD" else head + body)
        if close:
            self._conn.close_after = True

    async def stream(self, pieces: AsyncGenerator[tuple[str, bool], None]) -> None:
        """An event stream (status 200) of `pieces` (text, whether it is the last), each sent as it
        comes, the last with the end of the body; the first with the head. Pieces that come in one turn
        of the event loop (deltas that arrived together) go out in one write, at the end of that turn.
        Should the client go away, the stream is closed (which stops the upstream request behind it).
        Chunked, except to an HTTP/1.0 client: its body ends with the connection."""
        self.answered = True
        conn, chunked = self._conn, not self.http10
        close = self._closes()
        head = b"HTTP/1.1 200 OK\r\n" + _STREAM_HEAD + (_CHUNKED if chunked else b"") + _date_header()
        head += b"connection: close\r\n\r\n" if close else b"\r\n"
        last_chunk = _LAST_CHUNK if chunked else b""
        conn.close_after = close
        conn.streaming = self.task
        out = _Pending(conn, head)
        try:
            async for text, last in pieces:
                data = text.encode("utf-8")
                out.add(b"%x\r\n%s\r\n" % (len(data), data) if data and chunked else data)
                if conn.paused:
                    out.flush()
                    await conn.drained()
                if last:
                    break
            out.add(last_chunk)
        except asyncio.CancelledError:
            if not conn.lost or self.task is None:
                raise
            self.task.uncancel()  # the cancel was ours: the request ends here, quietly
        finally:
            out.flush()
            conn.streaming = None
            await pieces.aclose()


class _Pending:
    """What a stream has to send, written once at the end of the event loop's turn (or when flushed):
    a system call per piece cost more than making the piece."""

    __slots__ = ("_conn", "_parts", "_scheduled")

    def __init__(self, conn: Connection, head: bytes) -> None:
        self._conn, self._parts, self._scheduled = conn, [head], False

    def add(self, data: bytes) -> None:
        """Send `data` at the end of this turn, after what came before it."""
        if not data:
            return
        self._parts.append(data)
        if not self._scheduled:
            self._scheduled = True
            self._conn.loop.call_soon(self.flush)

    def flush(self) -> None:
        """Send what is pending now."""
        self._scheduled = False
        if self._parts:
            self._conn.write(b"".join(self._parts))
            self._parts.clear()


class Connection(asyncio.Protocol):
    """One client connection: parses requests and runs their handlers one after the other."""

    def __init__(self, app: App, max_body: int, connections: set[Connection]) -> None:
        self.app, self.max_body, self.connections = app, max_body, connections
        self.loop = asyncio.get_running_loop()
        self.parser = httptools.HttpRequestParser(self)
        self.transport: asyncio.Transport | None = None
        self.parsing: Request | None = None
        self.active: Request | None = None
        self.waiting: deque[Request] = deque()
        self.streaming: asyncio.Task[None] | None = None
        self.lost = self.paused = self.close_after = self.closing = False
        self._drain: asyncio.Future[None] | None = None
        self._idle: asyncio.TimerHandle | None = None

    # -- transport events --------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.connections.add(self)
        self._idle = self.loop.call_later(IDLE_SECONDS, self.close)

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            self._refuse(b"upgrades are not supported")
        except httptools.HttpParserError:
            self._refuse(b"malformed HTTP request")

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self.connections.discard(self)
        if self._idle is not None:
            self._idle.cancel()
        if self.active is not None:
            self.active._wake()  # a handler waiting for the body stops waiting
        if self.streaming is not None:
            self.streaming.cancel()
        self._release()

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        self._release()

    def _release(self) -> None:
        if self._drain is not None and not self._drain.done():
            self._drain.set_result(None)

    async def drained(self) -> None:
        """Until the client has taken what was written (or is gone)."""
        if self.paused and not self.lost:
            self._drain = self.loop.create_future()
            await self._drain

    def write(self, data: bytes) -> None:
        """Write unless the client is gone."""
        if not self.lost and self.transport is not None:
            self.transport.write(data)

    def close(self) -> None:
        """Close the connection (what was written still goes out first)."""
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def shut(self) -> None:
        """At shutdown: close now if idle, else once the answer in progress is done."""
        self.closing = True
        if self.active is None:
            self.close()

    def _refuse(self, why: bytes) -> None:
        """400 and close; after the request in progress, if there is one (its answer comes first)."""
        self.close_after = True
        if self.active is not None:
            if self.transport is not None:
                self.transport.pause_reading()
            return
        head = b"HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain; charset=utf-8\r\n"
        self.write(head + b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(why), why))
        self.close()

    # -- parser callbacks --------------------------------------------------------------------------
    def on_message_begin(self) -> None:
        self.parsing = Request(self)

    def on_url(self, url: bytes) -> None:
        self.parsing.url += url  # type: ignore[union-attr]

    def on_header(self, name: bytes, value: bytes) -> None:
        self.parsing.headers[name.lower()] = value  # type: ignore[union-attr]

    def on_headers_complete(self) -> None:
        request = self.parsing
        assert request is not None
        if self._idle is not None:  # the idle time runs until a request's head is in (a slow one: closed)
            self._idle.cancel()
            self._idle = None
        request.method = self.parser.get_method().decode("ascii")
        request.keep_alive = self.parser.should_keep_alive()
        request.http10 = self.parser.get_http_version() == "1.0"
        path = request.url.partition(b"?")[0].decode("latin-1")
        request.path = unquote(path) if "%" in path else path
        if self.active is None:
            self._start(request)
        else:  # pipelined: it waits its turn, and nothing more is read meanwhile
            self.waiting.append(request)
            if self.transport is not None:
                self.transport.pause_reading()

    def on_body(self, body: bytes) -> None:
        self.parsing._feed(body)  # type: ignore[union-attr]

    def on_message_complete(self) -> None:
        self.parsing._end()  # type: ignore[union-attr]

    # -- running handlers --------------------------------------------------------------------------
    def _start(self, request: Request) -> None:
        self.active = request
        request.task = self.loop.create_task(self._run(request))

    async def _run(self, request: Request) -> None:
        try:
            await self.app.handle(request)
        except Exception:  # a bug in a handler: answered 500 and logged, the server goes on
            log.exception("gateway: %s %s failed", request.method, request.path)
            if not request.answered:
                request.answer(500, b"Internal Server Error", b"text/plain; charset=utf-8")
            self.close_after = True
        self._finished(request)

    def _finished(self, request: Request) -> None:
        self.active = None
        if self.lost:
            return
        if self.close_after or self.closing or not request.keep_alive or not request._complete:
            self.close()  # the rest of an unread body cannot be told from the next request: close
            return
        if self.transport is not None and len(self.waiting) <= 1:
            self.transport.resume_reading()  # the next one's body may still be on its way
        if self.waiting:
            self._start(self.waiting.popleft())
            return
        self._idle = self.loop.call_later(IDLE_SECONDS, self.close)


def run(app: App, sock: socket.socket, max_body: int, grace: float = 5.0) -> None:
    """Serve `app` on the listening `sock` until SIGINT or SIGTERM, then let the answers in progress
    finish (up to `grace` seconds; a second signal: at once). On uvloop when it is installed: it costs
    a request about half the CPU of the plain asyncio loop."""
    try:
        import uvloop  # noqa: PLC0415 - the gateway extra's event loop

        factory = uvloop.new_event_loop
    except ImportError:  # pragma: no cover - without the extra's loop, the standard one
        factory = None
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(_serve(app, sock, max_body, grace))


async def _serve(app: App, sock: socket.socket, max_body: int, grace: float) -> None:
    loop = asyncio.get_running_loop()
    stop, hurry = asyncio.Event(), asyncio.Event()

    def on_signal() -> None:
        (hurry if stop.is_set() else stop).set()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, on_signal)
    await app.start()
    connections: set[Connection] = set()
    server = await loop.create_server(lambda: Connection(app, max_body, connections), sock=sock)
    try:
        await stop.wait()
    finally:
        server.close()
        for conn in list(connections):
            conn.shut()
        deadline = loop.time() + grace
        while connections and loop.time() < deadline and not hurry.is_set():
            await asyncio.sleep(0.05)
        for conn in list(connections):
            conn.close()  # a stream still running is cancelled as its client's connection goes
            if conn.active is not None and conn.active.task is not None:
                conn.active.task.cancel()
        await app.close()
