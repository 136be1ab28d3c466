"""Benchmark: the reply parser on the tool-call corpus (tests/calls/corpus), side by side with
`agent-tool-parser` (a multi-format tool-call parser from PyPI, Rust core; `pip install -e '.[bench]'`).

For every reply: are the calls (names and arguments, in order) exactly the expected ones; is a malformed
reply reported (only asi-agent reports problems); and did a call-like reply come back with neither a call
nor a problem ("silent": the model's action vanished). Throughput is corpus bytes per second of parsing,
median of `--runs` passes after one warm-up. Prints a markdown table and writes bench/results/calls.json.

    python bench/calls_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "calls"))

from corpus import CASES, Case  # noqa: E402

from asi_agent.calls import parse_reply  # noqa: E402

Parsed = tuple[list[tuple[str, dict[str, Any]]], bool]
"""The calls read, and whether a problem was reported."""


def ours(case: Case) -> Parsed:
    reply = parse_reply(case.reply, case.schemas())
    return [(call.name, call.arguments) for call in reply.calls], bool(reply.problems)


def agent_tool_parser() -> Callable[[Case], Parsed] | None:
    try:
        from agent_tool_parser import try_parse_tool_calls  # noqa: PLC0415 - optional, bench only
    except ImportError:
        return None

    def parse(case: Case) -> Parsed:
        try:
            calls = try_parse_tool_calls(case.reply) or []
        except BaseException as exc:  # its Rust core panics on some replies (pyo3's PanicException)
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            return [], False
        return [(str(call.name), dict(call.args or {})) for call in calls], False

    return parse


def score(parse: Callable[[Case], Parsed]) -> dict[str, Any]:
    exact_calls = same_calls = reported = silent = 0
    for case in CASES:
        try:
            calls, problem = parse(case)
        except Exception:  # a parser that raises counts as reading nothing
            calls, problem = [], False
        same_calls += calls == list(case.calls)
        exact_calls += calls == list(case.calls) and problem == case.problem
        reported += case.problem and problem
        silent += case.call_like and not calls and not problem
    malformed = sum(case.problem for case in CASES)
    call_like = sum(case.call_like for case in CASES)
    return {
        "exact": exact_calls,
        "exact_pct": round(100 * exact_calls / len(CASES), 1),
        "same_calls": same_calls,
        "malformed_reported": f"{reported}/{malformed}",
        "silent": f"{silent}/{call_like}",
    }


def speed(parse: Callable[[Case], Parsed], runs: int) -> float:
    size = sum(len(case.reply.encode()) for case in CASES)
    for case in CASES:  # warm-up
        parse(case)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for case in CASES:
            try:
                parse(case)
            except Exception:  # timing only
                continue
        times.append(time.perf_counter() - start)
    return size / statistics.median(times) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    candidates: list[tuple[str, Callable[[Case], Parsed]]] = [("asi-agent", ours)]
    other = agent_tool_parser()
    if other is None:
        print("agent-tool-parser is not installed (pip install -e '.[bench]'): measuring asi-agent only")
    else:
        candidates.append(("agent-tool-parser 0.1.3", other))
    size = sum(len(case.reply.encode()) for case in CASES)
    rows = []
    for name, parse in candidates:
        rows.append({"parser": name, **score(parse), "mb_per_s": round(speed(parse, args.runs), 2)})
    load = os.getloadavg()[0]
    python = platform.python_version()
    print(f"{len(CASES)} replies, {size / 1e3:.0f} kB; load average {load:.2f}, Python {python}")
    print(
        "| parser | parsed exactly | same calls (problems ignored) | malformed reported "
        "| call-like, neither read nor reported | MB/s |"
    )
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(
            f"| {row['parser']} | {row['exact']}/{len(CASES)} ({row['exact_pct']}%) | {row['same_calls']} "
            f"| {row['malformed_reported']} | {row['silent']} | {row['mb_per_s']} |"
        )
    out = ROOT / "bench" / "results" / "calls.json"
    out.write_text(
        json.dumps(
            {"cases": len(CASES), "bytes": size, "loadavg": os.getloadavg()[0], "rows": rows}, indent=2
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
