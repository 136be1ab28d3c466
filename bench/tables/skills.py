"""The skill router's table (`bench/skills_bench.py`): each held-out set as scored once, and the dev sets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .fmt import Figures, load, ms, num, pct, table, verdict
from .skills7 import FILES as _FILES7
from .skills7 import ROUND7_TUNED as _ROUND7_TUNED
from .skills7 import round7
from .skills8 import FILES as _FILES8
from .skills8 import ROUND8_TUNED as _ROUND8_TUNED
from .skills8 import round8
from .skills9 import FILES as _FILES9
from .skills9 import ROUND9_TUNED as _ROUND9_TUNED
from .skills9 import round9

# The targets of the skills issue, on held-out queries.
RECALL_TARGET, NONE_TARGET, P50_TARGET_MS = 0.95, 0.90, 50.0
_FILES = {
    "heldout": "skills-heldout.json",  # round 1, scored once
    "heldout2": "skills-heldout2.json",  # round 2, scored once
    "heldout3": "skills-heldout3.json",  # round 3, scored once
    "heldout4": "skills-heldout4.json",  # round 4, scored once
    "heldout4_gap": "skills-heldout4-timing-gap1s.json",  # round 4's timing at a query a second
    "heldout5": "skills-heldout5.json",  # round 5, scored once
    "heldout5_gap": "skills-heldout5-timing-gap1s.json",  # round 5's timing at a query a second
    "heldout6": "skills-heldout6.json",  # round 6 (the current router), scored once
    "heldout6_gap": "skills-heldout6-timing-gap1s.json",  # round 6's timing at a query a second
    "heldout6_before": "skills-heldout6-previous-router.json",  # round 6's set, the round-5 decision
    "heldout3_gap": "skills-heldout3-timing-gap1s.json",  # round 3's, on a quiet machine
    "heldout3_before": "skills-heldout3-previous-router.json",  # round 3's set, the round-2 router
    "dev": "skills-dev.json",  # round 1's development queries, as tuned
    "dev2": "skills-dev2.json",  # round 2's Chinese-heavy development queries
    "timing": "skills-heldout-timing.json",
    "loso5": "skills-loso-round5.json",  # round 5's "none" floors, each seen set left out in turn
    "loso6": "skills-loso-round6.json",  # round 6's
}
_ROUND3_TUNED = ("dev", "dev2", "heldout", "heldout2")
"""The sets round 3 was tuned on (`skills-SET-round3.json`: the round-3 router on them)."""
_ROUND4_TUNED = ("dev", "dev2", "heldout", "heldout2", "heldout3")
"""The sets round 4 was tuned on (`skills-SET-round4.json`: the round-4 router on them)."""
_ROUND5_TUNED = ("dev", "dev2", "heldout", "heldout2", "heldout3", "heldout4")
"""The sets round 5 was tuned on (`skills-SET-round5.json`: the round-5 router on them)."""
_ROUND6_TUNED = (*_ROUND5_TUNED, "heldout5")
"""The sets round 6 was tuned on (`skills-SET-round6.json`: the current router on them)."""
_ROWS = (
    ("top-3 recall", "top3_recall"),
    ("no-fit queries declared none", "none_right"),
    ("precision of none", "none_precision"),
    ("fitting queries declared none", "fitting_declared_none"),
)


def load_results(bench: Path) -> dict[str, Any] | None:
    """Every skills result file there is; None until the first held-out score exists."""
    found = {}
    names = {**_FILES, **{f"{key}_round3": f"skills-{key}-round3.json" for key in _ROUND3_TUNED},
             **{f"{key}_round4": f"skills-{key}-round4.json" for key in _ROUND4_TUNED},
             **{f"{key}_round5": f"skills-{key}-round5.json" for key in _ROUND5_TUNED},
             **{f"{key}_round6": f"skills-{key}-round6.json" for key in _ROUND6_TUNED},
             **{f"{key}_round7": f"skills-{key}-round7.json" for key in _ROUND7_TUNED},
             **{f"{key}_round8": f"skills-{key}-round8.json" for key in _ROUND8_TUNED},
             **{f"{key}_round9": f"skills-{key}-round9.json" for key in _ROUND9_TUNED},
             **_FILES7, **_FILES8, **_FILES9}  # fmt: skip
    for key, name in names.items():
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


def _table(columns: list[tuple[str, dict[str, Any], dict[str, Any] | None]]) -> str:
    labels = [label for label, _ in _ROWS]
    labels += ["taken directly: how many, share right", "ms per query, 200 skills: wall p50 / p95",
               "ms of CPU per query: p50 / p95", "load average"]  # fmt: skip
    cells = [_column(result, timing) for _, result, timing in columns]
    body = [[label, *(str(c[i]) for c in cells)] for i, label in enumerate(labels)]
    header = ("", *(f"{label}, n = {result['overall']['queries']}" for label, result, _ in columns))
    return table(header, "l" + "r" * len(columns), body)


def _held_out_columns(data: dict[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, Any] | None]]:
    """Each held-out set as scored once, newest first; the newest also with the router before it."""
    columns: list[tuple[str, dict[str, Any], dict[str, Any] | None]] = []
    if "heldout9" in data:
        columns.append(("held-out 9 (round 9)", data["heldout9"], None))
    if "heldout8" in data:
        columns.append(("held-out 8 (round 8)", data["heldout8"], None))
    if "heldout7" in data:
        columns.append(("held-out 7 (round 7)", data["heldout7"], None))
    if "heldout6" in data:
        columns.append(("held-out 6 (round 6)", data["heldout6"], None))
    if "heldout5" in data:
        columns.append(("held-out 5 (round 5)", data["heldout5"], None))
    if "heldout4" in data:
        columns.append(("held-out 4 (round 4)", data["heldout4"], None))
    if "heldout3" in data:
        columns.append(("held-out 3 (round 3)", data["heldout3"], None))
    if "heldout3_before" in data:
        columns.append(("held-out 3, round-2 router", data["heldout3_before"], None))
    if "heldout2" in data:
        columns.append(("held-out 2 (round 2)", data["heldout2"], None))
    columns.append(("held-out 1 (round 1)", data["heldout"], data.get("timing", {}).get("timing_200_skills")))
    return columns


def _verdicts(overall: dict[str, Any], timing: dict[str, Any], quiet: dict[str, Any] | None) -> str:
    """The three targets, judged on the current router's held-out set (`quiet`: its timing at a query a
    second)."""
    pace = "" if quiet is None else (
        f"; at a query a second, {ms(quiet['timing_200_skills']['p50_ms'])} ms of wall time (load average "
        f"{load(quiet['machine']['load_1min'])})")  # fmt: skip
    return " ".join([
        verdict(f"Top-3 recall at least {pct(RECALL_TARGET, 0)}", overall["top3_recall"] >= RECALL_TARGET,
                pct(overall["top3_recall"])),
        verdict(f"\"none\" right for at least {pct(NONE_TARGET, 0)} of the no-fit queries",
                overall["none_right"] >= NONE_TARGET, pct(overall["none_right"])),
        verdict(f"At most {ms(P50_TARGET_MS)} ms p50", timing["p50_ms"] <= P50_TARGET_MS,
                f"{ms(timing['p50_ms'])} ms of wall time, {_cpu(timing).split(' /')[0]} ms of CPU{pace}"),
    ])  # fmt: skip


def _pooled_recall(results: list[dict[str, Any]]) -> str:
    """Top-3 recall over several query sets together."""
    fitting = [r["overall"]["fitting"] for r in results]
    hits = sum(round(r["overall"]["top3_recall"] * f) for r, f in zip(results, fitting, strict=True))
    return pct(hits / sum(fitting)) if sum(fitting) else "—"


def _rounds(data: dict[str, Any]) -> Figures:
    """What rounds 3 and 4 changed: round 3 on its held-out set; round 4 on the sets it was tuned on."""
    third = data.get("heldout3", data["heldout"])
    before = data.get("heldout3_before", third)["overall"]
    tuned4 = [data[f"{key}_round4"] for key in _ROUND4_TUNED if f"{key}_round4" in data]
    earlier = [data[f"{key}_round3"] for key in _ROUND3_TUNED if f"{key}_round3" in data]
    earlier += [third] if "heldout3" in data else []
    after3 = data.get("heldout3_round4", third)["overall"]
    quiet3 = data.get("heldout3_gap")
    return {
        "heldout3_n": str(third["overall"]["queries"]),
        "heldout3_no_fit": str(third["overall"]["no_fit"]),
        "heldout3_zh": str(third["zh"]["queries"]),
        "before_recall": pct(before["top3_recall"]),
        "before_none_right": pct(before["none_right"]),
        "r3_recall": pct(third["overall"]["top3_recall"]),
        "r3_none_right": pct(third["overall"]["none_right"]),
        "r4_heldout3_recall": pct(after3["top3_recall"]),
        "r3_quiet_p50": ms(quiet3["timing_200_skills"]["p50_ms"]) if quiet3 else "—",
        "r4_tuned_n": str(sum(r["overall"]["queries"] for r in tuned4)),
        "r4_tuned_recall_before": _pooled_recall(earlier),
        "r4_tuned_recall": _pooled_recall(tuned4),
    }


def _round5(data: dict[str, Any]) -> Figures:
    """What round 5 changed: round 4's sealed figures, the same set now in-sample, and the sets pooled."""
    fourth = data.get("heldout4", data["heldout"])
    after = data.get("heldout4_round5", fourth)
    tuned = [data[f"{key}_round5"] for key in _ROUND5_TUNED if f"{key}_round5" in data]
    before = [data[f"{key}_round4"] for key in _ROUND4_TUNED if f"{key}_round4" in data] + [fourth]
    quiet = data.get("heldout4_gap")
    return {
        "heldout4_n": str(fourth["overall"]["queries"]),
        "heldout4_zh": str(fourth["zh"]["queries"]),
        "heldout4_no_fit": str(fourth["overall"]["no_fit"]),
        "r4_recall": pct(fourth["overall"]["top3_recall"]),
        "r4_none_right": pct(fourth["overall"]["none_right"]),
        "r4_fit_none": _pct(fourth["overall"]["fitting_declared_none"]),
        "r4_quiet_p50": ms(quiet["timing_200_skills"]["p50_ms"]) if quiet else "—",
        "r5_heldout4_none_right": pct(after["overall"]["none_right"]),
        "r5_heldout4_fit_none": _pct(after["overall"]["fitting_declared_none"]),
        "r5_tuned_n": str(sum(r["overall"]["queries"] for r in tuned)),
        "r5_tuned_none_before": _pooled(before, "none_right", "no_fit"),
        "r5_tuned_none": _pooled(tuned, "none_right", "no_fit"),
        "r5_tuned_fit_none_before": _pooled(before, "fitting_declared_none", "fitting"),
        "r5_tuned_fit_none": _pooled(tuned, "fitting_declared_none", "fitting"),
        "r5_tuned_recall": _pooled_recall(tuned),
        "loso_table": _loso_table(data.get("loso5")),
        "floor_en": num(data["loso5"]["router_floors"]["en"], 3) if "loso5" in data else "—",
        "floor_zh": num(data["loso5"]["router_floors"]["zh"], 3) if "loso5" in data else "—",
    }


