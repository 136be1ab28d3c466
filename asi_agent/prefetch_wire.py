"""One HTTP request written by hand on a plain socket, its reply read and buffered by a thread.

The request leaves before anything else is imported (`http.client` is imported by the reading thread,
once the request is on its way); the reply — status, headers, then the body as it streams — waits in
memory for the backend to adopt it (`asi_agent.backends.adopt`) or to abort it. Standard library only.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections import deque
from collections.abc import Sequence
from urllib.parse import urlsplit

__all__ = ["Head", "Sent", "send"]

Head = tuple[int, str, list[tuple[str, str]]]
"""Status, reason phrase and headers of a reply."""
_CONNECT_TIMEOUT = 0.25  # a server that does not accept at once is left to the real request
_READ_SIZE = 65536


def send(
    method: str, url: str, headers: Sequence[tuple[str, str]], body: bytes, *, compared: list[tuple[str, str]]
) -> Sent | None:
    """Send the request (plain HTTP only); None when it cannot be. `compared` is what `Sent.same` checks."""
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        return None
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    lines = [f"{method} {target} HTTP/1.1"]
    lines += [f"{name}: {value}" for name, value in headers if name.lower() != "content-length"]
    lines.append(f"Content-Length: {len(body)}")
    if any("\r" in line or "\n" in line for line in lines):
        raise ValueError("a line break inside the request line or a header")
    data = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
    sock = socket.create_connection((parts.hostname, parts.port or 80), timeout=_CONNECT_TIMEOUT)
    try:
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(data)
    except OSError:
        sock.close()
        raise
    sent = Sent(sock, method, url, compared, body)
    sent.start()
    return sent


class Sent:
    """A request on its way: what was sent, and its reply as it arrives."""

    def __init__(
        self, sock: socket.socket, method: str, url: str, compared: list[tuple[str, str]], body: bytes
    ) -> None:
        self._sock = sock
        self._request = (method, url, compared, body)
        self._ready = threading.Condition()
        self._head: Head | None = None
        self._chunks: deque[bytes] = deque()
        self._done = False
        self._error: str | None = None

    def start(self) -> None:
        """Start reading the reply in a daemon thread (it never holds the process open)."""
        threading.Thread(target=self._read, name="asi-first-request", daemon=True).start()

    def same(self, method: str, url: str, compared: list[tuple[str, str]], body: bytes) -> bool:
        """Whether a request is exactly the one sent (headers as `prefetch._compared` gives them)."""
        return self._request == (method, url, compared, body)

    def head(self, timeout: float | None) -> Head:
        """The reply's status and headers; TimeoutError after `timeout` s, ConnectionError if none came."""
        with self._ready:
            if not self._ready.wait_for(lambda: self._head is not None or self._done, timeout):
                raise TimeoutError("no reply yet")
            if self._head is None:
                raise ConnectionError(self._error or "the connection closed before the reply")
            return self._head

    def chunk(self, timeout: float | None) -> bytes:
        """The next piece of the body (b"" at its end); TimeoutError after `timeout` s without one,
        ConnectionError when the body broke off."""
        with self._ready:
            if not self._ready.wait_for(lambda: bool(self._chunks) or self._done, timeout):
                raise TimeoutError("no data")
            if self._chunks:
                return self._chunks.popleft()
            if self._error is not None:
                raise ConnectionError(self._error)
            return b""

    def abort(self) -> None:
        """Close the connection (the server sees the client hang up and stops)."""
        with contextlib.suppress(OSError):  # already closed by the server
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()

    def _read(self) -> None:
        import http.client  # noqa: PLC0415 - after the request left: off the critical path

        error, received = None, 0
        try:
            response = http.client.HTTPResponse(self._sock, method=self._request[0])
            response.begin()
            with self._ready:
                self._head = (response.status, response.reason, response.getheaders())
                self._ready.notify_all()
            while data := response.read1(_READ_SIZE):
                received += len(data)
                with self._ready:
                    self._chunks.append(data)
                    self._ready.notify_all()
            if response.length:  # `read1` takes a connection closed short of its Content-Length for the end
                raise http.client.IncompleteRead(b"", response.length)
        except http.client.IncompleteRead as exc:
            # In the words of the HTTP library that reads the real request (h11), so both end alike.
            cut = "incomplete chunked read" if response.chunked else f"received {received} bytes, expected "
            cut += "" if response.chunked else str(received + (exc.expected or 0))
            error = f"peer closed connection without sending complete message body ({cut})"
        except (OSError, ValueError, http.client.HTTPException) as exc:
            error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        with self._ready:
            self._done, self._error = True, error
            self._ready.notify_all()
