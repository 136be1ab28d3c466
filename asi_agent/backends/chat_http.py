"""A streamed Chat Completions request spoken directly over `httpx2`, as the `openai` SDK would read it.

The SDK costs about half a second of imports at start-up and wraps every request in a type transform;
the chat request is plain JSON both ways, so it is sent and read here. The reading follows the SDK's:
an error status becomes `StatusError` (its body parsed, the `error` object inside it preferred), the
body is read as server-sent events up to `data: [DONE]`, and an event carrying an `error` object
(`data: {"error": ...}` or `event: error`) becomes `StreamedError`. Transport failures are `httpx2`'s
own exceptions (`TimeoutException`, `RequestError`), left to the caller.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

from asi_agent import jsonfast
from asi_agent.backends.retry import error_text, within

__all__ = ["StatusError", "StreamedError", "not_an_api", "sse_data", "status_error"]

_DRAIN_SECONDS = 1.0
"""How long the end of a body may take to arrive after `[DONE]` before the connection is dropped."""


def not_an_api(url: str, what: str) -> str:
    """The message for a server that answers, but not as an OpenAI-compatible API (a web page, another
    service on the port, a base URL without its `/v1`)."""
    return (
        f"the server at {url} answers, but not as an OpenAI-compatible API ({what}); check --base-url / "
        "ASI_BASE_URL: it is the API's address, usually ending in /v1 (e.g. http://localhost:8080/v1)"
    )


class StatusError(Exception):
    """The server answered the request with an error status (4xx, 5xx)."""

    def __init__(self, status: int, body: Any, text: str, headers: Mapping[str, str]) -> None:
        self.status, self.body, self.headers = status, body, headers
        self.message = error_text(body, text or f"Error code: {status}")
        """The server's own message, on one line."""
        super().__init__(f"{status}: {self.message}")
        self.html = isinstance(body, str) and body.lstrip()[:1] == "<"
        """The body is a web page (HTML or XML): no API answered."""

    @property
    def code(self) -> str | None:
        """The error object's `code` (e.g. `model_not_found`), when it has one."""
        code = self.body.get("code") if isinstance(self.body, dict) else None
        return code if isinstance(code, str) else None


class StreamedError(Exception):
    """An error event inside the stream: the request was accepted, then the server gave up."""

    def __init__(self, body: Any) -> None:
        message = body.get("message") if isinstance(body, dict) else None
        self.message = error_text(body, message if isinstance(message, str) else "")
        super().__init__(self.message or "an error occurred during streaming")


async def status_error(response: Any) -> StatusError:
    """The `StatusError` of an `httpx2` response with an error status (its body is read here)."""
    text = (await response.aread()).decode("utf-8", "replace").strip()
    try:
        body: Any = json.loads(text)
    except ValueError:
        body = text
    if isinstance(body, dict):
        body = body.get("error", body)
    return StatusError(response.status_code, body, text, response.headers)


async def sse_data(response: Any) -> AsyncIterator[Any]:
    """The JSON data of each event of an `httpx2` streamed response, until `[DONE]` or the end.

    A malformed `data` field raises `json.JSONDecodeError`; an error event raises `StreamedError`.
    """
    event: str | None = None
    data: list[str] = []
    lines = response.aiter_lines()
    async for line in lines:
        if line:
            if not line.startswith(":"):  # a comment (keep-alive ping)
                name, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if name == "event":
                    event = value
                elif name == "data":
                    data.append(value)
            continue
        if not data:  # a blank line ends an event; an event without data is nothing to read
            event = None
            continue
        text, kind = "\n".join(data), event
        event, data = None, []
        if text.startswith("[DONE]"):
            # The body's end follows at once: read it, so the connection goes back to the pool instead
            # of being closed (a new connection per streamed reply costs a connect and a close).
            with contextlib.suppress(TimeoutError):
                await within(_DRAIN_SECONDS, lambda: _drain(lines))
            return
        yield _event_data(jsonfast.loads(text), kind)


async def _drain(lines: AsyncIterator[str]) -> None:
    async for _ in lines:
        pass


def _event_data(value: Any, event: str | None) -> Any:
    plain = event is None or event.startswith(("response.", "transcript."))
    if isinstance(value, dict) and value.get("error") and (plain or event == "error"):
        raise StreamedError(value["error"])
    return value if plain else {"data": value, "event": event}