def _round6(data: dict[str, Any]) -> Figures:
    """What round 6 changed: round 5's sealed figures, the seen sets pooled before and after, and round 6's
    sealed set with the round-5 decision beside the current one."""
    fifth = data.get("heldout5", data["heldout"])
    after = data.get("heldout5_round6", fifth)
    tuned = [data[f"{key}_round6"] for key in _ROUND6_TUNED if f"{key}_round6" in data]
    before = [data[f"{key}_round5"] for key in _ROUND5_TUNED if f"{key}_round5" in data] + [fifth]
    previous = data.get("heldout6_before", data.get("heldout6", fifth))
    loso = data.get("loso6")
    return {
        "r5_n": str(fifth["overall"]["queries"]),
        "r5_zh": str(fifth["zh"]["queries"]),
        "r5_no_fit": str(fifth["overall"]["no_fit"]),
        "r5_recall": pct(fifth["overall"]["top3_recall"]),
        "r5_none_right": pct(fifth["overall"]["none_right"]),
        "r5_en_none_right": pct(fifth["en"]["none_right"]),
        "r5_zh_none_right": pct(fifth["zh"]["none_right"]),
        "r5_fit_none": _pct(fifth["overall"]["fitting_declared_none"]),
        "r6_heldout5_none_right": pct(after["overall"]["none_right"]),
        "r6_heldout5_zh_none_right": pct(after["zh"]["none_right"]),
        "r6_tuned_n": str(sum(r["overall"]["queries"] for r in tuned)),
        "r6_tuned_none_before": _pooled(before, "none_right", "no_fit"),
        "r6_tuned_none": _pooled(tuned, "none_right", "no_fit"),
        "r6_tuned_fit_none_before": _pooled(before, "fitting_declared_none", "fitting"),
        "r6_tuned_fit_none": _pooled(tuned, "fitting_declared_none", "fitting"),
        "r6_tuned_recall": _pooled_recall(tuned),
        "prev_none_right": _split(previous, "none_right"),
        "prev_fit_none": _pct(previous["overall"]["fitting_declared_none"]),
        "prev_precision": _pct(previous["overall"]["none_precision"]),
        "loso6_table": _loso_table(loso),
        **_quiet_figures("r5_quiet", data.get("heldout5_gap")),
        "loso6_none_right": _loso_pooled(loso, data, "none_right", "no_fit"),
        "loso6_fit_none": _loso_pooled(loso, data, "fitting_declared_none", "fitting"),
        "floor6_en": num(loso["router_floors"]["en"], 3) if loso else "—",
        "floor6_zh": num(loso["router_floors"]["zh"], 3) if loso else "—",
    }


