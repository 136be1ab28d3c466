"""Tables of the timing benchmarks: start-up, per-turn overhead, search, code index."""

from __future__ import annotations

from typing import Any

from .fmt import Figures, listing, load, met, ms, num, span, table, verdict

# The targets the benchmarks print (startup_bench.FIRST_TARGET_RATIO and EXIT_TARGET_MS,
# turn_bench.TARGETS_MS); tests/bench/test_bench_tables.py checks they agree. The search and index
# benchmarks write their targets into their result files.
FIRST_TARGET_RATIO = 2.0
EXIT_TARGET_MS = 50.0
TURN_TARGETS_MS = {"scripted": 5.0, "scripted, text mode": 5.0, "openai": 10.0}


def _variant(name: str) -> str:
    """A start-up row's name as the page shows it: the command in code."""
    if name.startswith("asi-agent "):
        command, _, rest = name.partition(", ")
        command = command.replace("asi-agent ", "asi-agent run ", 1)
        return f"`{command}`" + (f", {rest}" if rest else "")
    if name.startswith("floor (python -c, "):
        return f"floor: `python -c` + {name.removeprefix('floor (python -c, ').rstrip(')')}"
    if name.startswith("aider"):
        return "`aider` (aider-chat from PyPI, its own venv)"
    return name


def _startup_rows(rows: dict[str, dict[str, Any]]) -> list[list[object]]:
    out: list[list[object]] = []
    for name, r in rows.items():
        ours = name.startswith("asi-agent")
        ratio = f"**{r['ratio_to_floor']:.2f}**" if ours else f"{r['ratio_to_floor']:.2f}"
        discarded = "—" if r["discarded"] is None else r["discarded"]
        first_ok = met(r["ratio_to_floor"] <= FIRST_TARGET_RATIO) if ours else "—"
        exit_ok = met(r["exit_p50_ms"] <= EXIT_TARGET_MS) if ours else "—"
        out.append(
            [
                _variant(name),
                f"{ms(r['first_request_p50_ms'])} ms ({ms(r['first_request_p95_ms'])})",
                ratio,
                f"{ms(r['exit_p50_ms'])} ms ({ms(r['exit_p95_ms'])})",
                f"{ms(r['whole_run_p50_ms'])} ms",
                discarded,
                r["n"],
                first_ok,
                exit_ok,
            ]
        )
    return out


def _startup_summary(rows: dict[str, dict[str, Any]]) -> str:
    ours = {name: r for name, r in rows.items() if name.startswith("asi-agent")}
    if not ours:
        return "No run of asi-agent in this file."
    missed = [
        f"{_variant(n)} ({r['ratio_to_floor']:.2f}×)"
        for n, r in ours.items()
        if r["ratio_to_floor"] > FIRST_TARGET_RATIO
    ]
    kept = [r["ratio_to_floor"] for r in ours.values() if r["ratio_to_floor"] <= FIRST_TARGET_RATIO]
    parts = (
        [f"met by {len(kept)} of {len(ours)} variants ({span(kept, unit='×')})"] if kept and missed else []
    )
    parts += [f"not met by {listing(missed)}"] if missed else [f"{span(kept, unit='×')}"]
    first = "; ".join(parts)
    slow = [
        f"{_variant(n)} ({ms(r['exit_p50_ms'])} ms)"
        for n, r in ours.items()
        if r["exit_p50_ms"] > EXIT_TARGET_MS
    ]
    worst = max(r["exit_p95_ms"] for r in ours.values())
    return (
        f"First request within {FIRST_TARGET_RATIO:.0f}× the floor: "
        f"**{'met' if not missed else 'not met'}** — {first}.\n\n"
        + verdict(
            f"Exit within {EXIT_TARGET_MS:.0f} ms of the result (median)",
            not slow,
            f"not met by {listing(slow)}" if slow else f"every variant, at most {ms(worst)} ms at p95",
        )
    )


