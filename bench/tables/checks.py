"""Tables of the benchmarks that count failures: crashes, concurrent runs, fuzzing, routing, safety, calls."""

from __future__ import annotations

from typing import Any

from .fmt import Figures, listing, load, num, pct, table, verdict

# The targets the benchmarks check (routing_bench.TOKEN_TARGET and RECALL_TARGET, safety_bench's `missed`).
TOKEN_TARGET, RECALL_TARGET = 0.60, 0.95
EVERYDAY_ASKED_TARGET = 0.03
FUZZ_INPUTS_TARGET = 1_000_000


def crash(data: dict[str, Any]) -> Figures:
    """`results/crash.json`: SIGKILL at random moments of edits, then the journal's recovery."""
    bad = {
        "corrupt files": data["corrupt"],
        "stray files after recovery": data["strays_after_recovery"],
        "rounds where a completed change was not undoable": data["rounds_not_undoable"],
    }
    header = ("kills", "changes committed", *bad, "temp files left by kills", "interrupted changes settled")
    row = [
        num(data["kills"], 0),
        num(data["changes_committed"], 0),
        *(f"**{v}**" for v in bad.values()),
        data["strays_before_recovery"],
        data["settled"],
    ]
    failed = [f"{value} {name}" for name, value in bad.items() if value]
    return {
        "table": table(header, "rrrrrrr", [row]),
        "summary": verdict(
            "No corrupt file, no stray file, every completed change undoable", not failed, listing(failed)
        ),
        "kills": num(data["kills"], 0),
        "load_average": load(data["load_average"]),
    }


def concurrent(data: dict[str, Any]) -> Figures:
    """`results/concurrent.json`: several `asi-agent run` processes editing one project at once."""
    rounds = data["rounds"]
    header = (
        "runs at once",
        "rounds",
        "edits",
        "reported ok",
        "lost",
        "stale (refused)",
        "other errors",
        "undo exact",
        "round wall time p50 (p95)",
    )
    row = [
        data["runs_per_round"],
        rounds,
        data["edits"],
        data["ok"],
        f"**{data['lost']}**",
        data["stale"],
        data["other_errors"],
        f"{data['rounds_undo_exact']} of {rounds}",
        f"{data['round_wall_s_median']:.2f} s ({data['round_wall_s_p95']:.2f})",
    ]
    failed = [
        text
        for text, bad in (
            (f"{data['lost']} edits lost", data["lost"]),
            (f"{data['other_errors']} edits failed for another reason", data["other_errors"]),
            (
                f"{rounds - data['rounds_undo_exact']} rounds not undone exactly",
                rounds - data["rounds_undo_exact"],
            ),
        )
        if bad
    ]
    problems = [p for r in data["rows"] for p in r["problems"]]
    figures: Figures = {
        "table": table(header, "rrrrrrrrr", [row]),
        "summary": verdict(
            "No lost update, no other error, every round undone exactly", not failed, listing(failed)
        ),
        "stale": str(data["stale"]),
        "edits": str(data["edits"]),
        "load_average": load(data["load_average_before"]),
        "note": f"Round wall time median {data['round_wall_s_median']:.2f} s; load average "
        f"{load(data['load_average_before'])} before the first round.",
        "problems": "none"
        if not problems
        else "; ".join(f"`{p}`" for p in problems[:5])
        + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""),
    }
    return figures


def fuzz(data: dict[str, Any]) -> Figures:
    """`results/fuzz.json`: atheris against the parsers and loaders."""
    body = [
        [
            r["target"],
            f"{num(r['inputs'], 0)} ({num(r['guided_inputs'], 0)})",
            r["corpus"],
            num(r["seconds"]),
            num(r["inputs"] / r["seconds"], 0) if r["seconds"] else "—",
            "**yes**" if r["crashed"] else "**0**",
        ]
        for r in data["rows"]
    ]
    failed = [r["target"] for r in data["rows"] if r["crashed"] or r["inputs"] < FUZZ_INPUTS_TARGET]
    seconds = sum(r["seconds"] for r in data["rows"])
    header = ("target", "inputs (coverage-guided)", "corpus", "seconds", "inputs/s", "unhandled exceptions")
    return {
        "table": table(header, "lrrrrr", body),
        "summary": verdict(
            f"At least {num(FUZZ_INPUTS_TARGET, 0)} inputs per target with no unhandled exception",
            not failed,
            f"not met by {listing(failed)}"
            if failed
            else f"{len(data['rows'])} targets, {num(seconds, 0)} s, {data['jobs']} targets at a time",
        ),
        "load_average": load(data["load_average"]),
    }


