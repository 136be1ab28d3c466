"""Benchmark of the code index on a copy of the Python standard library.

Run from the repository root:  .venv/bin/python bench/index_bench.py
The copy lives in bench/.cache/stdlib (made once, shared with the other benchmarks; bench/.cache is
git-ignored by its own .gitignore). Results: a markdown table on stdout and bench/results/index.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from asi_agent.tools.args import CodebaseSearchArgs, FindCodeLocationArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.code.index.store import CodeIndex
from asi_agent.tools.code.lookup import codebase_search, find_code_location
from asi_agent.tools.files.journal import Journal

BENCH = Path(__file__).resolve().parent
CACHE = BENCH / ".cache"
TREE = CACHE / "stdlib"
RESULTS = BENCH / "results" / "index.json"
CHANGED_FILE = "json/decoder.py"
TARGETS = {"full_index_s": 60.0, "reindex_one_file_s": 1.0, "definition_p50_ms": 50.0, "search_p50_ms": 100.0}
# Calls seconds apart, as a real model makes them: what a user waits for.
TARGETS |= {"spaced_definition_p50_ms": 20.0, "spaced_search_p50_ms": 50.0}
TARGETS["peak_rss_mb"] = 300.0
DEFINITIONS = [
    "urlparse",
    "JSONDecoder",
    "HTTPConnection",
    "Popen",
    "TextIOWrapper",
    "deepcopy",
    "namedtuple",
    "ArgumentParser",
    "Thread",
    "getaddrinfo",
    "dataclass",
    "Path",
    "Logger",
    "SequenceMatcher",
    "ZipFile",
    "Decimal",
    "Fraction",
    "OrderedDict",
    "partial",
    "lru_cache",
    "Template",
    "Request",
    "ThreadPoolExecutor",
    "TemporaryDirectory",
    "shlex.split",
    "HTTPResponse.begin",
    "ElementTree",
    "Counter.most_common",
    "BaseEventLoop.run_until_complete",
    "Queue.get",
]
QUERIES = [
    "parse an http response status line",
    "read a zip archive member",
    "retry a socket connection",
    "json decode error position",
    "format a traceback",
    "thread pool worker shutdown",
    "walk a directory tree",
    "compare two sequences",
    "temporary file cleanup",
    "decimal rounding mode",
    "email header encoding",
    "csv dialect sniffing",
    "base64 decode",
    "getaddrinfo",
    "event loop close",
    "subprocess timeout kill",
    "parse command line arguments",
    "urllib quote",
    "sqlite connection",
    "pickle protocol",
]


def ensure_tree() -> None:
    """Copy the standard library once (without site-packages and caches) unless the copy exists."""
    if TREE.is_dir():
        return
    CACHE.mkdir(parents=True, exist_ok=True)
    ignore = CACHE / ".gitignore"
    if not ignore.exists():
        ignore.write_text("*\n", encoding="utf-8")
    staging = CACHE / f"stdlib.{os.getpid()}.tmp"
    source = sysconfig.get_paths()["stdlib"]
    shutil.copytree(
        source, staging, symlinks=True, ignore=shutil.ignore_patterns("site-packages", "__pycache__")
    )
    try:
        staging.rename(TREE)
    except OSError:  # another benchmark made it meanwhile
        shutil.rmtree(staging, ignore_errors=True)


def child_index(root: Path) -> None:
    """Child process: build the index from nothing and print what it did."""
    index = CodeIndex(root, root / ".asi" / "index" / "code.db")
    stats = index.update()
    index.close()
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({"files": stats.files, "parsed": stats.parsed, "rss_mb": own, "worker_rss_mb": workers}))


def full_index() -> dict[str, float]:
    """Time a cold build in a subprocess; its peak memory comes from the kernel's accounting."""
    shutil.rmtree(TREE / ".asi" / "index", ignore_errors=True)
    begun = time.perf_counter()
    done = subprocess.run(
        [sys.executable, __file__, "--child-index"],
        check=True,
        capture_output=True,
        text=True,
        cwd=BENCH.parent,
    )
    wall = time.perf_counter() - begun
    report = json.loads(done.stdout.strip().splitlines()[-1])
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "full_index_s": wall,
        "files": report["files"],
        "peak_rss_mb": report["rss_mb"],
        "worker_peak_rss_mb": report["worker_rss_mb"],
        "cpu_s": usage.ru_utime + usage.ru_stime,
    }


