"""Fit the skill router's "none" decision on the seen query sets, and show what fitting it costs.

Every query of the given sets is routed once; what the decision reads (`asi_agent.skills.decision`: the
best skill's similarity, its nearest passage's lead over the nearest no-skill anchor, its lead over the
second skill, the request's length, the share of its wording the candidates' texts lack) is fitted by a
logistic regression (numpy, Newton steps, the two classes weighed equally, a light L2 penalty on the
standardised figures). Its weights, divided by the similarity's, become the evidence's; the floor per
language is then the one that best parts no-fit from fitting queries (the share of no-fit queries declared
none minus twice the share of fitting ones, as in `bench/skills_loso.py`). The weights, the figures' ranges
and the floors are written to `asi_agent/skills/decision.json`, which the router reads.

To show what choosing them costs, each set is left out in turn: weights and floors are fitted on the
others and applied to it. The round-6 decision (similarity + 0.5 x lead - 0.03 x unknown share, floors
chosen the same way) is left out the same way beside it. Reported per set and language.

Round 9's fit on the ten seen sets is `--label round9`; the same script run on round 8's router (its tree
checked out elsewhere, `--no-write`) gave `skills-fit-round8-ten-sets.json`, the "before" of round 9.

    python bench/skills_fit.py bench/skills/dev.jsonl ... [--label round7] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from asi_agent.skills.decision import FEATURES, Evidence, Weights  # noqa: E402
from asi_agent.skills.router import Route, SkillRouter  # noqa: E402
from asi_agent.skills.vectors import VectorCache, local_embedder  # noqa: E402
from bench.skills_bench import DEFAULT_CORPUS, load_skills  # noqa: E402
from bench.skills_loso import _floor, routed_rows  # noqa: E402

_L2 = 1.0
"""The penalty on the standardised weights (the intercept is free)."""
_WEIGHTS = ROOT / "asi_agent" / "skills" / "decision.json"


def route_all(router: SkillRouter, files: list[Path]) -> list[dict[str, Any]]:
    """One row per query: its set, language, whether a skill fits, the figures, and the top-3 hit."""
    return routed_rows(router, files, _route_figures)


def _route_figures(route: Route) -> dict[str, Any]:
    assert route.figures is not None, "the fit needs the embedder"
    return {"figures": route.figures, "unknown": route.unknown}


def _logistic(x: Any, y: Any) -> Any:
    """Weights (intercept last) of a logistic regression of `y` (1: no skill fits) on the columns of `x`,
    in the units of `x`."""
    mean, spread = x.mean(0), x.std(0) + 1e-9
    z = numpy.hstack([(x - mean) / spread, numpy.ones((len(x), 1))])
    share = y.mean()
    w = numpy.where(y == 1, 0.5 / share, 0.5 / (1 - share))
    penalty = numpy.diag([_L2] * x.shape[1] + [0.0])
    beta = numpy.zeros(z.shape[1])
    for _ in range(100):
        p = 1 / (1 + numpy.exp(-z @ beta))
        gradient = z.T @ (w * (p - y)) + penalty @ beta
        hessian = (z * (w * p * (1 - p))[:, None]).T @ z + penalty
        step = numpy.linalg.solve(hessian, gradient)
        beta -= step
        if numpy.abs(step).max() < 1e-9:
            break
    return numpy.r_[beta[:-1] / spread, beta[-1] - (beta[:-1] * mean / spread).sum()]


def _matrix(rows: list[dict[str, Any]]) -> Any:
    """Similarity, the figures of `FEATURES`, and Chinese (0/1): one row per query."""
    return numpy.array(
        [[r["figures"].similarity, *(getattr(r["figures"], n) for n in FEATURES), r["zh"]] for r in rows],
        dtype=float,
    )


def fit(rows: list[dict[str, Any]]) -> Weights:
    """The decision's weights, ranges and floors fitted on `rows`."""
    x = _matrix(rows)
    beta = _logistic(x, numpy.array([0.0 if r["fit"] else 1.0 for r in rows]))
    weights = tuple(float(b / beta[0]) for b in beta[1 : 1 + len(FEATURES)])
    ranges = tuple((float(x[:, i].min()), float(x[:, i].max())) for i in range(1, 1 + len(FEATURES)))
    draft = Weights(weights, ranges, 0.0, 0.0)
    floors = {
        zh: _floor([{"fit": r["fit"], "evidence": r["figures"].value(draft)} for r in rows if r["zh"] == zh])
        for zh in (False, True)
    }
    return Weights(weights, ranges, floors[False], floors[True])


