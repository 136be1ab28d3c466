"""Benchmark: what the sandbox costs a command.

Each command runs `--runs` times with and without the sandbox, interleaved (with, without, with, …) so
that the machine's load affects both alike, through the runtime's own `run_command` (the path every
command, test run and linter takes): `true` (the sandbox's own cost), and the everyday commands
`git status`, `python -c pass` and `ls -la`. Reports p50 and p95 of each, the difference at p50, n, and
the load average. Target: the sandbox adds at most 15 ms per command at p50, and the everyday commands
are as fast inside it as outside within noise. Writes `bench/results/sandbox.json`.

    python bench/sandbox_bench.py [--runs 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from asi_agent.config_sections import SANDBOX_CACHES, SANDBOX_HIDDEN
from asi_agent.sandbox import find_bwrap, sandbox_for, unavailable
from asi_agent.tools.exec.terminal import run_command, shell_argv

RESULTS = Path(__file__).parent / "results" / "sandbox.json"
COMMANDS = {
    "true": "true",
    "git status": "git status --short",
    "python -c pass": f"{sys.executable} -c pass",
    "ls -la": "ls -la",
}
TARGET_MS = 15.0


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def _time(argv: list[str], root: Path, log: Path, sandbox: object) -> float:
    started = time.perf_counter()
    result = await run_command(argv, cwd=root, timeout=60, log=log, sandbox=sandbox)  # type: ignore[arg-type]
    elapsed = (time.perf_counter() - started) * 1000
    if result.exit_code != 0:
        raise SystemExit(f"{argv} failed ({result.exit_code}): {log.read_text()[-500:]}")
    return elapsed


async def measure(runs: int) -> dict[str, object]:
    binary = find_bwrap()
    reason = unavailable(binary)
    if reason or binary is None:
        raise SystemExit(f"no sandbox on this machine: {reason}")
    with tempfile.TemporaryDirectory(prefix="asi-sandbox-bench-") as work:
        root = Path(work) / "project"
        root.mkdir()
        for i in range(20):
            (root / f"file{i}.py").write_text(f"x = {i}\n", encoding="utf-8")
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
        subprocess.run(["git", "add", "-A"], cwd=root, check=True)
        sandbox = sandbox_for(
            root, binary=binary, network=False, writable=(), caches=SANDBOX_CACHES, hidden=SANDBOX_HIDDEN
        )
        log = Path(work) / "out.log"
        rows = {}
        for name, command in COMMANDS.items():
            argv = shell_argv(command)
            inside: list[float] = []
            outside: list[float] = []
            for _ in range(3):  # warm the page cache for both
                await _time(argv, root, log, sandbox)
                await _time(argv, root, log, None)
            for _ in range(runs):
                inside.append(await _time(argv, root, log, sandbox))
                outside.append(await _time(argv, root, log, None))
                await asyncio.sleep(0.05)  # commands come apart, not back to back
            rows[name] = {
                "inside_p50_ms": round(statistics.median(inside), 1),
                "inside_p95_ms": round(_p95(inside), 1),
                "outside_p50_ms": round(statistics.median(outside), 1),
                "outside_p95_ms": round(_p95(outside), 1),
                "added_p50_ms": round(statistics.median(inside) - statistics.median(outside), 1),
                "n": runs,
            }
    return {"rows": rows, "target_added_p50_ms": TARGET_MS}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    load_before = os.getloadavg()
    found = asyncio.run(measure(args.runs))
    found["load_average_before"] = [round(x, 2) for x in load_before]
    found["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    args.out.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print("| command | inside p50 (p95) | outside p50 (p95) | added at p50 | n |")
    print("|---|---:|---:|---:|---:|")
    rows = found["rows"]
    assert isinstance(rows, dict)
    for name, row in rows.items():
        print(
            f"| `{name}` | {row['inside_p50_ms']} ms ({row['inside_p95_ms']}) | {row['outside_p50_ms']} ms "
            f"({row['outside_p95_ms']}) | **{row['added_p50_ms']} ms** | {row['n']} |"
        )
    added = rows["true"]["added_p50_ms"]
    verdict = "met" if added <= TARGET_MS else "NOT met"
    print(
        f"\nTarget ≤ {TARGET_MS:g} ms added at p50 (`true`): {verdict} ({added} ms). "
        f"Load average before {found['load_average_before']}, after {found['load_average_after']}."
    )


if __name__ == "__main__":
    main()
