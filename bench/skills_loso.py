"""Benchmark: how the skill router's "none" floors generalise across the seen query sets.

The floors of the router's decision (`asi_agent/skills/decision.json`) are chosen on every query set already
seen. To show what choosing them costs, each set is left out in turn: the floor per language is chosen on
the other sets (the one that maximises the share of no-fit queries declared none minus twice the share of
fitting queries declared none), then applied to the set left out. Reported per set: the floors so chosen,
"none" right, fitting queries declared none, and top-3 recall counting those as misses. The router's own
floors are printed beside them. The decision's weights stay as fitted; `bench/skills_fit.py` leaves each
set out of fitting them too.

    python bench/skills_loso.py bench/skills/dev.jsonl bench/skills/dev2.jsonl ... [--label round5]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from asi_agent.skills.router import Route, SkillRouter  # noqa: E402
from asi_agent.skills.vectors import VectorCache, local_embedder  # noqa: E402
from bench.skills_bench import DEFAULT_CORPUS, load_skills  # noqa: E402

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_FIT_COST = 2.0
"""A fitting query declared none costs this many no-fit queries left undeclared (as shares of each)."""


def routed_rows(
    router: SkillRouter, files: list[Path], fields: Callable[[Route], dict[str, Any]]
) -> list[dict[str, Any]]:
    """One row per query of `files`: its set, whether it is Chinese, whether a skill fits, whether a fitting
    skill is among the top 3, and the `fields` the caller takes from its route."""
    rows = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                route = router.route(item["query"], top_k=3)
                rows.append(
                    {"set": path.stem, "zh": bool(_CJK.search(item["query"])), "fit": bool(item["expect"]),
                     "hit": bool(set(item["expect"]) & {c.name for c in route.candidates})} | fields(route)
                )  # fmt: skip
    return rows


def _rows(router: SkillRouter, files: list[Path]) -> list[dict[str, Any]]:
    return routed_rows(router, files, lambda route: {"evidence": route.evidence})


def _floor(rows: list[dict[str, Any]]) -> float:
    """The floor (just above one query's evidence) that best parts no-fit from fitting queries."""
    fit = [r["evidence"] for r in rows if r["fit"]]
    unfit = [r["evidence"] for r in rows if not r["fit"]]
    best, chosen = -2.0, 0.0
    for floor in sorted({e + 1e-6 for e in fit + unfit}):
        gain = sum(e < floor for e in unfit) / max(len(unfit), 1)
        cost = sum(e < floor for e in fit) / max(len(fit), 1)
        if gain - _FIT_COST * cost > best:
            best, chosen = gain - _FIT_COST * cost, floor
    return chosen


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def leave_one_out(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per set: the floors chosen on the others, and what they do to the set left out."""
    out = {}
    for name in dict.fromkeys(r["set"] for r in rows):
        floors = {lang: _floor([r for r in rows if r["set"] != name and r["zh"] == (lang == "zh")])
                  for lang in ("en", "zh")}  # fmt: skip
        mine = [r for r in rows if r["set"] == name]
        none = [r["evidence"] < floors["zh" if r["zh"] else "en"] for r in mine]
        fit = [r["fit"] for r in mine]
        pairs = list(zip(none, fit, strict=True))
        out[name] = {
            "floors": {k: round(v, 4) for k, v in floors.items()},
            "none_right": _share(sum(n and not f for n, f in pairs), fit.count(False)),
            "fitting_declared_none": _share(sum(n and f for n, f in pairs), fit.count(True)),
            "top3_recall_not_none": _share(
                sum(r["hit"] and not n for r, n in zip(mine, none, strict=True) if r["fit"]), fit.count(True)
            ),
        }  # fmt: skip
    return out


def main() -> int:
    """Leave each query file out in turn; print JSON and write bench/results/skills-loso-LABEL.json."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("queries", type=Path, nargs="+")
    parser.add_argument(
        "--skills", type=Path, default=Path(os.environ.get("ASI_SKILLS_CORPUS", DEFAULT_CORPUS))
    )
    parser.add_argument("--label", default="current")
    args = parser.parse_args()
    router = SkillRouter(
        load_skills(args.skills), embedder=local_embedder(), cache=VectorCache(ROOT / ".bench-cache")
    )
    result = {
        "label": args.label,
        "router_floors": {"en": router.weights.floor, "zh": router.weights.floor_cjk},
        "fit_cost": _FIT_COST,
        "sets": leave_one_out(_rows(router, args.queries)),
    }
    print(json.dumps(result, indent=2))
    out = ROOT / "bench" / "results" / f"skills-loso-{args.label}.json"
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
