"""An HTTP transport that adopts the run's first chat request when it was sent ahead (`asi_agent.prefetch`).

The backends build their HTTP clients (`httpx` for Ollama, the `openai` SDK's `httpx2`) with this
transport around the normal one. The first chat request that passes through it is shown to
`FirstRequest.claim`: when it is byte for byte the request sent ahead at start-up, the reply already on
its way is returned as this request's response — status and headers included, so the SDK's errors and
our retries behave as they would — and read from memory as it streams; otherwise the request sent ahead
is aborted and this one goes out. Every other request passes straight through.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from asi_agent import prefetch
from asi_agent.prefetch_wire import Sent

__all__ = ["adopting_transport"]


def adopting_transport(lib: Any, chat_path: str, **options: Any) -> Any:
    """A transport of `lib` (the `httpx` or `httpx2` module) that adopts the first request to
    `chat_path` when one was sent ahead; None when this process sent none (use the client's default)."""
    first = prefetch.current()
    if first is None:
        return None
    return _Adopting(lib, lib.AsyncHTTPTransport(**options), first, chat_path)


class _Adopting:
    """Wraps a transport; see the module docstring."""

    def __init__(self, lib: Any, inner: Any, first: prefetch.FirstRequest, chat_path: str) -> None:
        self._lib, self._inner, self._first, self._path = lib, inner, first, chat_path
        self._claimed = False

    async def handle_async_request(self, request: Any) -> Any:
        """Answer the first chat request from the request sent ahead when it is the same one."""
        if self._claimed or request.method != "POST" or not request.url.path.endswith(self._path):
            return await self._inner.handle_async_request(request)
        self._claimed = True
        body = await request.aread()
        headers = [(name.decode("latin-1"), value.decode("latin-1")) for name, value in request.headers.raw]
        sent = self._first.claim(request.method, str(request.url), headers, body)
        if sent is None:
            return await self._inner.handle_async_request(request)
        timeout = (request.extensions.get("timeout") or {}).get("read")
        try:
            status, reason, head = await asyncio.to_thread(sent.head, timeout)
        except TimeoutError:
            sent.abort()
            raise self._lib.ReadTimeout("no reply within the read timeout", request=request) from None
        except ConnectionError:
            # It never answered (e.g. a server restarted since): the real request decides.
            sent.abort()
            return await self._inner.handle_async_request(request)
        return self._lib.Response(
            status,
            headers=head,
            stream=_body_stream(self._lib)(sent, timeout, request),
            request=request,
            extensions={"http_version": b"HTTP/1.1", "reason_phrase": reason.encode("latin-1", "replace")},
        )

    async def aclose(self) -> None:
        """Close the wrapped transport (and the request sent ahead, if never claimed)."""
        if not self._claimed and self._first.sent is not None:
            self._first.sent.abort()
        await self._inner.aclose()

    async def __aenter__(self) -> _Adopting:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class _AdoptedBody:
    """The streamed body of the adopted reply, read from memory; the same timeouts and errors as a socket."""

    def __init__(self, sent: Sent, timeout: float | None, request: Any) -> None:
        self._sent, self._timeout, self._request = sent, timeout, request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        lib = self._lib  # type: ignore[attr-defined]  # set by _body_stream's subclass
        while True:
            try:
                data = await asyncio.to_thread(self._sent.chunk, self._timeout)
            except TimeoutError:
                raise lib.ReadTimeout("no data within the read timeout", request=self._request) from None
            except ConnectionError as exc:
                raise lib.RemoteProtocolError(str(exc), request=self._request) from None
            if not data:
                return
            yield data

    async def aclose(self) -> None:
        """Hang up (a reply cut short must stop on the server too)."""
        self._sent.abort()


_BODY_CLASSES: dict[str, type[_AdoptedBody]] = {}


def _body_stream(lib: Any) -> type[_AdoptedBody]:
    """`_AdoptedBody` as a byte stream of `lib` (httpx and httpx2 each check for their own class)."""
    name = lib.__name__
    if name not in _BODY_CLASSES:
        _BODY_CLASSES[name] = type(f"AdoptedBody_{name}", (_AdoptedBody, lib.AsyncByteStream), {"_lib": lib})
    return _BODY_CLASSES[name]
