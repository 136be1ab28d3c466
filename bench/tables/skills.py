"""The skill router's table (`bench/skills_bench.py`): each held-out set as scored once, and the dev sets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .fmt import Figures, load, ms, num, pct, table, verdict

# The targets of the skills issue, on held-out queries.
RECALL_TARGET, NONE_TARGET, P50_TARGET_MS = 0.95, 0.90, 50.0
_FILES = {
    "heldout": "skills-heldout.json",  # round 1, scored once
    "heldout2": "skills-heldout2.json",  # round 2 (the current router), scored once
    "dev": "skills-dev.json",  # round 1's development queries, as tuned
    "dev2": "skills-dev2.json",  # round 2's Chinese-heavy development queries
    "timing": "skills-heldout-timing.json",
}
_ROWS = (
    ("top-3 recall", "top3_recall"),
    ("no-fit queries declared none", "none_right"),
    ("precision of none", "none_precision"),
    ("fitting queries declared none", "fitting_declared_none"),
)


def load_results(bench: Path) -> dict[str, Any] | None:
    """Every skills result file there is; None until the first held-out score exists."""
    found = {}
    for key, name in _FILES.items():
        path = bench / "results" / name
        if path.is_file():
            found[key] = json.loads(path.read_text(encoding="utf-8"))
    return found if "heldout" in found else None


def _pct(share: float | None) -> str:
    """A share, or a dash where there was nothing to count (no "none" decision, nothing taken)."""
    return "—" if share is None else pct(share)


def _split(result: dict[str, Any], key: str) -> str:
    return f"{_pct(result['overall'][key])} (EN {_pct(result['en'][key])}, ZH {_pct(result['zh'][key])})"


def _taken(result: dict[str, Any]) -> str:
    return f"{result['overall']['taken']}, {_pct(result['overall']['taken_right'])}"


def _wall(timing: dict[str, Any]) -> str:
    return f"{ms(timing['p50_ms'])} / {ms(timing['p95_ms'])}"


def _cpu(timing: dict[str, Any]) -> str:
    if "cpu_p50_ms" not in timing:
        return "—"
    return f"{ms(timing['cpu_p50_ms'])} / {ms(timing['cpu_p95_ms'])}"


def _column(result: dict[str, Any], timing: dict[str, Any] | None = None) -> list[str]:
    timing = timing or result["timing_200_skills"]
    cells = [_split(result, key) for _, key in _ROWS]
    return [*cells, _taken(result), _wall(timing), _cpu(timing), load(result["machine"]["load_1min"])]


def skills(data: dict[str, Any]) -> Figures:
    """Recall, "none", taken, time, per query set; the verdicts on the current router's held-out set."""
    columns = [("held-out 1 (round 1)", data["heldout"], data.get("timing", {}).get("timing_200_skills"))]
    if "heldout2" in data:
        columns.append(("held-out 2 (round 2)", data["heldout2"], None))
    columns += [
        (f"{k} (round {1 if k == 'dev' else 2})", data[k], None) for k in ("dev", "dev2") if k in data
    ]
    labels = [label for label, _ in _ROWS]
    labels += ["taken directly: how many, share right", "ms per query, 200 skills: wall p50 / p95",
               "ms of CPU per query: p50 / p95", "load average"]  # fmt: skip
    cells = [_column(result, timing) for _, result, timing in columns]
    body = [[label, *(str(c[i]) for c in cells)] for i, label in enumerate(labels)]
    header = ("", *(f"{label}, n = {result['overall']['queries']}" for label, result, _ in columns))
    current = data.get("heldout2", data["heldout"])
    timing = (
        current["timing_200_skills"]
        if "heldout2" in data
        else data.get("timing", current)["timing_200_skills"]
    )
    overall = current["overall"]
    checks = [
        verdict(f"Top-3 recall at least {pct(RECALL_TARGET, 0)}", overall["top3_recall"] >= RECALL_TARGET,
                pct(overall["top3_recall"])),
        verdict(f"\"none\" right for at least {pct(NONE_TARGET, 0)} of the no-fit queries",
                overall["none_right"] >= NONE_TARGET, pct(overall["none_right"])),
        verdict(f"At most {ms(P50_TARGET_MS)} ms p50", timing["p50_ms"] <= P50_TARGET_MS,
                f"{ms(timing['p50_ms'])} ms of wall time, {_cpu(timing).split(' /')[0]} ms of CPU"),
    ]  # fmt: skip
    first, tokens = data["heldout"], current["tokens"]
    return {
        "table": table(header, "l" + "r" * len(columns), body),
        "summary": " ".join(checks),
        "skills": str(current["skills"]),
        "heldout_n": str(first["overall"]["queries"]),
        "heldout_no_fit": str(first["overall"]["no_fit"]),
        "heldout2_n": str(current["overall"]["queries"]),
        "heldout2_no_fit": str(current["overall"]["no_fit"]),
        "dev_n": str(data["dev"]["overall"]["queries"]) if "dev" in data else "—",
        "dev2_n": str(data["dev2"]["overall"]["queries"]) if "dev2" in data else "—",
        "dev_zh_fit": str(data["dev"]["zh"]["fitting"]) if "dev" in data else "—",
        "first_zh_fit_none": _pct(first["zh"]["fitting_declared_none"]),
        "recall": pct(overall["top3_recall"]),
        "none_right": pct(overall["none_right"]),
        "en_none_right": pct(current["en"]["none_right"]),
        "tokens_all": num(tokens["all_skills_tokens"], 0),
        "tokens_routed": num(tokens["routed_tokens"], 0),
        "padded": str(tokens["skills"]),
        "listed": str(tokens["listed"]),
        "cpu_p50": _cpu(timing).split(" /")[0],
        "wall_p50": ms(timing["p50_ms"]),
        "cores": str(current["machine"]["cpus"]),
        "load": load(current["machine"]["load_1min"]),
    }