def _loso_pooled(loso: dict[str, Any] | None, data: dict[str, Any], key: str, count: str) -> str:
    """A leave-one-set-out share over every set left out, each weighted by its count (from its result)."""
    if not loso:
        return "—"
    counts = {
        name: data[f"{name}_round6"]["overall"][count] for name in loso["sets"] if f"{name}_round6" in data
    }
    part = sum(round((loso["sets"][name][key] or 0) * n) for name, n in counts.items())
    return pct(part / sum(counts.values())) if sum(counts.values()) else "—"


def _quiet_figures(prefix: str, quiet: dict[str, Any] | None) -> Figures:
    """Wall p50, CPU p50 and load of a timing taken at a query a second (dashes without one)."""
    timing = quiet["timing_200_skills"] if quiet else {}
    return {
        f"{prefix}_p50": ms(timing["p50_ms"]) if quiet else "—",
        f"{prefix}_cpu": _cpu(timing).split(" /")[0] if quiet else "—",
        f"{prefix}_load": load(quiet["machine"]["load_1min"]) if quiet else "—",
    }


def _quiet(quiet: dict[str, Any] | None) -> str:
    """The current router's time at a query a second, or that it is yet to be taken."""
    if not quiet:
        return "its time at a query a second (`--timing-only --gap 1`) is yet to be taken on a quiet machine"
    timing = quiet["timing_200_skills"]
    return (
        f"at a query a second it took {ms(timing['p50_ms'])} ms ({ms(timing['p95_ms'])} at p95) at load "
        f"average {load(quiet['machine']['load_1min'])}"
    )