def startup(data: dict[str, Any]) -> Figures:
    """`results/startup.json`: the network protocols' table and the in-process model's table."""
    rows: dict[str, dict[str, Any]] = data["rows"]
    local = {n: r for n, r in rows.items() if "xllamacpp" in n or "--provider local" in n}
    network = {n: r for n, r in rows.items() if n not in local}
    header = (
        "variant",
        "first request p50 (p95)",
        "× floor",
        "exit after the result p50 (p95)",
        "whole run p50",
        "discarded",
        "n",
        f"first ≤ {FIRST_TARGET_RATIO:.0f}× floor",
        f"exit ≤ {EXIT_TARGET_MS:.0f} ms",
    )
    align = "lrrrrrrll"
    ours = {n: r for n, r in network.items() if n.startswith("asi-agent")}
    cold = [r["ratio_to_floor"] for n, r in ours.items() if "cold" in n]
    recorded = [r["ratio_to_floor"] for n, r in ours.items() if "cold" not in n]
    figures: Figures = {
        "table": table(header, align, _startup_rows(network)),
        "summary": _startup_summary(network),
        "local_table": table(header, align, _startup_rows(local))
        if local
        else "*No local rows in this run.*",
        "local_summary": _startup_summary(local) if local else "not measured in this run",
        "cold_ratio": span(cold, unit="×"),
        "recorded_ratio": span(recorded, unit="×"),
        "load_average": load(data["load_average"]),
    }
    aider = next((r for n, r in rows.items() if n.startswith("aider")), None)
    if aider and ours:
        firsts = [aider["first_request_p50_ms"] / r["first_request_p50_ms"] for r in ours.values()]
        exits = aider["exit_p50_ms"] - max(r["exit_p50_ms"] for r in ours.values())
        figures["aider_factor"] = span(firsts, "{:.0f}", "×")
        figures["aider_exit_gap"] = f"{exits / 1000:.1f} s"
    else:
        figures["aider_factor"] = figures["aider_exit_gap"] = "not measured in this run"
    return figures


def _turn_label(name: str) -> str:
    return {"scripted": "scripted (in-process)", "openai": "openai, the runtime's share"}.get(name, name)


def turns(data: dict[str, Any]) -> Figures:
    """`results/turns.json`: the gap between tool results over a long run, per backend."""
    rows: dict[str, dict[str, Any]] = data["rows"]
    body, missed = [], []
    for name, r in rows.items():
        target = TURN_TARGETS_MS.get(name)
        ok = target is not None and r["median_ms"] <= target and r["p95_ms"] <= 2 * r["median_ms"]
        if not ok:
            missed.append(_turn_label(name))
        body.append(
            [
                _turn_label(name),
                f"{r['median_ms']:.1f} ms",
                f"{r['p95_ms']:.1f} ms",
                f"{r['first20_median_ms']:.1f} ms",
                f"{r['last20_median_ms']:.1f} ms",
                f"{r['cpu_per_turn_ms']:.1f} ms",
                r["n"],
                "—" if target is None else f"≤ {target:.0f} ms",
                met(ok),
            ]
        )
    header = (
        "backend",
        "median",
        "p95",
        "first 20 turns",
        "last 20 turns",
        "CPU per turn",
        "n",
        "target",
        "verdict",
    )
    figures: Figures = {
        "table": table(header, "lrrrrrrrl", body),
        "summary": verdict(
            "Median within its target and p95 within 2× the median",
            not missed,
            f"not met by {listing(missed)}" if missed else f"all {len(rows)} backends",
        ),
        "turns": str(max(r["n"] for r in rows.values()) + 1),
        "load_average": load(data["load_average"]),
    }
    openai = rows.get("openai")
    if openai and "wall" in openai:
        wall, server = openai["wall"], openai["server"]
        figures["openai_growth"] = f"{openai['first20_median_ms']:.1f} to {openai['last20_median_ms']:.1f} ms"
        figures["note"] = figures["server_note"] = (
            f"Whole gaps through the local OpenAI-protocol server, server included: median "
            f"{wall['median_ms']:.1f} ms, p95 {wall['p95_ms']:.1f}, "
            f"first 20 turns {wall['first20_median_ms']:.1f}, "
            f"last 20 turns {wall['last20_median_ms']:.1f}; the server's own handling: median "
            f"{server['median_ms']:.1f} ms, {server['first20_median_ms']:.1f} over the first 20 turns and "
            f"{server['last20_median_ms']:.1f} over the last 20."
        )
    else:
        figures["openai_growth"] = figures["server_note"] = "not measured in this run"
    return figures


def _code(text: str) -> str:
    """`text` as inline code inside a table cell (its pipes escaped)."""
    return "`" + text.replace("|", "\\|") + "`"


