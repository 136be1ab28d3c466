"""A lean HTTP/1.1 client for the chat request on plain HTTP: kept-alive connections over asyncio Protocols.

The gateway makes one upstream request per request it answers, and `httpx2`'s stack (client, `httpcore`,
`h11`, `anyio`) spent about half the gateway's CPU on it. This client does only what that request needs:
a POST with a `Content-Length` body, a reply framed by `Content-Length`, chunked encoding or the end of
the connection (gzip or deflate decoded), read whole or line by line as it streams, each wait for data
bounded by a read timeout; connections go back to a pool when their reply was read to the end.

Its failures are `httpx2`'s own exceptions (`ConnectError`, `ConnectTimeout`, `ReadTimeout`,
`ReadError`, `RemoteProtocolError`, with the operating system's error as their cause), so callers
handle both paths alike. It speaks neither TLS nor proxies: `lean_eligible` says when a URL may use it
(plain `http`, no proxy configured for it); every other URL stays with `httpx2`.
"""

from __future__ import annotations

import asyncio
import codecs
import urllib.request
import zlib
from collections.abc import AsyncIterator, Mapping
from typing import cast
from urllib.parse import urlsplit

import httpx2

__all__ = ["Http1Pool", "Http1Response", "lean_eligible"]

_MAX_IDLE = 100
"""Idle connections kept per pool."""
_MAX_HEAD = 64 * 1024
"""Largest status line and headers accepted."""
_HIGH_WATER = 1024 * 1024
"""Unread bytes at which the socket stops being read until the reader catches up."""


