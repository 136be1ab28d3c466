"""The average request, which the router's ranking discounts.

In a small embedding space some skills lie close to nearly every request (those described in general words:
"reviews code", "writes documents") and crowd the top three of requests meant for a more specific skill
(hubness). The ranking therefore subtracts from each passage's similarity to the request a share of its
similarity to the average request (`RouterConfig.hub_weight`), in the manner of cross-domain similarity local
scaling. The average request is estimated from the skills themselves, each phrased as a request (its name and
description, embedded as a query), so it needs no log of past requests. Requests in Chinese lie elsewhere in
the space: for them the average is moved by the difference between the Chinese and the English no-skill
anchors (`asi_agent.skills.anchors`), which say the same things in both languages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from asi_agent.skills.vectors import Embedder, VectorCache, cached_vectors

__all__ = ["Centres", "request_centres"]

Centres = tuple[list[float], list[float]]
"""The average request in English and in Chinese."""
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def request_centres(
    requests: Sequence[str], anchors: Sequence[str], embedder: Embedder, cache: VectorCache | None
) -> Centres:
    """The average of `requests` (the skills as requests) embedded as queries, and the same moved from the
    English `anchors` to the Chinese ones; vectors are cached like the skills' passages."""
    english = _mean(cached_vectors(embedder, cache, list(requests), "query"))
    chinese_anchors = [a for a in anchors if _CJK.search(a)]
    english_anchors = [a for a in anchors if not _CJK.search(a)]
    if not english or not chinese_anchors or not english_anchors:
        return english, english
    vectors = cached_vectors(embedder, cache, [*chinese_anchors, *english_anchors], "query")
    shift = [
        z - e
        for z, e in zip(
            _mean(vectors[: len(chinese_anchors)]), _mean(vectors[len(chinese_anchors) :]), strict=True
        )
    ]
    return english, [x + d for x, d in zip(english, shift, strict=True)]


def _mean(vectors: Sequence[Sequence[float]]) -> list[float]:
    if not vectors:
        return []
    return [sum(column) / len(vectors) for column in zip(*vectors, strict=True)]
