"""The semantic skill router (the routing spec): top-K skills by similarity, then take, let the model choose,
or none.

Each skill's routing text (name, description, examples, capabilities, triggers) is cut into passages (the
whole text, each sentence, each example, and the hints of `asi_agent.skills.hints`: the clauses of "Use
when ...", the body's title and "When to use" bullets); a query's similarity to a skill is the best cosine
similarity to one of its passages, blended with the whole text's. Candidates are ordered by the same blend
with each passage's similarity to the average request partly taken off (`asi_agent.skills.centre`: skills
described in general words otherwise crowd out the specific one meant), plus a small share of BM25 over the
same texts (names and rare words an embedding blurs). The decision reads the plain similarity, moved by
how far the query's nearest skill passage stands above its nearest no-skill anchor
(`asi_agent.skills.anchors`, in the manner of a nearest-neighbour vote), how far the best skill leads the
second, the request's length, and the share of its wording the candidates' own texts lack
(`asi_agent.skills.lexical`: a tool or product beside a skill's field), with the weights of a logistic
regression fitted on the seen query sets (`asi_agent.skills.decision`): below a floor, no skill fits.
Without an embedder BM25 alone ranks (labelled `lexical`). `asi-agent skills route` and the agent call the
same `SkillRouter.route`.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from asi_agent.skills.anchors import NONE_ANCHORS
from asi_agent.skills.centre import request_centres
from asi_agent.skills.decision import Evidence, Weights, fitted_weights, log_length
from asi_agent.skills.hints import description_clauses
from asi_agent.skills.lexical import Bm25
from asi_agent.skills.pool import Index, Pooling, as_matrix, pool_arrays, pool_lists, similarities
from asi_agent.skills.skill import Skill
from asi_agent.skills.vectors import Embedder, VectorCache, cached_vectors

__all__ = ["Candidate", "Decision", "Route", "RouterConfig", "SkillRouter"]

Decision = Literal["take", "choose", "none"]
_SENTENCE = re.compile(r"(?<=[.!?。！？;；])\s+|(?<=[。！？；])|\n+")
_RECENT = 32
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True, slots=True, kw_only=True)
class RouterConfig:
    """The router's thresholds, tuned on the sets already seen (`bench/skills/dev*.jsonl` and
    `heldout.jsonl` to `heldout8.jsonl`), never on the one still sealed."""

    top_k: int = 3
    """Candidates the model chooses among when no skill is taken directly."""
    take: float = 0.88
    """Best similarity at or above which the skill is taken without asking the model..."""
    take_margin: float = 0.03
    """...when it leads the second by at least this much."""
    decision: Weights | None = None
    """The weights and floors of the "none" decision (`asi_agent.skills.decision`); None: those fitted
    by `bench/skills_fit.py` and kept in `decision.json`."""
    z_floor: float = 0.0
    """Best score's z-score over all skills below which no skill stands out ("none")."""
    whole_weight: float = 0.6
    """Weight of the whole routing text's similarity against the best single passage's."""
    lexical_weight: float = 0.02
    """Share of BM25 (scaled to the best skill's) in the ranking; the decision reads the similarity alone."""
    hub_weight: float = 0.5
    """Share of each passage's similarity to the average request (`asi_agent.skills.centre`) taken off its
    similarity to the query, in the ranking only."""
    hub_weight_cjk: float = 0.6
    """`hub_weight` for a request in Chinese, which meets the skills' mostly English passages across
    languages, where the general ones crowd it more."""
    rank_whole_weight: float = 0.4
    """`whole_weight` in the ranking, where the passages' similarities are so discounted."""
    section_discount: float = 0.01
    """Taken off the similarity of a passage from the body's sections (`Skill.sections`: its subject
    headings and first paragraph), which say what a skill covers more than when to use it, in the
    ranking..."""
    section_discount_decision: float = 0.02
    """...and in the similarity the decision reads."""


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
    similarity: float = 0.0
    """The best skill's embedding similarity, which the decision reads (the BM25 score when lexical)."""
    evidence: float = 0.0
    """The figure "none" is decided by (`asi_agent.skills.decision`; the similarity when lexical)."""
    unknown: float = 0.0
    """The share of the query's wording no skill's text holds (`Bm25.unknown`)."""
    foreign: float = 0.0
    """The share of the query's wording none of the candidates' texts holds (`Bm25.foreign`)."""
    figures: Evidence | None = None
    """Everything the decision read (None without an embedder)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (`asi-agent skills route --json`)."""
        return {
            "query": self.query,
            "decision": self.decision,
            "skill": self.skill,
            "candidates": [{"name": c.name, "score": round(c.score, 4)} for c in self.candidates],
            "method": self.method,
            "standout": round(self.standout, 3),
            "similarity": round(self.similarity, 4),
            "evidence": round(self.evidence, 4),
            "unknown": round(self.unknown, 3),
            "foreign": round(self.foreign, 3),
            "milliseconds": round(self.milliseconds, 2),
        }


