"""The little of ASGI the gateway needs, spoken directly: a request's headers and body, a JSON or text
answer, and an event stream whose last piece ends the body in the same write.

Starlette's routing, request and response objects (and the task group its streaming response starts to
watch for a client going away) cost a request more than this whole module does.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, Awaitable, Callable, MutableMapping
from typing import Any

__all__ = [
    "Receive",
    "Scope",
    "Send",
    "TooLarge",
    "header",
    "read_body",
    "send_json",
    "send_stream",
    "send_text",
]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

_STREAM_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
]


class TooLarge(Exception):
    """The request body is over the limit."""


def header(scope: Scope, name: bytes) -> str | None:
    """The value of the request header `name` (lower case), or None."""
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value).decode("latin-1")
    return None


async def read_body(receive: Receive, limit: int) -> bytes:
    """The whole request body; `TooLarge` past `limit` bytes."""
    message = await receive()
    body = message.get("body", b"")
    if not message.get("more_body"):
        if len(body) > limit:
            raise TooLarge
        return bytes(body)
    pieces, size = [body], len(body)
    while message.get("more_body"):
        message = await receive()
        piece = message.get("body", b"")
        size += len(piece)
        if size > limit:
            raise TooLarge
        pieces.append(piece)
    return b"".join(pieces)


async def send_text(
    send: Send, status: int, body: bytes, content_type: bytes, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    """A whole answer."""
    headers = [(b"content-type", content_type), (b"content-length", b"%d" % len(body)), *(extra or ())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def send_json(send: Send, status: int, content: Any) -> None:
    """A JSON answer, encoded as Starlette's `JSONResponse` encodes it."""
    body = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    await send_text(send, status, body, b"application/json")


async def send_stream(receive: Receive, send: Send, pieces: AsyncGenerator[tuple[str, bool], None]) -> None:
    """An event stream of `pieces` (text, whether it is the last), each sent as it comes; the last one
    ends the body in its own write. Should the client go away, the stream is closed (which stops the
    upstream request behind it)."""
    await send({"type": "http.response.start", "status": 200, "headers": _STREAM_HEADERS})
    task = asyncio.current_task()
    state = {"done": False, "gone": False}

    def watched(message: asyncio.Future[MutableMapping[str, Any]]) -> None:
        if message.cancelled() or message.exception() is not None or state["done"]:
            return
        if message.result().get("type") == "http.disconnect" and task is not None:
            state["gone"] = True
            task.cancel()

    watcher = asyncio.ensure_future(receive())
    watcher.add_done_callback(watched)
    ended = False
    try:
        async for text, last in pieces:
            await send({"type": "http.response.body", "body": text.encode("utf-8"), "more_body": not last})
            if last:
                ended = True
                break
        if not ended:
            await send({"type": "http.response.body", "body": b"", "more_body": False})
    except asyncio.CancelledError:
        if not state["gone"] or task is None:
            raise
        task.uncancel()  # the cancel was ours: the request ends here, quietly
    finally:
        state["done"] = True
        watcher.cancel()
        await pieces.aclose()