def lean_eligible(url: str) -> bool:
    """Whether requests to `url` may use this client: plain HTTP, and no HTTP proxy configured
    (`httpx2` honours `HTTP_PROXY` / `ALL_PROXY` and their `NO_PROXY` exceptions: with a proxy set,
    every URL stays with it)."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "http" or not parts.hostname:
        return False
    proxies = urllib.request.getproxies_environment()
    return not (proxies.get("http") or proxies.get("all"))


class _Connection(asyncio.Protocol):
    """One TCP connection: what arrived, and a future to wake the reader."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.closed = False
        self.error: BaseException | None = None
        self.paused = False
        self._waiter: asyncio.Future[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Keep the transport."""
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass of asyncio's

    def data_received(self, data: bytes) -> None:
        """Buffer `data` and wake the reader."""
        self.buffer += data
        if len(self.buffer) > _HIGH_WATER and self.transport is not None and not self.paused:
            self.paused = True
            self.transport.pause_reading()
        self._wake()

    def eof_received(self) -> bool:
        """The server closed its side: nothing more will come."""
        self.closed = True
        self._wake()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone (an error, or closed)."""
        self.closed = True
        self.error = exc
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def wait(self, timeout: float | None) -> None:
        """Until more data arrives or the connection ends; `httpx2.ReadTimeout` after `timeout` seconds."""
        if self.closed:
            if isinstance(self.error, OSError):
                raise httpx2.ReadError(str(self.error) or type(self.error).__name__) from self.error
            raise httpx2.RemoteProtocolError("the server closed the connection before the reply was complete")
        if self.paused and self.transport is not None:
            self.paused = False
            self.transport.resume_reading()
        loop = asyncio.get_running_loop()
        waiter = self._waiter = loop.create_future()
        timer = loop.call_later(timeout, _expire, waiter) if timeout is not None else None
        try:
            await waiter
        finally:
            self._waiter = None
            if timer is not None:
                timer.cancel()

    def take(self, size: int) -> bytes:
        """The first `size` buffered bytes, removed from the buffer."""
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data

    def close(self) -> None:
        """Drop the connection."""
        self.closed = True
        if self.transport is not None:
            self.transport.close()


def _expire(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_exception(httpx2.ReadTimeout("no data within the read timeout"))


class Http1Pool:
    """Kept-alive HTTP/1.1 connections to one plain-HTTP server, and the POSTs sent over them."""

    def __init__(self, base_url: str, *, headers: Mapping[str, str], connect_timeout: float) -> None:
        parts = urlsplit(base_url)
        self._host, self._port = parts.hostname or "localhost", parts.port or 80
        authority = parts.netloc.rpartition("@")[2]
        lines = [f"Host: {authority}", *(f"{name}: {value}" for name, value in headers.items())]
        self._head = "\r\n".join([*lines, "Connection: keep-alive"])
        self._connect_timeout = connect_timeout
        self._idle: list[_Connection] = []

    async def post(self, target: str, body: bytes, *, read_timeout: float | None) -> Http1Response:
        """POST `body` to `target` (a path) and read the reply's status and headers."""
        request = f"POST {target} HTTP/1.1\r\n{self._head}\r\nContent-Length: {len(body)}\r\n\r\n"
        data = request.encode("latin-1") + body
        while self._idle:
            connection = self._idle.pop()
            if connection.closed or connection.buffer:
                connection.close()
                continue
            response = await self._exchange(connection, data, read_timeout, reused=True)
            if response is not None:
                return response
        response = await self._exchange(await self._connect(), data, read_timeout, reused=False)
        assert response is not None  # a new connection never asks for another try
        return response

    async def _exchange(
        self, connection: _Connection, data: bytes, read_timeout: float | None, *, reused: bool
    ) -> Http1Response | None:
        """Send the request and read the reply's head; None when a kept-alive connection turned out
        closed before any byte of a reply came (the server dropped it while idle: try another)."""
        assert connection.transport is not None
        try:
            connection.transport.write(data)
            while b"\r\n\r\n" not in connection.buffer:
                if len(connection.buffer) > _MAX_HEAD:
                    raise httpx2.RemoteProtocolError("the reply's headers are too long")
                if connection.closed and reused and not connection.buffer:
                    connection.close()
                    return None
                await connection.wait(read_timeout)
        except BaseException:
            connection.close()
            raise
        return Http1Response(self, connection, read_timeout)

    async def _connect(self) -> _Connection:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(self._connect_timeout):
                transport, connection = await loop.create_connection(_Connection, self._host, self._port)
        except TimeoutError:
            raise httpx2.ConnectTimeout("no connection within the connect timeout") from None
        except OSError as exc:
            raise httpx2.ConnectError(str(exc) or type(exc).__name__) from exc
        connection.transport = transport  # uvloop may call `connection_made` only after returning
        return connection

    def release(self, connection: _Connection) -> None:
        """Take back a connection whose reply was read to its end."""
        if connection.closed or connection.buffer or len(self._idle) >= _MAX_IDLE:
            connection.close()
        else:
            self._idle.append(connection)

    async def aclose(self) -> None:
        """Close every idle connection."""
        while self._idle:
            self._idle.pop().close()


class Http1Response:
    """A reply being read: `status_code`, `headers` (lower-case names), then its body."""

    def __init__(self, pool: Http1Pool, connection: _Connection, read_timeout: float | None) -> None:
        self._pool, self._connection, self._timeout = pool, connection, read_timeout
        end = connection.buffer.index(b"\r\n\r\n")
        head = connection.take(end + 4).decode("latin-1").split("\r\n")
        status = head[0].split(" ", 2)
        if len(status) < 2 or not status[0].startswith("HTTP/") or not status[1].isdigit():
            connection.close()
            raise httpx2.RemoteProtocolError(f"not an HTTP reply: {head[0][:80]!r}")
        self.status_code = int(status[1])
        self.headers: dict[str, str] = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            if name:
                key = name.strip().lower()
                value = value.strip()
                self.headers[key] = f"{self.headers[key]}, {value}" if key in self.headers else value
        self._keep = status[0] != "HTTP/1.0" and "close" not in self.headers.get("connection", "").lower()
        self._chunked = "chunked" in self.headers.get("transfer-encoding", "").lower()
        length = self.headers.get("content-length", "")
        self._left: int | None = int(length) if length.isdigit() and not self._chunked else None
        encoding = self.headers.get("content-encoding", "").lower()
        # gzip (47: the gzip header) or deflate (zlib's); we never ask for either, some servers send them.
        self._inflate = (
            zlib.decompressobj(47 if "gzip" in encoding else 15)
            if "gzip" in encoding or "deflate" in encoding
            else None
        )
        self._done = False

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The body as it arrives, decoded from its transfer and content encodings."""
        try:
            async for piece in self._raw():
                data = self._inflate.decompress(piece) if self._inflate is not None else piece
                if data:
                    yield data
        except zlib.error as exc:
            raise httpx2.DecodingError(f"the reply's body could not be decoded: {exc}") from exc
        if self._inflate is not None and (rest := self._inflate.flush()):
            yield rest

    async def aread(self) -> bytes:
        """The whole body."""
        return b"".join([piece async for piece in self.aiter_bytes()])

    async def aiter_lines(self) -> AsyncIterator[str]:
        """The body's lines as text (UTF-8), without their ends (`\\n`, `\\r\\n` or `\\r`)."""
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        pending = ""
        async for piece in self.aiter_bytes():
            text = pending + decoder.decode(piece)
            lines = text.splitlines(keepends=True)
            # The last line may not be finished (nor a `\r` whose `\n` is still on its way).
            pending = lines.pop() if lines and not lines[-1].endswith("\n") else ""
            for line in lines:
                yield line.rstrip("\r\n")
        text = pending + decoder.decode(b"", final=True)
        for line in text.splitlines():
            yield line

    async def aclose(self) -> None:
        """Give the connection back when the body was read to its end, else drop it."""
        if self._done and self._keep:
            self._pool.release(self._connection)
        else:
            self._connection.close()
        self._done = True
        self._keep = False

    async def _raw(self) -> AsyncIterator[bytes]:
        if self._chunked:
            async for piece in self._chunks():
                yield piece
        elif self._left is not None:
            async for piece in self._sized():
                yield piece
        else:
            self._keep = False  # the body ends with the connection
            async for piece in self._until_close():
                yield piece
        self._done = True

    async def _sized(self) -> AsyncIterator[bytes]:
        connection = self._connection
        while self._left:
            if not connection.buffer:
                await connection.wait(self._timeout)
            piece = connection.take(min(self._left, len(connection.buffer)))
            self._left -= len(piece)
            yield piece

    async def _until_close(self) -> AsyncIterator[bytes]:
        connection = self._connection
        while True:
            if connection.buffer:
                yield connection.take(len(connection.buffer))
            elif connection.closed:
                return
            else:
                await connection.wait(self._timeout)

    async def _chunks(self) -> AsyncIterator[bytes]:
        connection = self._connection
        while True:
            line = (await self._line()).split(b";", 1)[0].strip()
            try:
                size = int(line, 16)
            except ValueError:
                raise httpx2.RemoteProtocolError(f"a malformed chunk size: {line[:20]!r}") from None
            if size == 0:
                while await self._line():  # trailers, up to the blank line
                    pass
                return
            while len(connection.buffer) < size + 2:  # the chunk and the line end after it
                await connection.wait(self._timeout)
            yield connection.take(size)
            if connection.take(2) != b"\r\n":
                raise httpx2.RemoteProtocolError("a chunk does not end where its size says")

    async def _line(self) -> bytes:
        connection = self._connection
        while (end := connection.buffer.find(b"\r\n")) < 0:
            if len(connection.buffer) > _MAX_HEAD:
                raise httpx2.RemoteProtocolError("a chunk size line is too long")
            await connection.wait(self._timeout)
        return connection.take(end + 2)[:-2]
