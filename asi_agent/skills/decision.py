"""The router's "none" decision: a linear evidence for a skill, its weights fitted on the seen query sets.

Each request has a handful of figures the router already computes: the best skill's similarity, how far
its nearest skill passage stands above its nearest no-skill anchor (`asi_agent.skills.anchors`), how far
the best skill leads the second, the request's length, and the share of its wording that none of the three
candidates' own texts holds (`Bm25.foreign`: a tool or product beside a skill's field, which the skill's
text never names). The evidence for a skill is the similarity plus a weighted sum of the others; below the
floor of the request's language, no skill fits. The weights and floors are a logistic regression fitted
by `bench/skills_fit.py` on the seen query sets (never on a sealed one) and kept in `decision.json` beside
this module; each figure is clipped to the range it took there, so a project with five skills (where the
best skill leads by far) is not pushed beyond what the fit has seen.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from importlib import resources

__all__ = ["FEATURES", "Evidence", "Weights", "fitted_weights", "log_length"]

FEATURES = ("lead", "gap", "length", "foreign")
"""The figures weighed beside the similarity, in the order of `Weights.weights`."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """The figures one request's decision reads."""

    similarity: float
    """The best skill's embedding similarity."""
    lead: float
    """The nearest skill passage's similarity minus the nearest no-skill anchor's."""
    gap: float
    """The best skill's similarity minus the second's."""
    length: float
    """The natural logarithm of the request's length in characters."""
    foreign: float
    """The share of the request's wording that none of the candidates' own texts holds."""
    cjk: bool
    """Whether the request is in Chinese."""

    def value(self, weights: Weights) -> float:
        """The similarity plus the weighted, clipped figures."""
        total = self.similarity
        for name, weight, (low, high) in zip(FEATURES, weights.weights, weights.ranges, strict=True):
            total += weight * min(max(getattr(self, name), low), high)
        return total


@dataclass(frozen=True, slots=True)
class Weights:
    """What `bench/skills_fit.py` fitted: one weight and range per figure of `FEATURES`, and the floors."""

    weights: tuple[float, ...]
    """Per figure, its weight in similarity units."""
    ranges: tuple[tuple[float, float], ...]
    """Per figure, the lowest and highest value it took on the sets fitted on."""
    floor: float
    """Evidence below which no skill fits an English request."""
    floor_cjk: float
    """The same for a request in Chinese."""

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Weights:
        """Read the fitted file's form (`to_dict`)."""
        figures = data["figures"]
        assert isinstance(figures, dict) and tuple(figures) == FEATURES, "decision.json: figures differ"
        floors = data["floors"]
        assert isinstance(floors, dict)
        return cls(
            tuple(float(figures[n]["weight"]) for n in FEATURES),
            tuple((float(figures[n]["low"]), float(figures[n]["high"])) for n in FEATURES),
            float(floors["en"]),
            float(floors["zh"]),
        )

    def to_dict(self) -> dict[str, object]:
        """The fitted file's form."""
        figures = {
            name: {"weight": round(w, 5), "low": round(low, 5), "high": round(high, 5)}
            for name, w, (low, high) in zip(FEATURES, self.weights, self.ranges, strict=True)
        }
        return {"figures": figures, "floors": {"en": round(self.floor, 5), "zh": round(self.floor_cjk, 5)}}


@functools.cache
def fitted_weights() -> Weights:
    """The weights `bench/skills_fit.py` wrote to `decision.json` (read once)."""
    text = resources.files("asi_agent.skills").joinpath("decision.json").read_text(encoding="utf-8")
    return Weights.from_dict(json.loads(text))


def log_length(query: str) -> float:
    """The `length` figure of a request."""
    return math.log(max(len(query.strip()), 1))