def reindex_one_file() -> dict[str, float]:
    """Change one file, time the incremental update, then restore the file."""
    index = CodeIndex(TREE, TREE / ".asi" / "index" / "code.db")
    index.update()
    rescan_begun = time.perf_counter()
    index.update()
    rescan = time.perf_counter() - rescan_begun
    target = TREE / CHANGED_FILE
    original = target.read_bytes()
    try:
        target.write_bytes(original + b"\n\ndef bench_added_function():\n    return 42\n")
        begun = time.perf_counter()
        stats = index.update()
        elapsed = time.perf_counter() - begun
        assert stats.parsed == 1, stats
    finally:
        target.write_bytes(original)
        index.update()
        index.close()
    return {"reindex_one_file_s": elapsed, "rescan_unchanged_s": rescan}


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def tool_latencies(spacing: float = 0.0) -> dict[str, float]:
    """p50/p95 of the tools themselves (index already built, as within a session), calls `spacing` s apart."""
    ctx = ToolContext(root=TREE, journal=Journal(TREE / ".asi"))
    try:
        await find_code_location(FindCodeLocationArgs(search="warm-up", findDefinition=True), ctx)
        definitions = []
        for name in DEFINITIONS:
            await asyncio.sleep(spacing)
            begun = time.perf_counter()
            out = await find_code_location(FindCodeLocationArgs(search=name, findDefinition=True), ctx)
            definitions.append(time.perf_counter() - begun)
            assert "none found" not in out, (name, out)
        searches = []
        for query in QUERIES:
            await asyncio.sleep(spacing)
            begun = time.perf_counter()
            out = await codebase_search(CodebaseSearchArgs(query=query), ctx)
            searches.append(time.perf_counter() - begun)
            assert out.startswith("Top "), (query, out)
    finally:
        await ctx.aclose()
    prefix = "spaced_" if spacing else ""
    return {
        f"{prefix}definition_p50_ms": statistics.median(definitions) * 1000,
        f"{prefix}definition_p95_ms": _pct(definitions, 0.95) * 1000,
        f"{prefix}definition_max_ms": max(definitions) * 1000,
        f"{prefix}search_p50_ms": statistics.median(searches) * 1000,
        f"{prefix}search_p95_ms": _pct(searches, 0.95) * 1000,
        f"{prefix}search_max_ms": max(searches) * 1000,
        f"{prefix}n_definitions": len(definitions),
        f"{prefix}n_searches": len(searches),
    }


def main() -> None:
    """Run every measurement, print the table, write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--child-index", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--spacing", type=float, default=2.5, help="seconds between spaced tool calls")
    options = parser.parse_args()
    if options.child_index:
        child_index(TREE)
        return
    ensure_tree()
    results: dict[str, float] = {}
    results.update(full_index())
    results.update(reindex_one_file())
    results.update(asyncio.run(tool_latencies()))
    results.update(asyncio.run(tool_latencies(options.spacing)))
    # Main process and its two parsers together can never exceed main + 2 × the largest parser.
    results["all_processes_rss_bound_mb"] = results["peak_rss_mb"] + 2 * results["worker_peak_rss_mb"]
    print("| measure | value | target | met |\n|---|---|---|---|")
    for key, value in results.items():
        target = TARGETS.get(key)
        verdict = "" if target is None else ("yes" if value <= target else "NO")
        print(f"| {key} | {value:.3f} | {'' if target is None else target} | {verdict} |")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    payload = {"results": results, "targets": TARGETS, "cpu_count": os.cpu_count()}
    payload["load_average"] = list(os.getloadavg())
    RESULTS.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
