"""Watching a reply while it streams, and naming why it ended.

A model caught in a loop repeats the same line until the token limit, and a server that ignores
`max_tokens` never stops at all. `StreamGuard` sees every streamed fragment (text and call
arguments alike) and tells the backend to cut the stream when the tail of the reply is one short
unit repeated over and over, or when the reply runs far past the token limit. `cut_reason` turns a
server's `finish_reason` / `done_reason` into the normalised values of `Completion.finish_reason`.
"""

from __future__ import annotations

from asi_agent.messages import Usage

__all__ = ["CONTEXT_FULL", "LENGTH", "REPETITION", "StreamGuard", "cut_reason"]

LENGTH = "length"
"""The reply hit the token limit (`max_tokens` / `num_predict`)."""
CONTEXT_FULL = "context_full"
"""The reply hit the end of the context window: prompt and reply fill it."""
REPETITION = "repetition"
"""The client cut a reply that kept repeating itself."""

_REPEAT_SPAN = 1200  # this many trailing characters ...
_MAX_UNIT = 300  # ... made of one unit of at most this many characters repeated
_CHECK_EVERY = 200  # characters of growth between two repetition checks
_WINDOW = _REPEAT_SPAN + _MAX_UNIT
_OVERRUN_FACTOR = 2  # the estimate is rough: cut only far past the limit
_OVERRUN_SLACK = 64
_CONTEXT_MARGIN = 64  # tokens: a reply stopping this far below the token limit was stopped by the context
_ROOM = 256  # tokens a continuation needs at least
# Other servers' words for the same stops (Mistral's `model_length`, proxies passing Anthropic's names).
_SYNONYMS = {
    "max_tokens": LENGTH,
    "model_length": CONTEXT_FULL,
    "model_context_window_exceeded": CONTEXT_FULL,
}


class StreamGuard:
    """Decides, fragment by fragment, whether a streaming reply must be cut (see the module docstring)."""

    def __init__(self, max_tokens: int | None) -> None:
        self._limit = None if max_tokens is None else max_tokens * _OVERRUN_FACTOR + _OVERRUN_SLACK
        self._tail = ""
        self._weight = 0
        self._unchecked = 0

    def feed(self, fragment: str) -> str | None:
        """Take one fragment; the reason to cut the stream now (`REPETITION`, `LENGTH`), or None."""
        if not fragment:
            return None
        # Counted over the whole reply (fragments are often shorter than a token): ~4 ASCII characters
        # per token, ~1 token per other character, as `estimate_tokens`.
        ascii_count = len(fragment.encode("ascii", "ignore"))
        self._weight += ascii_count + 4 * (len(fragment) - ascii_count)
        if self._limit is not None and self._weight // 4 > self._limit:
            return LENGTH
        self._tail = (self._tail + fragment)[-_WINDOW:]
        self._unchecked += len(fragment)
        if self._unchecked >= _CHECK_EVERY:
            self._unchecked = 0
            if repeats_itself(self._tail):
                return REPETITION
        return None


def repeats_itself(text: str) -> bool:
    """Whether the last `_REPEAT_SPAN` characters are one unit of ≤ `_MAX_UNIT` characters repeated."""
    if len(text) < _REPEAT_SPAN + 1:
        return False
    tail, last = text[-_REPEAT_SPAN:], text[-1]
    for unit in range(1, min(_MAX_UNIT, len(text) - _REPEAT_SPAN) + 1):
        # The tail equals itself shifted by `unit`: it is periodic with that period. (The one-character
        # test first keeps a check at ~20 µs instead of ~300 µs.)
        if text[-1 - unit] == last and tail == text[-_REPEAT_SPAN - unit : -unit]:
            return True
    return False


def cut_reason(reason: str | None, usage: Usage, *, max_tokens: int | None, n_ctx: int | None) -> str | None:
    """The normalised finish reason: a `length` that the context window (not the token limit) caused,
    or after which no continuation would fit, becomes `CONTEXT_FULL`; other reasons pass through."""
    reason = _SYNONYMS.get(reason or "", reason)
    if reason != LENGTH:
        return reason
    used = usage.prompt_tokens + usage.completion_tokens
    if n_ctx is not None and used > 0 and used + _ROOM >= n_ctx:
        return CONTEXT_FULL
    if max_tokens is not None and 0 < usage.completion_tokens < max_tokens - _CONTEXT_MARGIN:
        # Stopped well before the token limit: the server's context (or its own cap) ended the reply.
        return CONTEXT_FULL
    return LENGTH