def search(data: dict[str, Any]) -> Figures:
    """`results/search.json`: grep_search against the plain `rg` command line, case by case."""
    body = [
        [
            q["case"],
            _code(q["pattern"]),
            q["answer"],
            f"{q['grep_search_ms']:.1f} ({q['grep_search_p95_ms']:.1f})",
            f"{q['rg_ms']:.1f} ({q['rg_p95_ms']:.1f})",
            f"**{q['ratio']:.2f}**" if q["ratio"] > data["target_ratio"] else f"{q['ratio']:.2f}",
        ]
        for q in data["queries"]
    ]
    header = ("case", "pattern", "answer", "grep_search ms p50 (p95)", "rg ms p50 (p95)", "ratio")
    over = [q["case"] for q in data["queries"] if q["ratio"] > data["target_ratio"]]
    limited = [q["ratio"] for q in data["queries"] if "limit" in q["case"] and "no limit" not in q["case"]]
    return {
        "table": table(header, "lllrrr", body),
        "summary": verdict(
            f"At most {data['target_ratio']}× plain `rg` in every case",
            not over,
            f"over it: {listing(over)} (highest {data['max_ratio']})"
            if over
            else f"highest {data['max_ratio']}",
        ),
        "note": f"{num(data['corpus']['files'], 0)} files, the {data['statistic']} of {data['runs']} runs "
        f"per side, {data['rg']}.",
        "files": num(data["corpus"]["files"], 0),
        "runs": str(data["runs"]),
        "rg": data["rg"],
        "limited_ratio": span(limited, unit="×"),
        "load_average": load(data["load_average"]),
    }


_INDEX_ROWS = (
    ("first full index", "full_index_s", "s", "cpu_s"),
    ("re-index after one file changes", "reindex_one_file_s", "s", None),
    ("rescan with nothing changed", "rescan_unchanged_s", "s", None),
    (
        "`find_code_location`, calls seconds apart, p50",
        "spaced_definition_p50_ms",
        "ms",
        "spaced_definition_p95_ms",
    ),
    ("`codebase_search`, calls seconds apart, p50", "spaced_search_p50_ms", "ms", "spaced_search_p95_ms"),
    ("`find_code_location`, back to back, p50", "definition_p50_ms", "ms", "definition_p95_ms"),
    ("`codebase_search`, back to back, p50", "search_p50_ms", "ms", "search_p95_ms"),
    ("memory of the indexer process (peak)", "peak_rss_mb", "MB", None),
    ("memory, all processes (indexer and parser workers, bound)", "all_processes_rss_bound_mb", "MB", None),
)


def index(data: dict[str, Any]) -> Figures:
    """`results/index.json`: building the code index and the latency of its tools."""
    results, targets = data["results"], data["targets"]
    body, missed = [], []
    for label, key, unit, extra in _INDEX_ROWS:
        value = results[key]
        shown = f"{num(value, 2 if value < 10 else 1)} {unit}"
        if extra == "cpu_s":
            shown += f" ({num(results[extra], 1)} s CPU)"
        elif extra:
            shown += f" ({num(results[extra], 2 if results[extra] < 10 else 1)})"
        target = targets.get(key)
        ok = target is None or value <= target
        if not ok:
            missed.append(label)
        body.append(
            [
                label,
                shown,
                "" if target is None else f"≤ {num(target, 0)} {unit}",
                "" if target is None else met(ok),
            ]
        )
    return {
        "table": table(("measure", "result", "target", "verdict"), "lrrl", body),
        "summary": verdict("Every target", not missed, f"not met: {listing(missed)}" if missed else ""),
        "files": num(results["files"], 0),
        "searches": str(results["spaced_n_searches"]),
        "lookups": str(results["spaced_n_definitions"]),
        "load_average": load(data.get("load_average", [0.0])),
    }


SANDBOX_TARGET_MS = 15.0  # sandbox_bench.TARGET_MS: at most this much added per command at p50


def sandbox(data: dict[str, Any]) -> Figures:
    """`results/sandbox.json`: commands with and without the sandbox, interleaved."""
    target = data.get("target_added_p50_ms", SANDBOX_TARGET_MS)
    body, over = [], []
    for name, row in data["rows"].items():
        added = row["added_p50_ms"]
        if added > target:
            over.append(f"`{name}` (+{ms(added)} ms)")
        body.append(
            [
                f"`{name}`",
                f"{ms(row['inside_p50_ms'])} ms ({ms(row['inside_p95_ms'])})",
                f"{ms(row['outside_p50_ms'])} ms ({ms(row['outside_p95_ms'])})",
                f"**{ms(added)} ms**",
                row["n"],
                met(added <= target),
            ]
        )
    limit = f"≤ {num(target, 0)} ms"
    header = ("command", "inside p50 (p95)", "outside p50 (p95)", "added at p50", "n", limit)
    detail = f"over it: {listing(over)}" if over else ""
    return {
        "table": table(header, "lrrrrl", body),
        "summary": verdict(f"At most {num(target, 0)} ms added per command at p50", not over, detail),
        "load_average": load(data["load_average_before"]),
    }
