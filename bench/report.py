"""Run every benchmark and write one dated markdown report (`bench/reports/<date>-<time>.md`).

Each benchmark runs as its own process with its own time limit; the report gives the machine, the
load average before each benchmark, the command that produced each table, how long it took, and the
table itself. A benchmark that writes its figures to `bench/results/` gets the table `bench/tables`
renders from that file — the same table the documentation's Benchmarks page shows; the others (and one
that failed) get what they printed. A benchmark that fails or runs out of time is reported as such,
never left out. `bench/run` installs what the benchmarks need and calls this.

    python bench/report.py [--only NAME ...] [--quick]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import tables

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
REPORTS = HERE / "reports"


@dataclass(frozen=True)
class Bench:
    """One benchmark: its name, what it measures, its arguments (after `python`), a time limit."""

    name: str
    title: str
    args: tuple[str, ...]
    timeout: float
    quick_args: tuple[str, ...] = ()


BENCHES: tuple[Bench, ...] = (
    Bench("startup", "Start-up: first model request and exit, vs a bare request and aider",
          ("bench/startup_bench.py", "--runs", "10", "--with-aider"), 330, ("--runs", "3", "--with-aider")),
    Bench("turns", "Per-turn overhead over 200 turns", ("bench/turn_bench.py", "--turns", "200"), 180,
          ("--turns", "60")),
    Bench("search", "grep_search vs plain ripgrep", ("bench/search_bench.py", "--runs", "31"), 180,
          ("--runs", "5")),
    Bench("index", "Code index: build, re-index, tool latency back to back and spaced 2.5 s",
          ("bench/index_bench.py", "--spacing", "2.5"), 420, ("--spacing", "1.0")),
    Bench("crash", "SIGKILL during edits: journal consistency",
          ("bench/crash_bench.py", "--kills", "200"), 300, ("--kills", "40")),
    Bench("concurrent", "Several agents, one project: runs started at once editing the same files",
          ("bench/concurrent_bench.py", "--runs", "8", "--rounds", "32"), 600, ("--rounds", "4")),
    Bench("sandbox", "The sandbox's cost per command, with and without it, interleaved",
          ("bench/sandbox_bench.py", "--runs", "60"), 180, ("--runs", "15")),
    Bench("fuzz", "Fuzzing: 10^6 inputs per target, two targets at a time",
          ("bench/fuzz.py", "--runs", "1000000", "--jobs", "2"), 720,
          ("--runs", "20000", "--guided", "2000")),
    Bench("routing", "Tool routing with 100+ plugin tools", ("bench/routing_bench.py",), 120),
    Bench("safety", "Command safety: the graded corpus through classifier and engine, per mode",
          ("bench/safety_bench.py",), 120),
    Bench("calls", "Tool-call parsing: the 499-reply corpus vs agent-tool-parser",
          ("bench/calls_bench.py", "--runs", "5"), 120, ("--runs", "2")),
    Bench("local", "Embedded model: constrained vs free tool calls (8 of the 24 requests)",
          ("bench/local_constrained.py", "--limit", "8"), 240, ("--limit", "4")),
    # One pass with grounding on; the README's comparison with grounding off (minutes per task) is
    # `python bench/embedded_bench.py --runs 3` on its own.
    Bench("embedded", "Embedded model completing easy tasks (grounding on, one pass)",
          ("bench/embedded_bench.py", "--runs", "1", "--mode", "on", "--out", "bench/.cache/embedded.json"),
          420),
)  # fmt: skip


def machine() -> list[str]:
    """Lines describing this machine."""
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kib / 1024 / 1024:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return [
        f"- machine: {platform.system()} {platform.release()}, {os.cpu_count()} cores ({cpu}){memory}",
        f"- Python {platform.python_version()} ({sys.executable.replace(str(REPO) + '/', '')})",
        f"- load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
    ]


def run(bench: Bench, quick: bool) -> list[str]:
    """One benchmark's section of the report."""
    args = (bench.args[0], *bench.quick_args) if quick and bench.quick_args else bench.args
    command = f"python {' '.join(args)}"
    load = os.getloadavg()[0]
    started = time.time()
    begun = time.monotonic()
    print(f"== {bench.name}: {command}", file=sys.stderr, flush=True)
    try:
        done = subprocess.run(
            [sys.executable, *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=bench.timeout,
            check=False,
        )
        output, verdict = done.stdout.strip(), "" if done.returncode == 0 else f"exit code {done.returncode}"
        if done.returncode != 0:
            output += "\n\n```\n" + done.stderr.strip()[-2000:] + "\n```"
    except subprocess.TimeoutExpired as exc:
        partial = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        output, verdict = partial.strip(), f"stopped after its {bench.timeout:.0f} s limit"
    elapsed = time.monotonic() - begun
    if not verdict:
        output = rendered(bench.name, started) or output
    status = f" — **{verdict}**" if verdict else ""
    return [
        f"## {bench.title}",
        "",
        f"`{command}` — {elapsed:.0f} s, load average {load:.2f} before it{status}",
        "",
        local_paths_out(output) or "(no output)",
        "",
    ]


def rendered(name: str, started: float, bench: Path = HERE) -> str:
    """The table of `bench/tables` for benchmark `name`, if it wrote its result file since `started`."""
    source = tables.SOURCES.get(name)
    file = bench / source.path if source else None
    if file is None or not file.is_file() or file.stat().st_mtime < started:
        return ""
    return f"figures: `bench/{source.path}`\n\n" + tables.section(name, bench)


def local_paths_out(text: str) -> str:
    """`text` with this checkout's folder and the home folder left out: a report names no local path."""
    return text.replace(f"{REPO}{os.sep}", "").replace(str(Path.home()), "~")


def main() -> None:
    """Parse the options, run the benchmarks, write the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=[b.name for b in BENCHES], help="default: all")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (for a smoke check)")
    options = parser.parse_args()
    begun = time.monotonic()
    today = dt.datetime.now(dt.UTC)
    lines = [f"# Benchmark report {today:%Y-%m-%d %H:%M} UTC", "", *machine(), ""]
    if options.quick:
        lines += ["**Quick run: fewer repetitions than the figures in the README.**", ""]
    for bench in BENCHES:
        if options.only and bench.name not in options.only:
            continue
        lines += run(bench, options.quick)
    lines.insert(5, f"- total time: {(time.monotonic() - begun) / 60:.1f} min")
    REPORTS.mkdir(exist_ok=True)
    target = REPORTS / f"{today:%Y-%m-%d-%H%M}.md"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"report: {target.relative_to(REPO)}", file=sys.stderr)


if __name__ == "__main__":
    main()