@dataclass(frozen=True, slots=True)
class _Scored:
    ranking: list[float]
    """Per skill: the similarity plus the lexical share (the candidates' order)."""
    similarity: list[float]
    """Per skill: the embedding similarity (what the decision reads)."""
    anchor: float
    """The best no-skill anchor's similarity (-1 without an embedder)."""
    passage: float = -1.0
    """The best single skill passage's similarity (-1 without an embedder)."""
    unknown: float = 0.0
    """The share of the query's wording no skill's text holds (`Bm25.unknown`)."""


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
        self._index: Index | None = None
        self._bm25: Bm25 | None = None
        self._recent: dict[str, list[float]] = {}

    @property
    def method(self) -> str:
        """How queries are matched: the embedder's name, or lexical."""
        return self.embedder.name if self.embedder is not None else "lexical (BM25)"

    def route(self, query: str, top_k: int | None = None) -> Route:
        """The ranked candidates (top K) and the decision for `query`."""
        started = time.perf_counter()
        cjk = bool(_CJK.search(query))
        scored = self._scored(query, cjk=cjk)
        scores = scored.ranking
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        k = top_k or self.config.top_k
        candidates = [Candidate(self.skills[i].name, scores[i]) for i in order[:k]]
        standout = _standout(scores, order)
        figures = self._figures(query, scored, order, cjk=cjk)
        decision = self._decide(scored, order, standout, figures)
        skill = candidates[0].name if decision == "take" else None
        elapsed = (time.perf_counter() - started) * 1000
        best = max(scored.similarity, default=0.0)
        evidence = figures.value(self.weights) if figures is not None else best
        foreign = figures.foreign if figures is not None else 0.0
        return Route(
            query, candidates, decision, skill, self.method, elapsed, standout, best, evidence,
            scored.unknown, foreign, figures,
        )  # fmt: skip

    @property
    def weights(self) -> Weights:
        """The weights and floors of the "none" decision."""
        return self.config.decision or fitted_weights()

    def ranked(self, query: str) -> list[Candidate]:
        """Every skill, best first."""
        scores = self.scores(query)
        return sorted(
            (Candidate(s.name, scores[i]) for i, s in enumerate(self.skills)), key=lambda c: -c.score
        )

    def scores(self, query: str) -> list[float]:
        """One score per skill, in the skills' order."""
        return self._scored(query, cjk=bool(_CJK.search(query))).ranking

    def _scored(self, query: str, *, cjk: bool) -> _Scored:
        """The skills' ranking scores and similarities, and the best no-skill anchor's similarity."""
        if not self.skills:
            return _Scored([], [], -1.0)
        lexical = self._lexical().scores(query)
        if self.embedder is None:
            return _Scored(lexical, lexical, -1.0)
        index, config = self._vectors(), self.config
        vector = self._query_vector(query)
        pool = pool_arrays if not isinstance(index.matrix, list) else pool_lists
        weights = Pooling(
            config.hub_weight_cjk if cjk else config.hub_weight, config.whole_weight,
            config.rank_whole_weight, config.section_discount, config.section_discount_decision,
        )  # fmt: skip
        similarity, ranking, anchor, passage = pool(index, vector, weights, cjk=cjk)
        top, share = max(lexical) or 1.0, config.lexical_weight
        ranking = [r + share * x / top for r, x in zip(ranking, lexical, strict=True)]
        return _Scored(ranking, similarity, anchor, passage, self._lexical().unknown(query))

    def _query_vector(self, query: str) -> list[float]:
        """The query's vector; the last few are kept (a request is routed again on each of its turns)."""
        assert self.embedder is not None
        vector = self._recent.pop(query, None)
        if vector is None:
            (vector,) = self.embedder.embed([query], kind="query")
        self._recent[query] = vector
        while len(self._recent) > _RECENT:
            self._recent.pop(next(iter(self._recent)))
        return vector

    def _decide(
        self, scored: _Scored, order: Sequence[int], standout: float, figures: Evidence | None
    ) -> Decision:
        """Take, choose or none from the similarities (the lexical share only orders the candidates)."""
        if not order:
            return "none"
        config = self.config
        if figures is None:  # BM25 scores have no fixed scale: only the stand-out counts
            top = scored.ranking[order[0]]
            return "none" if top <= 0 or standout < config.z_floor else "choose"
        weights = self.weights
        floor = weights.floor_cjk if figures.cjk else weights.floor
        if figures.value(weights) < floor or standout < config.z_floor:
            return "none"
        if figures.similarity >= config.take and figures.gap >= config.take_margin:
            return "take"
        return "choose"

    def _figures(self, query: str, scored: _Scored, order: Sequence[int], *, cjk: bool) -> Evidence | None:
        """What the decision reads (`asi_agent.skills.decision`); None without an embedder or skills."""
        if self.embedder is None or not order:
            return None
        sims = sorted(scored.similarity, reverse=True)
        top, second = sims[0], (sims[1] if len(sims) > 1 else -1.0)
        foreign = self._lexical().foreign(query, order[: self.config.top_k])
        return Evidence(top, scored.passage - scored.anchor, top - second, log_length(query), foreign, cjk)

    def _vectors(self) -> Index:
        """The passage vectors of every skill, from the cache where it has them."""
        if self._index is not None:
            return self._index
        assert self.embedder is not None
        index, texts, marks = Index(), list[str](), list[int]()
        for number, skill in enumerate(self.skills):
            index.whole.append(len(texts))
            passages, sections = _passages(skill)
            for position, passage in enumerate(passages):
                index.owners.append(number)
                texts.append(passage)
                marks.append(int(position >= len(passages) - sections))
        index.skill_passages = len(texts)
        for anchor in NONE_ANCHORS:
            index.owners.append(-1)
            texts.append(anchor)
            marks.append(0)
        index.matrix = as_matrix(cached_vectors(self.embedder, self.cache, texts))
        index.sections = as_matrix(marks) if not isinstance(index.matrix, list) else marks
        centres = request_centres(
            [_as_request(skill) for skill in self.skills], NONE_ANCHORS, self.embedder, self.cache
        )
        hubs = [similarities(index.matrix, centre) for centre in centres]
        index.hubs = (as_matrix(hubs[0]), as_matrix(hubs[1]))  # arrays, as the matrix is, when numpy is there
        self._index = index
        return index

    def _lexical(self) -> Bm25:
        if self._bm25 is None:
            self._bm25 = Bm25([_lexical_text(skill) for skill in self.skills])
        return self._bm25


