"""Recognising a model server's "the prompt does not fit the context window" error by its message."""

from __future__ import annotations

import re

__all__ = ["looks_like_context_overflow"]

_OVERFLOW = re.compile(
    r"context[ _](size|length|window)|maximum context|context_length_exceeded|exceed_context_size"
    r"|prompt is too long|too many tokens|input length exceeds",
    re.IGNORECASE,
)


def looks_like_context_overflow(message: str) -> bool:
    """Whether a server's error says that the prompt does not fit the model's context window."""
    return bool(_OVERFLOW.search(message))
