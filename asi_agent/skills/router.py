"""The semantic skill router (the routing spec): top-K skills by similarity, then take, let the model choose,
or none.

Each skill's routing text (name, description, examples, capabilities, triggers) is cut into passages (the
whole text, each sentence, each example); a query's score for a skill is the best cosine similarity of the
query to one of its passages, blended with the whole text's. The decision looks at the best score and at
how far it stands out from the rest (its z-score over all skills): a query that fits no skill scores about
the same everywhere. Without an embedder the same is done with BM25 over the same texts (labelled
`lexical`). `asi-agent skills route` and the agent call the same `SkillRouter.route`.
"""

from __future__ import annotations

import math
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from asi_agent.events import report_progress
from asi_agent.routing import tokenize
from asi_agent.skills.anchors import NONE_ANCHORS
from asi_agent.skills.skill import Skill
from asi_agent.skills.vectors import Embedder, VectorCache, batched, text_hash

__all__ = ["Candidate", "Decision", "Route", "RouterConfig", "SkillRouter"]

Decision = Literal["take", "choose", "none"]
_SENTENCE = re.compile(r"(?<=[.!?。！？;；])\s+|(?<=[。！？；])|\n+")
_K1, _B = 1.2, 0.75
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True, slots=True, kw_only=True)
class RouterConfig:
    """The router's thresholds (tuned on `bench/skills/dev.jsonl`, never on the held-out queries)."""

    top_k: int = 3
    """Candidates the model chooses among when no skill is taken directly."""
    take: float = 0.88
    """Best similarity at or above which the skill is taken without asking the model..."""
    take_margin: float = 0.03
    """...when it leads the second by at least this much."""
    floor: float = 0.80
    """Best similarity below which no skill fits ("none")."""
    z_floor: float = 0.0
    """Best score's z-score over all skills below which no skill stands out ("none")."""
    whole_weight: float = 0.5
    """Weight of the whole routing text's similarity against the best single passage's."""
    anchor_margin: float = -0.005
    """"none" when a no-skill anchor (`asi_agent.skills.anchors`) scores within this of the best skill."""
    anchor_margin_cjk: float = -0.07
    """The same for a query in Chinese: it lies closer to any Chinese anchor than to the (mostly English)
    skill descriptions, so an anchor must lead by more."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One ranked skill."""

    name: str
    score: float


@dataclass(frozen=True, slots=True)
class Route:
    """The router's answer for one query."""

    query: str
    candidates: list[Candidate]
    decision: Decision
    skill: str | None
    """The skill taken (decision `take`), else None."""
    method: str
    """The embedder's name, or `lexical (BM25)`."""
    milliseconds: float
    standout: float = 0.0
    """The best score's z-score over all skills."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (`asi-agent skills route --json`)."""
        return {
            "query": self.query,
            "decision": self.decision,
            "skill": self.skill,
            "candidates": [{"name": c.name, "score": round(c.score, 4)} for c in self.candidates],
            "method": self.method,
            "standout": round(self.standout, 3),
            "milliseconds": round(self.milliseconds, 2),
        }


@dataclass
class _Index:
    owners: list[int] = field(default_factory=list)
    """For each passage, the index of its skill."""
    whole: list[int] = field(default_factory=list)
    """For each skill, the index of its whole-text passage."""
    matrix: Any = None
    """Passage vectors (numpy array, or a list of lists without numpy)."""