def round6(figures: Evidence, unknown: float) -> float:
    """The round-6 evidence, for comparison."""
    return figures.similarity + 0.5 * figures.lead - 0.03 * unknown


def _fit_round6(rows: list[dict[str, Any]]) -> dict[bool, float]:
    """The round-6 floors per language (keyed by Chinese or not), chosen on `rows`."""
    evidence = [
        {"fit": r["fit"], "evidence": round6(r["figures"], r["unknown"]), "zh": r["zh"]} for r in rows
    ]
    return {zh: _floor([e for e in evidence if e["zh"] == zh]) for zh in (False, True)}


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _figures(rows: list[dict[str, Any]], none: list[bool]) -> dict[str, Any]:
    """None right, fitting declared none and top-3 recall not none, overall and per language."""
    out: dict[str, Any] = {}
    for lang in ("all", "en", "zh"):
        pick = [i for i, r in enumerate(rows) if lang == "all" or r["zh"] == (lang == "zh")]
        fit = [i for i in pick if rows[i]["fit"]]
        unfit = [i for i in pick if not rows[i]["fit"]]
        out[lang] = {
            "no_fit": len(unfit),
            "none_right": _share(sum(none[i] for i in unfit), len(unfit)),
            "fitting_declared_none": _share(sum(none[i] for i in fit), len(fit)),
            "top3_recall_not_none": _share(sum(rows[i]["hit"] and not none[i] for i in fit), len(fit)),
        }
    return out


def leave_one_out(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per set, and over all sets: the fitted decision and the round-6 one, each fitted on the others."""
    out: dict[str, Any] = {}
    after, before = [False] * len(rows), [False] * len(rows)
    for name in dict.fromkeys(r["set"] for r in rows):
        others = [r for r in rows if r["set"] != name]
        weights, floors6 = fit(others), _fit_round6(others)
        mine = [i for i, r in enumerate(rows) if r["set"] == name]
        for i in mine:
            figures = rows[i]["figures"]
            after[i] = figures.value(weights) < (weights.floor_cjk if figures.cjk else weights.floor)
            before[i] = round6(figures, rows[i]["unknown"]) < floors6[figures.cjk]
        picked = [rows[i] for i in mine]
        out[name] = {"fitted": _figures(picked, [after[i] for i in mine]),
                     "round6": _figures(picked, [before[i] for i in mine])}  # fmt: skip
    out["all sets"] = {"fitted": _figures(rows, after), "round6": _figures(rows, before)}
    return out


def main() -> int:
    """Fit on the given sets; print and write the leave-one-set-out figures and (unless --no-write) the
    weights the router reads."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("queries", type=Path, nargs="+")
    parser.add_argument(
        "--skills", type=Path, default=Path(os.environ.get("ASI_SKILLS_CORPUS", DEFAULT_CORPUS))
    )
    parser.add_argument("--label", default="current")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    router = SkillRouter(
        load_skills(args.skills), embedder=local_embedder(), cache=VectorCache(ROOT / ".bench-cache")
    )
    rows = route_all(router, args.queries)
    weights = fit(rows)
    result = {"label": args.label, "sets": [p.stem for p in args.queries], "weights": weights.to_dict(),
              "leave_one_set_out": leave_one_out(rows)}  # fmt: skip
    print(json.dumps(result, indent=2))
    if not args.no_write:
        _WEIGHTS.write_text(json.dumps(weights.to_dict(), indent=2) + "\n", encoding="utf-8")
        out = ROOT / "bench" / "results" / f"skills-fit-{args.label}.json"
        out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
