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
        self._done = self._trailers = False

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The body as it arrives, decoded from its transfer and content encodings."""
        try:
            while (piece := self._available()) is not None:
                if not piece:
                    await self._connection.wait(self._timeout)
                    continue
                data = self._inflate.decompress(piece) if self._inflate is not None else piece
                if data:
                    yield data
        except zlib.error as exc:
            raise httpx2.DecodingError(f"the reply's body could not be decoded: {exc}") from exc
        if self._inflate is not None and (rest := self._inflate.flush()):
            yield rest

    async def aread(self) -> bytes:
        """The whole body."""
        if self._inflate is not None:
            return b"".join([piece async for piece in self.aiter_bytes()])
        pieces = []
        while (piece := self._available()) is not None:
            if piece:
                pieces.append(piece)
            else:
                await self._connection.wait(self._timeout)
        return b"".join(pieces)

    async def aiter_lines(self) -> AsyncIterator[str]:
        """The body's lines as text (UTF-8), without their ends (`\\n`, `\\r\\n` or `\\r`).

        One generator over the connection's buffer: each time data arrives, every whole chunk in it is
        unframed and every whole line split off in one pass (a streamed reply's few lines used to cross
        four nested generators each). Bytes split at `\\n` never cut a UTF-8 character in two."""
        if self._inflate is not None:
            async for text in self._decoded_lines():
                yield text
            return
        connection, pending = self._connection, b""
        while (data := self._available()) is not None:
            if not data:
                await connection.wait(self._timeout)
                continue
            *lines, pending = (pending + data).split(b"\n")
            for line in lines:
                if b"\r" in line[:-1]:  # lone `\r` line ends too
                    for part in line.rstrip(b"\r").split(b"\r"):
                        yield part.decode("utf-8", "replace")
                else:
                    yield line.rstrip(b"\r").decode("utf-8", "replace")
        if pending:
            for part in pending.split(b"\r"):
                yield part.decode("utf-8", "replace")

    async def _decoded_lines(self) -> AsyncIterator[str]:
        """`aiter_lines` for a compressed body: decompressed piece by piece, then split."""
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

    def _available(self) -> bytes | None:
        """The body's bytes buffered now, unframed (b"": none yet), or None once the body has ended."""
        if self._done:
            return None
        connection = self._connection
        buffer = connection.buffer
        if self._chunked:
            return self._unchunk(buffer)
        if self._left is None:
            return self._until_end()
        if not self._left:
            self._done = True
            return None
        piece = connection.take(min(self._left, len(buffer)))
        self._left -= len(piece)
        return piece

    def _until_end(self) -> bytes | None:
        """`_available` for a body that ends with the connection."""
        connection = self._connection
        self._keep = False
        if connection.buffer:
            return connection.take(len(connection.buffer))
        if connection.closed:
            self._done = True
            return None
        return b""

    def _unchunk(self, buffer: bytearray) -> bytes | None:
        """Every whole chunk in `buffer`, unframed and removed; None once the last chunk and its
        trailers have been read."""
        pieces, at = [], 0
        while (end := buffer.find(b"\r\n", at)) >= 0:
            if self._trailers:  # after the last chunk: lines up to a blank one
                blank, at = end == at, end + 2
                if blank:
                    self._done = True
                    break
                continue
            line = bytes(buffer[at:end]).split(b";", 1)[0].strip()
            try:
                size = int(line, 16)
            except ValueError:
                raise httpx2.RemoteProtocolError(f"a malformed chunk size: {line[:20]!r}") from None
            if size == 0:
                self._trailers, at = True, end + 2
                continue
            start = end + 2
            if len(buffer) < start + size + 2:
                break  # the chunk (and the line end after it) is still on its way
            if buffer[start + size : start + size + 2] != b"\r\n":
                raise httpx2.RemoteProtocolError("a chunk does not end where its size says")
            pieces.append(bytes(buffer[start : start + size]))
            at = start + size + 2
        if len(buffer) - at > _MAX_HEAD and buffer.find(b"\r\n", at) < 0:
            raise httpx2.RemoteProtocolError("a chunk size line is too long")
        del buffer[:at]
        if pieces:
            return b"".join(pieces)
        return None if self._done else b""

    async def aclose(self) -> None:
        """Give the connection back when the body was read to its end, else drop it."""
        if self._done and self._keep:
            self._pool.release(self._connection)
        else:
            self._connection.close()
        self._done = True
        self._keep = False
