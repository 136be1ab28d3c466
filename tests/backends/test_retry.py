"""Retry policy and error helpers shared by the HTTP backends."""

from __future__ import annotations

import email.utils
import time

import pytest

from asi_agent.backends.retry import (
    RetryPolicy,
    TransientError,
    call_with_retries,
    error_text,
    estimate_tokens,
    looks_like_tools_unsupported,
    parse_retry_after,
)
from asi_agent.exceptions import BackendError


def test_backoff_grows_with_jitter_and_retry_after_is_capped():
    policy = RetryPolicy(base_delay=1.0, max_delay=5.0, max_retry_after=10.0)

    assert all(0.5 <= policy.delay(0) <= 1.0 for _ in range(50))
    assert all(2.0 <= policy.delay(2) <= 4.0 for _ in range(50))
    assert all(2.5 <= policy.delay(9) <= 5.0 for _ in range(50))
    assert policy.delay(0, retry_after=3.0) == 3.0
    assert policy.delay(0, retry_after=3600.0) == 10.0


async def test_call_with_retries_repeats_only_transient_errors():
    attempts: list[int] = []

    async def flaky() -> str:
        attempts.append(1)
        if len(attempts) < 3:
            raise TransientError(BackendError("busy"), retry_after=0.0)
        return "ok"

    assert await call_with_retries(flaky, RetryPolicy(max_retries=2)) == "ok"
    assert len(attempts) == 3


async def test_call_with_retries_raises_the_carried_error_when_spent():
    async def down() -> str:
        raise TransientError(BackendError("server down"), retry_after=0.0)

    with pytest.raises(BackendError, match=r"^server down \(gave up after 2 attempts\)$"):
        await call_with_retries(down, RetryPolicy(max_retries=1))


async def test_call_with_retries_lets_other_errors_through_at_once():
    attempts: list[int] = []

    async def refused() -> str:
        attempts.append(1)
        raise BackendError("bad key")

    with pytest.raises(BackendError, match=r"^bad key$"):
        await call_with_retries(refused, RetryPolicy(max_retries=5))
    assert len(attempts) == 1


def test_parse_retry_after_reads_seconds_milliseconds_and_dates():
    later = email.utils.formatdate(time.time() + 30, usegmt=True)

    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after-ms": "250"}) == 0.25
    assert 25 <= (parse_retry_after({"retry-after": later}) or 0) <= 30
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("tools are not supported by this model", True),
        ("registry.ollama.ai/library/gemma:2b does not support tools", True),
        ("Tool calling is unsupported", True),
        ('"auto" tool choice requires --enable-auto-tool-choice; invalid tool_choice', True),
        ("maximum context length exceeded", False),
        ("invalid value for temperature", False),
    ],
)
def test_detects_tools_unsupported_messages(message: str, expected: bool):
    assert looks_like_tools_unsupported(message) is expected


def test_error_text_finds_the_message_and_keeps_one_line():
    assert error_text({"error": {"message": "bad\nthing", "code": "x"}}) == "bad thing"
    assert error_text({"error": "model not found"}) == "model not found"
    assert error_text({"detail": "nope"}) == "nope"
    assert error_text(None, "fallback text") == "fallback text"
    assert len(error_text("x" * 1000)) == 300


def test_estimate_tokens_counts_cjk_characters_as_tokens():
    assert estimate_tokens("abcd" * 10) == 10
    assert estimate_tokens("读取文件") == 4