class SkillRouter:
    """Ranks a set of skills against queries; the skills' vectors are computed once (and cached)."""

    def __init__(
        self,
        skills: Sequence[Skill],
        *,
        embedder: Embedder | None,
        cache: VectorCache | None = None,
        config: RouterConfig | None = None,
    ) -> None:
        self.skills = list(skills)
        self.embedder, self.cache = embedder, cache
        self.config = config or RouterConfig()
        self._index: _Index | None = None
        self._bm25: _Bm25 | None = None

    @property
    def method(self) -> str:
        """How queries are matched: the embedder's name, or lexical."""
        return self.embedder.name if self.embedder is not None else "lexical (BM25)"

    def route(self, query: str, top_k: int | None = None) -> Route:
        """The ranked candidates (top K) and the decision for `query`."""
        started = time.perf_counter()
        scores, anchor = self._scored(query)
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        k = top_k or self.config.top_k
        candidates = [Candidate(self.skills[i].name, scores[i]) for i in order[:k]]
        standout = _standout(scores, order)
        margin = self.config.anchor_margin_cjk if _CJK.search(query) else self.config.anchor_margin
        decision = self._decide(scores, order, standout, anchor + margin)
        skill = candidates[0].name if decision == "take" else None
        elapsed = (time.perf_counter() - started) * 1000
        return Route(query, candidates, decision, skill, self.method, elapsed, standout)

    def ranked(self, query: str) -> list[Candidate]:
        """Every skill, best first."""
        scores = self.scores(query)
        return sorted(
            (Candidate(s.name, scores[i]) for i, s in enumerate(self.skills)), key=lambda c: -c.score
        )

    def scores(self, query: str) -> list[float]:
        """One score per skill, in the skills' order."""
        return self._scored(query)[0]

    def _scored(self, query: str) -> tuple[list[float], float]:
        """The skills' scores, and the best no-skill anchor's (-1 without an embedder)."""
        if not self.skills:
            return [], -1.0
        if self.embedder is None:
            return self._lexical().scores(query), -1.0
        index = self._vectors()
        (vector,) = self.embedder.embed([query], kind="query")
        sims = _similarities(index.matrix, vector)
        best = [-1.0] * len(self.skills)
        anchor = -1.0
        for passage, owner in enumerate(index.owners):
            if owner < 0:
                anchor = max(anchor, sims[passage])
            else:
                best[owner] = max(best[owner], sims[passage])
        w = self.config.whole_weight
        return [w * sims[index.whole[i]] + (1 - w) * best[i] for i in range(len(self.skills))], anchor

    def _decide(
        self, scores: Sequence[float], order: Sequence[int], standout: float, anchor: float
    ) -> Decision:
        """`anchor`: the best no-skill anchor's score plus its margin (below zero: the lead it needs)."""
        if not order:
            return "none"
        config, top = self.config, scores[order[0]]
        if self.embedder is None:  # BM25 scores have no fixed scale: only the stand-out counts
            return "none" if top <= 0 or standout < config.z_floor else "choose"
        if top < config.floor or standout < config.z_floor or anchor >= top:
            return "none"
        second = scores[order[1]] if len(order) > 1 else -1.0
        if top >= config.take and top - second >= config.take_margin:
            return "take"
        return "choose"

    def _vectors(self) -> _Index:
        """The passage vectors of every skill, from the cache where it has them."""
        if self._index is not None:
            return self._index
        assert self.embedder is not None
        index, texts = _Index(), list[str]()
        for number, skill in enumerate(self.skills):
            index.whole.append(len(texts))
            for passage in _passages(skill):
                index.owners.append(number)
                texts.append(passage)
        for anchor in NONE_ANCHORS:
            index.owners.append(-1)
            texts.append(anchor)
        keys = [text_hash(t) for t in texts]
        name = self.embedder.name
        known = self.cache.get(name, keys) if self.cache is not None else {}
        missing = sorted({k: t for k, t in zip(keys, texts, strict=True) if k not in known}.items())
        if missing:  # new or changed skills: once, then from the cache
            report_progress(f"embedding {len(missing)} skill passages", name)
            fresh = dict(
                zip([k for k, _ in missing], batched(self.embedder, [t for _, t in missing]), strict=True)
            )
            if self.cache is not None:
                self.cache.put(name, fresh)
            known.update(fresh)
        index.matrix = _matrix([known[k] for k in keys])
        self._index = index
        return index

    def _lexical(self) -> _Bm25:
        if self._bm25 is None:
            self._bm25 = _Bm25([skill.routing_text() for skill in self.skills])
        return self._bm25


def _passages(skill: Skill) -> list[str]:
    """The whole routing text first, then its sentences and examples (each once)."""
    whole = skill.routing_text()
    pieces = [whole, skill.name.replace("-", " ") + ": " + skill.description[:300]]
    pieces += [s.strip() for s in _SENTENCE.split(skill.description) if len(s.strip()) > 12]
    pieces += list(skill.examples) + list(skill.triggers)
    return list(dict.fromkeys(pieces))


def _standout(scores: Sequence[float], order: Sequence[int]) -> float:
    """How many standard deviations the best score lies above the mean of the others."""
    if len(order) < 3:
        return 10.0 if order else 0.0
    rest = [scores[i] for i in order[1:]]
    mean = sum(rest) / len(rest)
    spread = math.sqrt(sum((x - mean) ** 2 for x in rest) / len(rest)) or 1e-9
    return (scores[order[0]] - mean) / spread


def _matrix(rows: list[list[float]]) -> Any:
    try:
        import numpy  # noqa: PLC0415 - installed with the local embedder
    except ImportError:
        return rows
    return numpy.asarray(rows, dtype=numpy.float32)


def _similarities(matrix: Any, vector: list[float]) -> list[float]:
    """Dot products of unit vectors (cosine similarities)."""
    if isinstance(matrix, list):
        return [sum(a * b for a, b in zip(row, vector, strict=False)) for row in matrix]
    import numpy  # noqa: PLC0415

    result: list[float] = (matrix @ numpy.asarray(vector, dtype=numpy.float32)).tolist()
    return result


class _Bm25:
    """BM25 over the skills' routing texts (the fallback when no embedder is installed)."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.docs = [Counter(tokenize(text)) for text in texts]
        self.average = sum(sum(d.values()) for d in self.docs) / max(len(self.docs), 1) or 1.0
        self.frequency = Counter(term for d in self.docs for term in d)

    def scores(self, query: str) -> list[float]:
        total, terms = len(self.docs), Counter(tokenize(query))
        out = []
        for counts in self.docs:
            length, score = sum(counts.values()), 0.0
            for term, weight in terms.items():
                tf = counts.get(term, 0)
                if tf:
                    df = self.frequency[term]
                    idf = math.log(1 + (total - df + 0.5) / (df + 0.5))
                    score += (
                        weight * idf * tf * (_K1 + 1) / (tf + _K1 * (1 - _B + _B * length / self.average))
                    )
            out.append(score)
        return out
