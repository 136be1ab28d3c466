"""Benchmark: the skill router (`asi_agent.skills.router`) on real skills and a query file.

Skills come from a folder of skill folders (`--skills DIR` or `ASI_SKILLS_CORPUS`; 165 real SKILL.md files of
public collections, not copied into this repository). Queries are JSON lines `{"query", "expect": [names],
"lang"}`; `expect` empty means no skill fits. Reports top-3 recall (a fitting skill among the first three),
"none" accuracy (queries with no fitting skill that the router declared none) and precision (of its "none"
decisions, how many were right), how often a fitting query was wrongly declared none, the prompt tokens of
the skill listing per turn against listing every skill, and routing time per query (p50, p95) with the set
padded to 200 skills. `bench/skills/dev.jsonl` and `dev2.jsonl` are for tuning; each `heldout*.jsonl` was
written and committed before a round of tuning and scored once by it (`--label heldout3` for the third;
the earlier held-out sets were tuned on afterwards, as `--label NAME-round3` and `NAME-round4` record).
`heldout4.jsonl` is round 4's sealed set, written before round 4's tuning and scored once by it
(`--label heldout4`; its timing again at a query a second with `--timing-only --gap 1`).
`heldout5.jsonl` is round 5's sealed set, written before round 5's tuning and scored once by it
(`--label heldout5`); the round-5 router on the six sets it was tuned on is `--label NAME-round5`, and
`bench/skills_loso.py` shows how its "none" floors fare on each of them when chosen on the other five.
`heldout6.jsonl` is round 6's sealed set, written before round 6's tuning and scored once by it
(`--label heldout6`); the round-6 router on the seven sets it was tuned on is `--label NAME-round6`.
`heldout7.jsonl` is round 7's sealed set, written before round 7's tuning and scored once by it
(`--label heldout7`); the round-7 router on the eight sets its decision was fitted on (by
`bench/skills_fit.py`) is `--label NAME-round7`.
`heldout8.jsonl` is round 8's sealed set, written before round 8's tuning and scored once by it
(`--label heldout8`); the round-8 router on the nine sets it was tuned on is `--label NAME-round8`.
`heldout9.jsonl` is round 9's sealed set, written before round 9's tuning and scored once by it
(`--label heldout9`); the round-9 router on the ten sets it was tuned on is `--label NAME-round9`.

    python bench/skills_bench.py --queries bench/skills/dev.jsonl [--lexical] [--label dev]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from asi_agent.context.tokens import estimate_tokens  # noqa: E402
from asi_agent.skills.listing import MAX_LISTED, listing_text  # noqa: E402
from asi_agent.skills.registry import find_skills  # noqa: E402
from asi_agent.skills.router import RouterConfig, SkillRouter  # noqa: E402
from asi_agent.skills.skill import Skill  # noqa: E402
from asi_agent.skills.vectors import VectorCache, local_embedder  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "skills-corpus"


def load_skills(folder: Path) -> list[Skill]:
    """The skills of a corpus folder (each child a skill folder)."""
    found = find_skills(folder / ".none", folder / ".none", trusted=True, home=folder / ".none")
    assert not found.skills
    from asi_agent.skills.registry import _skill_folders  # noqa: PLC0415
    from asi_agent.skills.skill import SkillProblem, parse_skill  # noqa: PLC0415

    skills = []
    for skill_folder in _skill_folders(folder):
        try:
            skills.append(parse_skill(skill_folder, scope="user", source="corpus"))
        except SkillProblem as problem:
            print(f"skipped: {problem}", file=sys.stderr)
    return skills


def padded(skills: list[Skill], count: int) -> list[Skill]:
    """The set grown to `count` skills with renamed copies (for the timing only)."""
    out = list(skills)
    index = 0
    while len(out) < count:
        source = skills[index % len(skills)]
        out.append(
            replace(source, name=f"{source.name}-copy{index}", description=source.description + " (copy)")
        )
        index += 1
    return out


def score(router: SkillRouter, queries: list[dict[str, Any]]) -> dict[str, Any]:
    """Recall, "none" accuracy and precision, per language and overall; the misses listed."""
    rows = []
    for item in queries:
        route = router.route(item["query"], top_k=3)
        names = [c.name for c in route.candidates]
        expect = item["expect"]
        rows.append(
            {
                "query": item["query"], "lang": item["lang"], "expect": expect, "decision": route.decision,
                "top3": names, "top_score": round(route.candidates[0].score, 4) if route.candidates else None,
                "standout": round(route.standout, 2),
                "hit": bool(set(expect) & set(names)) if expect else None,
            }
        )  # fmt: skip
    return {"overall": _metrics(rows), "en": _metrics([r for r in rows if r["lang"] == "en"]),
            "zh": _metrics([r for r in rows if r["lang"] == "zh"]),
            "misses": [r for r in rows if r["hit"] is False or (not r["expect"] and r["decision"] != "none")
                       or (r["expect"] and r["decision"] == "none")]}  # fmt: skip


def _metrics(rows: list[dict[str, Any]]) -> dict[str, Any]:
    fitting = [r for r in rows if r["expect"]]
    unfit = [r for r in rows if not r["expect"]]
    said_none = [r for r in rows if r["decision"] == "none"]
    taken = [r for r in fitting if r["decision"] == "take"]
    return {
        "queries": len(rows), "fitting": len(fitting), "no_fit": len(unfit),
        "top3_recall": _ratio(sum(bool(r["hit"]) for r in fitting), len(fitting)),
        "top3_recall_not_none": _ratio(  # the fitting skill in the top 3 and not declared none
           sum(bool(r["hit"]) and r["decision"] != "none" for r in fitting), len(fitting)),
        "none_right": _ratio(sum(r["decision"] == "none" for r in unfit), len(unfit)),
        "none_precision": _ratio(sum(not r["expect"] for r in said_none), len(said_none)),
        "fitting_declared_none": _ratio(sum(r["decision"] == "none" for r in fitting), len(fitting)),
        "taken": len(taken),
        "taken_right": _ratio(sum(r["top3"][0] in r["expect"] for r in taken), len(taken)),
    }  # fmt: skip


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def timing(router: SkillRouter, queries: list[dict[str, Any]], gap: float = 0.0) -> dict[str, float]:
    """Routing time per query in ms (vectors already computed, as in a running session); `gap`: seconds
    idle before each query, as a person's turns come, so caches are not kept warm by the query before."""
    router.route("warm up")
    times, cpu = [], []
    for item in queries:
        time.sleep(gap)
        started, started_cpu = time.perf_counter(), time.process_time()
        router.route(item["query"])
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    times.sort()
    cpu.sort()
    return {
        "p50_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[int(len(times) * 0.95) - 1], 2),
        "cpu_p50_ms": round(statistics.median(cpu), 2),
        "cpu_p95_ms": round(cpu[int(len(cpu) * 0.95) - 1], 2),
    }


