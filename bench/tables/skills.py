"""The skill router's table (`bench/skills_bench.py`): held-out and development queries side by side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .fmt import Figures, load, ms, num, pct, table, verdict

# The targets of the skills issue, on the held-out queries.
RECALL_TARGET, NONE_TARGET, P50_TARGET_MS = 0.95, 0.90, 50.0
_FILES = {"heldout": "skills-heldout.json", "dev": "skills-dev.json", "timing": "skills-heldout-timing.json"}


def load_results(bench: Path) -> dict[str, Any] | None:
    """The held-out score, the development score and the held-out timing; None until the score exists."""
    found = {}
    for key, name in _FILES.items():
        path = bench / "results" / name
        if path.is_file():
            found[key] = json.loads(path.read_text(encoding="utf-8"))
    return found if "heldout" in found else None


def _split(metrics: dict[str, Any], key: str) -> str:
    return f"{pct(metrics['overall'][key])} (EN {pct(metrics['en'][key])}, ZH {pct(metrics['zh'][key])})"


def _taken(result: dict[str, Any]) -> str:
    return f"{result['overall']['taken']}, {pct(result['overall']['taken_right'])}"


def _cpu(timing: dict[str, Any]) -> str:
    return ms(timing.get("cpu_p50_ms", timing["p50_ms"]))


def _wall(timing: dict[str, Any]) -> str:
    return f"{ms(timing['p50_ms'])} / {ms(timing['p95_ms'])}"


def skills(data: dict[str, Any]) -> Figures:
    """Top-3 recall, "none", tokens and time, on the held-out and the development queries."""
    held, dev = data["heldout"], data.get("dev")
    timing = data.get("timing", held)["timing_200_skills"]
    rows = [
        ("top-3 recall", "top3_recall"),
        ("top-3 recall and not declared none", "top3_recall_not_none"),
        ("no-fit queries declared none", "none_right"),
        ("precision of none", "none_precision"),
        ("fitting queries declared none", "fitting_declared_none"),
    ]
    body = [[label, _split(held, key), pct(dev["overall"][key]) if dev else "—"] for label, key in rows]
    body.append(["taken directly: how many, share right", _taken(held), _taken(dev) if dev else "—"])
    body.append(
        [
            "ms per query, 200 skills: wall p50 / p95",
            _wall(timing),
            _wall(dev["timing_200_skills"]) if dev else "—",
        ]
    )
    if "cpu_p50_ms" in timing:
        body.append(
            [
                "ms of CPU per query: p50 / p95",
                f"{ms(timing['cpu_p50_ms'])} / {ms(timing['cpu_p95_ms'])}",
                "—",
            ]
        )
    header = (
        "",
        f"held-out (n = {held['overall']['queries']})",
        f"dev (n = {dev['overall']['queries']})" if dev else "dev",
    )
    overall = held["overall"]
    checks = [
        verdict(f"Top-3 recall at least {pct(RECALL_TARGET, 0)}", overall["top3_recall"] >= RECALL_TARGET,
                pct(overall["top3_recall"])),
        verdict(f"\"none\" right for at least {pct(NONE_TARGET, 0)} of the no-fit queries",
                overall["none_right"] >= NONE_TARGET, pct(overall["none_right"])),
        verdict(f"At most {ms(P50_TARGET_MS)} ms p50", timing["p50_ms"] <= P50_TARGET_MS,
                f"{ms(timing['p50_ms'])} ms of wall time, {_cpu(timing)} ms of CPU"),
    ]  # fmt: skip
    tokens = held["tokens"]
    return {
        "table": table(header, "lrr", body),
        "summary": " ".join(checks),
        "skills": str(held["skills"]),
        "heldout_n": str(overall["queries"]),
        "heldout_no_fit": str(overall["no_fit"]),
        "dev_n": str(dev["overall"]["queries"]) if dev else "—",
        "dev_zh_fit": str(dev["zh"]["fitting"]) if dev else "—",
        "zh_fit_none": pct(held["zh"]["fitting_declared_none"]),
        "en_fit_none": pct(held["en"]["fitting_declared_none"]),
        "en_none_right": pct(held["en"]["none_right"]),
        "zh_recall": pct(held["zh"]["top3_recall"]),
        "recall": pct(overall["top3_recall"]),
        "none_right": pct(overall["none_right"]),
        "tokens_all": num(tokens["all_skills_tokens"], 0),
        "tokens_routed": num(tokens["routed_tokens"], 0),
        "padded": str(tokens["skills"]),
        "listed": str(tokens["listed"]),
        "cpu_p50": ms(timing.get("cpu_p50_ms", timing["p50_ms"])),
        "cpu_p95": ms(timing.get("cpu_p95_ms", timing["p95_ms"])),
        "wall_p50": ms(timing["p50_ms"]),
        "cores": str(held["machine"]["cpus"]),
        "load": load(data.get("timing", held)["machine"]["load_1min"]),
    }
