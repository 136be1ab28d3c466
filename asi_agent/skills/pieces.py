"""The clauses of a long request, each routed as a query of its own beside the whole.

One embedding of a long request dilutes an intent stated in one clause of it (a request that explains
its setting at length and names what it wants in a few words). A request of at least `LONG_EN` characters
(`LONG_ZH` in Chinese, whose characters carry more) is cut at sentence and clause punctuation, Chinese
included; each piece of at least `MIN_PIECE` characters is embedded as a query, and a skill's ranking
score is the whole request's blended with its best over the pieces (`blend`). Short requests are routed
as before, with one embedding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["LONG_EN", "LONG_ZH", "MIN_PIECE", "PIECE_WEIGHT", "blend", "request_pieces"]

LONG_EN = 60
"""Characters from which an English request is also routed by its clauses."""
LONG_ZH = 20
"""The same for a request in Chinese."""
MIN_PIECE = 4
"""Shorter pieces (a bare "OK", a number) are not embedded."""
PIECE_WEIGHT = 0.25
"""Weight of the best piece's ranking score against the whole request's."""
_MAX_PIECES = 8
_SPLIT = re.compile(r"(?<=[.!?;,:])\s+|[。！？；，：\n]+")


def request_pieces(query: str, *, cjk: bool) -> list[str]:
    """The clauses of `query` to embed beside it (none when it is short or has one clause)."""
    text = query.strip()
    if len(text) < (LONG_ZH if cjk else LONG_EN):
        return []
    pieces = [p.strip() for p in _SPLIT.split(text)]
    pieces = list(dict.fromkeys(p for p in pieces if len(p) >= MIN_PIECE and p != text))
    return pieces[:_MAX_PIECES] if len(pieces) > 1 else []


def blend(whole: Sequence[float], pieces: Sequence[Sequence[float]]) -> list[float]:
    """Per skill: the whole request's score blended with the best piece's."""
    if not pieces:
        return list(whole)
    best = [max(column) for column in zip(*pieces, strict=True)]
    return [(1 - PIECE_WEIGHT) * w + PIECE_WEIGHT * b for w, b in zip(whole, best, strict=True)]