def tokens(skills: list[Skill]) -> dict[str, int]:
    """Prompt tokens of the skill listing: every skill against the most relevant MAX_LISTED."""
    every = estimate_tokens(listing_text(skills, total=len(skills)))
    routed = estimate_tokens(listing_text(skills[:MAX_LISTED], total=len(skills)))
    return {"all_skills_tokens": every, "routed_tokens": routed, "skills": len(skills), "listed": MAX_LISTED}


def main() -> int:
    """Score a query file and time the router; print JSON and write bench/results/skills-LABEL.json."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=Path, required=True)
    parser.add_argument(
        "--skills", type=Path, default=Path(os.environ.get("ASI_SKILLS_CORPUS", DEFAULT_CORPUS))
    )
    parser.add_argument("--lexical", action="store_true", help="BM25 only (no embedder)")
    parser.add_argument("--label", default="dev")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--timing-only", action="store_true", help="time the router; score nothing")
    parser.add_argument("--gap", type=float, default=0.0, help="seconds idle before each timed query")
    args = parser.parse_args()
    skills = load_skills(args.skills)
    queries = [
        json.loads(line) for line in args.queries.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    embedder = None if args.lexical else local_embedder()
    cache = VectorCache(ROOT / ".bench-cache")
    router = SkillRouter(skills, embedder=embedder, cache=cache, config=RouterConfig())
    result: dict[str, Any] = {"label": args.label, "method": router.method, "skills": len(skills)}
    if not args.timing_only:
        result.update(score(router, queries))
    big = SkillRouter(padded(skills, 200), embedder=embedder, cache=cache, config=RouterConfig())
    result["timing_200_skills"] = {**timing(big, queries, args.gap), "gap_s": args.gap}
    result["tokens"] = tokens(padded(skills, 200))
    result["machine"] = {"cpus": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 2),
                         "python": platform.python_version()}  # fmt: skip
    summary = {k: v for k, v in result.items() if k != "misses"}
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    if not args.no_write:
        suffix = ("-timing" if args.timing_only else "") + (f"-gap{args.gap:g}s" if args.gap else "")
        out = ROOT / "bench" / "results" / f"skills-{args.label}{suffix}.json"
        out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
