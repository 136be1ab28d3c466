"""Retry policy and error wording shared by the HTTP backends.

A backend's attempt raises `TransientError` for a failure worth trying again (429, 5xx, a lost
connection, a timeout); `call_with_retries` waits with exponential backoff and jitter, honours a
capped `Retry-After`, and raises the `BackendError` the transient error carries once the retries
are spent — or at once when the wait would pass the request's deadline. Every other exception passes
through untouched. An `on_retry` callback hears of every wait (a UI shows "retrying in N s").
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import random
import socket
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from asi_agent.events import report_progress
from asi_agent.exceptions import BackendError

__all__ = [
    "RETRYABLE_STATUSES",
    "RetryCallback",
    "RetryPolicy",
    "TransientError",
    "call_with_retries",
    "call_within",
    "connection_failure",
    "error_text",
    "estimate_tokens",
    "looks_like_tools_unsupported",
    "parse_retry_after",
    "within",
]

T = TypeVar("T")

RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
"""HTTP statuses that say "try again later" rather than "this request is wrong"."""

RetryCallback = Callable[[float, BackendError], None]
"""Told before each wait: the seconds about to be waited and the error that caused it."""

_MAX_MESSAGE = 300
_logger = logging.getLogger("asi_agent.backends.retry")


class TransientError(Exception):
    """A failed attempt that may succeed when repeated; `error` is raised when no retry is left."""

    def __init__(self, error: BackendError, retry_after: float | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to wait before repeating a failed request."""

    max_retries: int = 3
    base_delay: float = 1.0
    max_delay: float = 30.0
    max_retry_after: float = 60.0

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number `retry` (0-based)."""
        if retry_after is not None:
            return max(0.0, min(retry_after, self.max_retry_after))
        backoff = min(self.max_delay, self.base_delay * 2.0**retry)
        # Jitter (between half and all of the backoff) keeps concurrent clients from retrying in lockstep.
        return backoff * (0.5 + random.random() / 2)


async def call_with_retries(
    attempt: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    *,
    deadline: float | None = None,
    on_retry: RetryCallback | None = None,
) -> T:
    """Run `attempt`, repeating it on `TransientError` as `policy` allows.

    `deadline` (a `time.monotonic()` instant) ends the retries early: a wait that would pass it is not
    started, the carried error is raised instead.
    """
    retry = 0
    while True:
        try:
            return await attempt()
        except TransientError as exc:
            if retry >= policy.max_retries:
                tries = "1 attempt" if retry == 0 else f"{retry + 1} attempts"
                raise type(exc.error)(f"{exc.error} (gave up after {tries})") from exc
            wait = policy.delay(retry, exc.retry_after)
            if deadline is not None and time.monotonic() + wait >= deadline:
                raise type(exc.error)(
                    f"{exc.error} (gave up: a retry in {wait:.1f} s would pass the request_timeout)"
                ) from exc
            _logger.info("retrying in %.2f s: %s", wait, exc.error)
            report_progress(f"retrying in {wait:.0f} s", str(exc.error))
            if on_retry is not None:
                on_retry(wait, exc.error)
            await asyncio.sleep(wait)
            report_progress("waiting for the model")
            retry += 1


async def call_within(
    attempt: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    limit: float,
    *,
    late: str,
    on_retry: RetryCallback | None = None,
) -> T:
    """`call_with_retries`, the whole — every attempt and wait — within `limit` seconds (a request's
    `request_timeout`); past it, a `BackendError` saying `late`."""
    deadline = time.monotonic() + limit
    try:
        return await within(
            limit, lambda: call_with_retries(attempt, policy, deadline=deadline, on_retry=on_retry)
        )
    except TimeoutError:
        raise BackendError(late) from None


async def within(seconds: float, work: Callable[[], Awaitable[T]]) -> T:
    """`await work()` under `asyncio.timeout(seconds)`'s rule — past the time the task is cancelled and
    `TimeoutError` raised (a cancellation from elsewhere stays one) — with one timer and no context
    manager: about half the cost, paid on every request."""
    task = asyncio.current_task()
    assert task is not None, "within() runs inside a task"
    cancelling, expired = task.cancelling(), False

    def expire() -> None:
        nonlocal expired
        expired = True
        task.cancel()

    timer = asyncio.get_running_loop().call_later(seconds, expire)
    try:
        result = await work()
    except asyncio.CancelledError:
        if expired and task.uncancel() <= cancelling:
            raise TimeoutError from None
        raise
    finally:
        timer.cancel()
    if expired:  # the time ran out as the work ended: the cancellation asked for is withdrawn
        task.uncancel()
    return result


def parse_retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds asked for by a `Retry-After` (seconds or HTTP date) or `retry-after-ms` header."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return float(millis) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def looks_like_tools_unsupported(message: str) -> bool:
    """Whether a server's 400 message says that native tool definitions are not accepted."""
    low = message.lower()
    # llama.cpp without --jinja: "tools param requires --jinja flag".
    if "tool_choice" in low or ("tool" in low and "jinja" in low):
        return True
    return "tool" in low and ("support" in low or "unsupported" in low)


def error_text(body: Any, fallback: str = "") -> str:
    """The human message inside an error body (`{"error": {"message": ...}}`, `{"error": "..."}`, ...)."""
    message: Any = body
    for _ in range(3):
        if isinstance(message, dict):
            message = message.get("error", message.get("message", message.get("detail")))
        else:
            break
    if not isinstance(message, str) or not message.strip():
        message = fallback or (str(body) if body is not None else "")
    one_line = " ".join(str(message).split())
    return one_line if len(one_line) <= _MAX_MESSAGE else one_line[: _MAX_MESSAGE - 1] + "…"


def connection_failure(exc: BaseException) -> str:
    """Why a connection failed, from the first telling exception in the cause chain."""
    seen: BaseException | None = exc
    for _ in range(10):
        if seen is None:
            break
        if isinstance(seen, ConnectionRefusedError):
            return "connection refused"
        if isinstance(seen, socket.gaierror):
            return "unknown host name"
        seen = seen.__cause__ or seen.__context__
    text = " ".join(str(exc).split())
    return f"connection failed: {text}" if text else "connection failed"


def estimate_tokens(text: str) -> int:
    """A rough token count: ~4 ASCII characters per token, ~1 token per other character (CJK, ...)."""
    non_ascii = len(text) - len(text.encode("ascii", "ignore"))
    return (len(text) - non_ascii) // 4 + non_ascii