def _as_request(skill: Skill) -> str:
    """The skill's name and description: a passage, and a request that would fit it."""
    return skill.name.replace("-", " ") + ": " + skill.description[:300]


def _passages(skill: Skill) -> tuple[list[str], int]:
    """The whole routing text first, then its sentences, examples and hints, then the body's sections
    (each once); and how many of the last are sections."""
    whole = skill.routing_text()
    pieces = [whole, _as_request(skill)]
    pieces += [s.strip() for s in _SENTENCE.split(skill.description) if len(s.strip()) > 12]
    pieces += list(skill.examples) + list(skill.triggers)
    pieces += list(skill.hints) + list(description_clauses(skill.description))
    pieces = list(dict.fromkeys(pieces))
    sections = [s for s in dict.fromkeys(skill.sections) if s not in pieces]
    return pieces + sections, len(sections)


def _lexical_text(skill: Skill) -> str:
    return "\n".join([skill.routing_text(), *skill.hints])


def _standout(scores: Sequence[float], order: Sequence[int]) -> float:
    """How many standard deviations the best score lies above the mean of the others."""
    if len(order) < 3:
        return 10.0 if order else 0.0
    rest = [scores[i] for i in order[1:]]
    mean = sum(rest) / len(rest)
    spread = math.sqrt(sum((x - mean) ** 2 for x in rest) / len(rest)) or 1e-9
    return (scores[order[0]] - mean) / spread