def routing(data: dict[str, Any]) -> Figures:
    """`results/routing.json`: how much of the tool schemas routing leaves out, and what it misses."""
    header = (
        "tools (plugins)",
        "requests",
        "schema tokens per turn, routing off",
        "routing on (mean)",
        "reduction",
        f"recall of the needed tool (top {data['top_k']})",
        "routing ms per turn",
    )
    row = [
        f"{data['tools_total']} ({data['plugin_tools']})",
        data["requests"],
        num(data["schema_tokens_off"], 0),
        num(data["schema_tokens_on_mean"], 0),
        pct(data["token_reduction"]),
        pct(data["recall_at_k"]),
        f"{data['routing_ms_per_turn']:.2f}",
    ]
    ok = data["token_reduction"] >= TOKEN_TARGET and data["recall_at_k"] >= RECALL_TARGET
    misses = data["misses"]
    return {
        "table": table(header, "rrrrrrr", [row]),
        "summary": verdict(
            f"At least {pct(TOKEN_TARGET, 0)} fewer schema tokens at {pct(RECALL_TARGET, 0)} recall or more",
            ok,
        ),
        "misses": "none" if not misses else listing([f"“{m}”" for m in misses]),
        "note": f"Tokens counted as {data['token_count_method']}; missed: "
        + ("none" if not misses else listing([f"“{m}”" for m in misses]))
        + ".",
        "token_method": data["token_count_method"],
    }


def safety(data: dict[str, Any]) -> Figures:
    """`results/safety.json`: the graded command corpus through the classifier and the engine, per mode."""
    body = [
        [
            r["policy"],
            r["mode"],
            pct(r["catastrophic_refused"]),
            pct(r["destructive_ask_or_refuse"]),
            pct(r["destructive_refused"]),
            r["everyday_refused"],
            pct(r["everyday_asked_beyond_mode"]),
        ]
        for r in data["rows"]
    ]
    header = (
        "policy",
        "mode",
        "catastrophic refused",
        "destructive ask or refuse",
        "destructive refused",
        "everyday refused",
        "everyday asked or refused by the classifier",
    )
    missed = [
        f"{r['policy']}/{r['mode']}"
        for r in data["rows"]
        if r["catastrophic_refused"] < 1
        or (r["mode"] != "yolo" and r["destructive_ask_or_refuse"] < 0.99)
        or r["everyday_refused"] > 0
        or r["everyday_asked_beyond_mode"] > EVERYDAY_ASKED_TARGET
    ]
    levels: dict[str, dict[str, int]] = data["levels"]
    yolo = [r["destructive_refused"] for r in data["rows"] if r["mode"] == "yolo"]
    return {
        "table": table(header, "llrrrrr", body),
        "summary": verdict(
            "Every catastrophic command refused, every destructive one asked or refused outside `yolo`, "
            f"no everyday command refused and at most {pct(EVERYDAY_ASKED_TARGET, 0)} asked",
            not missed,
            f"not met by {listing(missed)}" if missed else "",
        ),
        "corpus": listing([f"{num(sum(c.values()), 0)} {grade}" for grade, c in levels.items()]),
        "commands": num(sum(sum(c.values()) for c in levels.values()), 0),
        "levels": "; ".join(
            f"{grade}: " + ", ".join(f"{level} {n}" for level, n in counts.items())
            for grade, counts in levels.items()
        ),
        "yolo_refused": pct(min(yolo), 0) if yolo else "not measured",
    }


def calls(data: dict[str, Any]) -> Figures:
    """`results/calls.json`: the call parser on the reply corpus, against agent-tool-parser."""
    body = [
        [
            r["parser"],
            f"{r['exact']}/{data['cases']} ({r['exact_pct']}%)",
            r["same_calls"],
            r["malformed_reported"],
            r["silent"],
            f"{r['mb_per_s']:.2f}",
        ]
        for r in data["rows"]
    ]
    header = (
        "parser",
        "parsed exactly",
        "same calls (problems ignored)",
        "malformed reported",
        "call-like, neither read nor reported",
        "MB/s",
    )
    return {
        "table": table(header, "lrrrrr", body),
        "cases": num(data["cases"], 0),
        "kilobytes": num(data["bytes"] / 1000, 0),
        "load_average": load(data["loadavg"]),
    }