def _loso_table(loso: dict[str, Any] | None) -> str:
    """Per seen set: the floors chosen on the other sets, and what they did to it (`bench/skills_loso.py`)."""
    if not loso:
        return ""
    header = ("set left out", "floors chosen on the others: EN / ZH", '"none" right',
              "fitting declared none", "top-3 recall, none counted as a miss")  # fmt: skip
    body = [
        [name, f"{num(row['floors']['en'], 3)} / {num(row['floors']['zh'], 3)}", _pct(row["none_right"]),
         _pct(row["fitting_declared_none"]), _pct(row["top3_recall_not_none"])]
        for name, row in loso["sets"].items()
    ]  # fmt: skip
    return table(header, "lrrrr", body)


def _pooled(results: list[dict[str, Any]], key: str, count: str) -> str:
    """A share over several query sets together, `count` naming what it is a share of."""
    whole = [r["overall"][count] for r in results]
    part = sum(round((r["overall"][key] or 0) * n) for r, n in zip(results, whole, strict=True))
    return pct(part / sum(whole)) if sum(whole) else "—"


def skills(data: dict[str, Any]) -> Figures:
    """Recall, "none", taken, time, per query set; the verdicts on the current router's held-out set."""
    current = data.get("heldout6", data.get("heldout5", data.get("heldout4", data["heldout"])))
    current = data.get("heldout9", data.get("heldout8", data.get("heldout7", current)))
    seventh = any(f"{key}_round7" in data for key in _ROUND7_TUNED)
    rounds = (7, _ROUND7_TUNED) if seventh else (6, _ROUND6_TUNED)
    if any(f"{key}_round8" in data for key in _ROUND8_TUNED):
        rounds = (8, _ROUND8_TUNED)
    if any(f"{key}_round9" in data for key in _ROUND9_TUNED):
        rounds = (9, _ROUND9_TUNED)
    tuned: list[tuple[str, dict[str, Any], dict[str, Any] | None]] = [
        (f"{key} (tuned on)", data[f"{key}_round{rounds[0]}"], None)
        for key in rounds[1]
        if f"{key}_round{rounds[0]}" in data
    ]
    timing = current["timing_200_skills"] if current is not data["heldout"] else (
        data.get("timing", current)["timing_200_skills"])  # fmt: skip
    gaps = {"heldout9": "heldout9_gap", "heldout8": "heldout8_gap", "heldout7": "heldout7_gap",
            "heldout6": "heldout6_gap"}  # fmt: skip
    quiet = next((data.get(gap) for key, gap in gaps.items() if data.get(key) is current), None)
    quiet_timing = quiet["timing_200_skills"] if quiet else timing
    overall = current["overall"]
    first, second, tokens = data["heldout"], data.get("heldout2", data["heldout"]), current["tokens"]
    return {
        "table": _table(_held_out_columns(data)),
        "tuned_table": _table(tuned) if tuned else "",
        "summary": _verdicts(overall, timing, quiet),
        "skills": str(current["skills"]),
        "heldout_n": str(first["overall"]["queries"]),
        "heldout_no_fit": str(first["overall"]["no_fit"]),
        "heldout2_n": str(second["overall"]["queries"]),
        "heldout2_no_fit": str(second["overall"]["no_fit"]),
        "current_n": str(overall["queries"]),
        "current_no_fit": str(overall["no_fit"]),
        "current_zh": str(current["zh"]["queries"]),
        "tuned_n": str(sum(result["overall"]["queries"] for _, result, _ in tuned)),
        "dev_n": str(data["dev"]["overall"]["queries"]) if "dev" in data else "—",
        "dev2_n": str(data["dev2"]["overall"]["queries"]) if "dev2" in data else "—",
        "dev_zh_fit": str(data["dev"]["zh"]["fitting"]) if "dev" in data else "—",
        "first_zh_fit_none": _pct(first["zh"]["fitting_declared_none"]),
        "recall": pct(overall["top3_recall"]),
        "none_right": pct(overall["none_right"]),
        "fit_none": _pct(overall["fitting_declared_none"]),
        "en_none_right": pct(current["en"]["none_right"]),
        "zh_none_right": pct(current["zh"]["none_right"]),
        "zh_recall": pct(current["zh"]["top3_recall"]),
        "en_recall": pct(current["en"]["top3_recall"]),
        "tokens_all": num(tokens["all_skills_tokens"], 0),
        "tokens_routed": num(tokens["routed_tokens"], 0),
        "padded": str(tokens["skills"]),
        "listed": str(tokens["listed"]),
        "cpu_p50": _cpu(timing).split(" /")[0],
        "cpu_p95": _cpu(timing).split("/ ")[-1],
        "wall_p50": ms(timing["p50_ms"]),
        "wall_p95": ms(timing["p95_ms"]),
        "quiet_p50": ms(quiet_timing["p50_ms"]),
        "quiet_p95": ms(quiet_timing["p95_ms"]),
        "quiet_load": load(quiet["machine"]["load_1min"]) if quiet else load(current["machine"]["load_1min"]),
        "quiet": _quiet(quiet),
        "cores": str(current["machine"]["cpus"]),
        "load": load(current["machine"]["load_1min"]),
        **_rounds(data),
        **_round5(data),
        **_round6(data),
        **round7(data),
        **round8(data),
        **round9(data),
    }
