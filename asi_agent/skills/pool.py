"""The skill router's similarity step: a query's vector against every passage, pooled per skill.

A skill's passages lie side by side in the matrix (its whole routing text first), then the no-skill
anchors. Per skill the pooled similarity blends the whole text's with the best passage's; the ranking does
the same with each passage's similarity to the average request partly taken off (`asi_agent.skills.centre`).
Passages from the body's sections count a little less (`RouterConfig.section_discount`). With numpy the
step is a handful of vector operations over all passages, so more passages per skill cost next to nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

__all__ = ["Index", "Pooling", "as_matrix", "pool_arrays", "pool_lists", "similarities"]


@dataclass
class Index:
    """The passage vectors of a set of skills and what the pooling needs beside them."""

    owners: list[int] = field(default_factory=list)
    """For each passage, the index of its skill."""
    whole: list[int] = field(default_factory=list)
    """For each skill, the index of its whole-text passage."""
    matrix: Any = None
    """Passage vectors (numpy array, or a list of lists without numpy)."""
    hubs: tuple[Any, Any] = ([], [])
    """For each passage, its similarity to the average request in English and in Chinese (arrays with
    numpy)."""
    sections: Any = None
    """For each passage, 1 if it comes from the body's sections, else 0 (an array with numpy)."""
    skill_passages: int = 0
    """How many passages belong to skills (the no-skill anchors follow them)."""


class Pooling(NamedTuple):
    """The router's weights the pooling reads (`RouterConfig`)."""

    hub: float
    """Share of the similarity to the average request taken off, in the ranking."""
    whole: float
    """Weight of the whole text's similarity against the best passage's, in the similarity."""
    rank_whole: float
    """The same in the ranking."""
    section: float
    """Taken off a section passage's similarity in the ranking."""
    section_decision: float
    """Taken off a section passage's similarity in the similarity the decision reads."""


Pooled = tuple[list[float], list[float], float, float]
"""Per skill the similarity and the ranking score, the best anchor's and the best skill passage's
similarity."""


def pool_lists(index: Index, vector: list[float], weights: Pooling, *, cjk: bool) -> Pooled:
    """Per skill the similarity and the ranking score, the best anchor's and the best skill passage's
    similarity; in plain Python (no numpy installed)."""
    raw, hub = similarities(index.matrix, vector), index.hubs[1 if cjk else 0]
    sims = [s - weights.section_decision * m for s, m in zip(raw, index.sections, strict=True)]
    sharp = [
        s - weights.section * m - weights.hub * h for s, m, h in zip(raw, index.sections, hub, strict=True)
    ]
    count = len(index.whole)
    best, best_sharp = [-1.0] * count, [-math.inf] * count
    for passage, owner in enumerate(index.owners[: index.skill_passages]):
        best[owner] = max(best[owner], sims[passage])
        best_sharp[owner] = max(best_sharp[owner], sharp[passage])
    anchor = max(sims[index.skill_passages :], default=-1.0)
    w, wr, whole = weights.whole, weights.rank_whole, index.whole
    similarity = [w * sims[whole[i]] + (1 - w) * best[i] for i in range(count)]
    ranking = [wr * sharp[whole[i]] + (1 - wr) * best_sharp[i] for i in range(count)]
    return similarity, ranking, anchor, max(best)


def pool_arrays(index: Index, vector: list[float], weights: Pooling, *, cjk: bool) -> Pooled:
    """`pool_lists` in numpy: a skill's passages lie side by side (its whole text first), so each
    skill's best passage is one `maximum.reduceat` (no Python loop over thousands of passages)."""
    import numpy  # noqa: PLC0415

    raw = _dots(index.matrix, vector)
    sims = raw - weights.section_decision * index.sections
    sharp = raw - weights.section * index.sections - weights.hub * index.hubs[1 if cjk else 0]
    own, starts = index.skill_passages, index.whole
    best = numpy.maximum.reduceat(sims[:own], starts)
    best_sharp = numpy.maximum.reduceat(sharp[:own], starts)
    w, wr = weights.whole, weights.rank_whole
    similarity = w * sims[starts] + (1 - w) * best
    ranking = wr * sharp[starts] + (1 - wr) * best_sharp
    anchor = float(sims[own:].max()) if len(sims) > own else -1.0
    return similarity.tolist(), ranking.tolist(), anchor, float(best.max())


def as_matrix(rows: Sequence[Any]) -> Any:
    """`rows` as a float32 numpy array, or as they are without numpy."""
    try:
        import numpy  # noqa: PLC0415 - installed with the local embedder
    except ImportError:
        return rows
    return numpy.asarray(rows, dtype=numpy.float32)


def similarities(matrix: Any, vector: list[float]) -> list[float]:
    """Dot products of unit vectors (cosine similarities)."""
    if isinstance(matrix, list):
        return [sum(a * b for a, b in zip(row, vector, strict=False)) for row in matrix]
    result: list[float] = _dots(matrix, vector).tolist()
    return result


def _dots(matrix: Any, vector: list[float]) -> Any:
    """`_similarities` as a numpy array, for a numpy `matrix`."""
    import numpy  # noqa: PLC0415

    # einsum, not `@`: a matrix-vector product this small costs well under a millisecond in one thread,
    # while BLAS wakes its thread pool, whose spinning threads then slow the next query's embedding (25 ms
    # against 1 ms here on a busy two-core machine).
    return numpy.einsum("ij,j->i", matrix, numpy.asarray(vector, dtype=numpy.float32))
