"""Tables of the embedded model's benchmarks: constrained calls, the request sets, grounding off."""

from __future__ import annotations

from typing import Any

from .fmt import Figures, listing, met, pct, span, table

# The targets on a held-out set (bench/embedded_sets.py's docstring and the Benchmarks page).
COMPLETED_TARGET, TWO_STEP_TARGET, FALSE_DONE_TARGET = 0.70, 0.50, 0.03


def local_constrained(data: dict[str, Any]) -> Figures:
    """`results/local_constrained.json`: one call of an offered tool forced by a JSON schema, or free text."""
    labels = {
        "constrained": "constrained (JSON schema: one call of an offered tool)",
        "unconstrained": "unconstrained (same prompt, free text)",
    }
    body = []
    for mode, entry in data["modes"].items():
        s = entry["summary"]
        valid = (
            "n/a (no call made)"
            if s["schema_valid_rate_of_calls"] is None
            else pct(s["schema_valid_rate_of_calls"], 0)
        )
        body.append(
            [
                labels.get(mode, mode),
                s["turns"],
                valid,
                pct(s["call_rate"], 0),
                pct(s["answer_rate"], 0),
                pct(s["cut_rate"], 0),
                pct(s["expected_rate"], 0),
                f"{s['median_seconds']:.2f}",
                f"{s['median_prompt_tokens']:.0f}",
            ]
        )
    header = (
        "mode",
        "turns",
        "schema-valid calls",
        "replies that are calls",
        "answers",
        "cut off at `max_tokens`",
        "expected tool",
        "median s/turn",
        "prompt tokens",
    )
    constrained = data["modes"].get("constrained", {}).get("turns", [])
    expected = sum(t.get("name") == t.get("expect") for t in constrained)
    return {
        "table": table(header, "lrrrrrrrr", body),
        "turns": str(len(constrained)),
        "expected": f"{expected} of {len(constrained)}",
        "max_tokens": str(data["settings"]["max_tokens"]),
    }


def _set_label(data: dict[str, Any], first: bool) -> str:
    name = data["set"]
    if name.startswith("heldout"):
        label = f"held-out {name.removeprefix('heldout') or '1'}"
        return label if first else f"tuning: {label}, after it joined"
    return f"tuning: {name}"


def _number(name: str) -> int:
    return int(name.removeprefix("heldout") or 1) if name.startswith("heldout") else 0


def embedded_sets(sets: dict[str, dict[str, Any]]) -> Figures:
    """`results/embedded-*.json`: each set's outcomes; `*-first-score` is a held-out set's one scoring."""
    first = {stem: d for stem, d in sets.items() if stem.endswith("-first-score")}
    tuning = {stem: d for stem, d in sets.items() if stem not in first}
    ordered = sorted(first.items(), key=lambda kv: -_number(kv[1]["set"])) + sorted(tuning.items())
    headline = ordered[0][1] if first else None
    body = []
    for stem, d in ordered:
        a, two = d["summary"]["all"], d["summary"].get("two-step", {"n": 0, "completed": 0})
        label = _set_label(d, stem in first)
        label = f"**{label}** — the headline" if d is headline else label
        body.append(
            [
                f"{label} ({a['n']})",
                "once, before any tuning on it" if stem in first else "its latest run",
                f"{a['completed']} ({a['completed_pct']}%)",
                f"{two['completed']} of {two['n']}",
                f"{a['false DONE']} ({a['false_done_pct']}%)",
                a["honest STOP"],
                a["decoded_turns"],
                f"{a['median_s']} / {a['p95_s']}",
                f"`bench/results/{stem}.json`",
            ]
        )
    header = (
        "set (requests)",
        "scored",
        "completed",
        "two-step completed",
        "false DONE",
        "honest STOP",
        "decoded turns",
        "median / p95 s",
        "figures",
    )
    by_number = sorted(first.values(), key=lambda d: _number(d["set"]))
    figures: Figures = {
        "table": table(header, "llrrrrrrl", body),
        "first_completed": span((d["summary"]["all"]["completed_pct"] for d in first.values()), "{}", "%"),
        "tuning_completed": span((d["summary"]["all"]["completed_pct"] for d in tuning.values()), "{}", "%"),
        "false_done_trend": listing(
            [f"{d['summary']['all']['false_done_pct']}% on {_set_label(d, True)}" for d in by_number]
        ),
    }
    figures |= (
        _headline(headline)
        if headline
        else {k: "not measured yet" for k in ("summary", "headline", "stops", "false_done", "two_step")}
    )
    return figures


def _headline(d: dict[str, Any]) -> Figures:
    a, two = d["summary"]["all"], d["summary"].get("two-step", {"n": 0, "completed": 0})
    two_share = two["completed"] / two["n"] if two["n"] else 0.0
    wrong = [
        f"`{r['id']}` ({r['failed_checks'][0] if r['failed_checks'] else 'no check named'})"
        for r in d["rows"]
        if r["outcome"] == "false DONE"
    ]
    name = _set_label(d, True)
    return {
        "headline": name,
        "summary": (
            f"On {name}, the newest set scored once: completed {a['completed_pct']}% (target ≥ "
            f"{pct(COMPLETED_TARGET, 0)}: {met(a['completed_pct'] / 100 >= COMPLETED_TARGET)}), two-step "
            f"{two['completed']} of {two['n']} (target ≥ {pct(TWO_STEP_TARGET, 0)}: "
            f"{met(two_share >= TWO_STEP_TARGET)}), "
            f"false DONE {a['false_done_pct']}% (target ≤ {pct(FALSE_DONE_TARGET, 0)}: "
            f"{met(a['false_done_pct'] / 100 <= FALSE_DONE_TARGET)})."
        ),
        "stops": f"{a['honest STOP']} of {a['n']}",
        "false_done": listing(wrong) if wrong else "none",
        "two_step": f"{two['completed']} of {two['n']}",
    }


def grounding_off(data: dict[str, Any]) -> Figures:
    """`results/embedded.json`'s run with grounding off: the plain behaviour, free arguments."""
    rows = data.get("grounding off", [])
    if not rows:
        return {"summary": "not measured yet", "median_s": "not measured yet"}
    seconds = sorted(r["seconds"] for r in rows)
    done = sum(r["done"] for r in rows)
    ids = listing(["`" + r["id"] + "`" for r in rows])
    return {
        "summary": f"{done} of {len(rows)} tasks completed ({ids})",
        "median_s": f"{seconds[len(seconds) // 2]:.0f} s",
    }
