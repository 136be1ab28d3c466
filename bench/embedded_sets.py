"""Requests as people type them: the tuning set (`bench/embedded/ordinary/`) and the sealed held-out set
(`bench/embedded/heldout/`), run on the embedded model as `asi-agent run` runs them.

Each task (format: `bench/embedded/heldout/README.md`) runs on a fresh copy of its project — a fixture
folder, or `site-packages:<name>`, a copy of that installed package's source tree — with
`--approval yolo` (the copies are throw-away folders; `run the tests` needs to run them) and
`--max-turns 8` (two-step requests need more than four). Outcomes:

- **completed**: the ending the task should have (DONE, or STOP for a vague request) and every check of
  its `expect` holds;
- **false DONE**: the run ended DONE while a check fails (or while the request was too vague to act on);
  "false and verified" counts those the runtime reported `verified` (README: How a run ends);
- **honest STOP**: the run ended STOP without completing;
- **other**: MAX_TURNS, TIMEOUT or ERROR.

    python bench/embedded_bench.py --set ordinary|heldout [--runs 1] [--threads 2] [--only ID ...]
"""

from __future__ import annotations

import asyncio
import filecmp
import json
import os
import shutil
import statistics
import sysconfig
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

from asi_agent.assembly import assemble_agent
from asi_agent.backends.local import LocalBackend, LocalBackendConfig
from asi_agent.config import load_config
from asi_agent.events import AssistantReplied, RunFinished
from asi_agent.tools.files.syntax import checked_language, syntax_error

HERE = Path(__file__).parent
SETS = {
    "ordinary": HERE / "embedded" / "ordinary",
    "heldout": HERE / "embedded" / "heldout",
    "heldout2": HERE / "embedded" / "heldout2",
    "heldout3": HERE / "embedded" / "heldout3",
}
MAX_TURNS = 8
GROUPS = ("tiny", "package", "two-step")


def _copy_project(task: dict[str, Any], folder: Path, base: Path) -> Path:
    """A fresh copy of the task's project under `folder`; its root."""
    name = task["project"]
    if name.startswith("site-packages:"):
        package = name.split(":", 1)[1]
        root = folder / package
        source = Path(sysconfig.get_paths()["purelib"]) / package
        shutil.copytree(source, root / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        return root
    root = folder / name
    shutil.copytree(base / "projects" / name, root, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return root


def failures(task: dict[str, Any], root: Path, pristine: Path, result: str) -> list[str]:
    """Which checks of the task's `expect` fail after the run (empty: all hold)."""
    expect = task.get("expect", {})
    failed: list[str] = []
    for rel, wants in expect.get("files", {}).items():
        path = root / rel
        if not path.is_file():
            failed.append(f"{rel} missing")
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        failed += [f"{rel} lacks {t!r}" for t in wants.get("has", []) if t not in text]
        failed += [f"{rel} still has {t!r}" for t in wants.get("lacks", []) if t in text]
        if wants.get("parses") and (problem := _parse_problem(rel, text)):
            failed.append(f"{rel} does not parse: {problem}")
    for rel in expect.get("unchanged", []):
        if not (root / rel).is_file() or not filecmp.cmp(root / rel, pristine / rel, shallow=False):
            failed.append(f"{rel} changed")
    failed += [f"answer lacks {t!r}" for t in expect.get("result_has", []) if t not in result]
    if (anyof := expect.get("result_any")) and not any(t in result for t in anyof):
        failed.append(f"answer has none of {anyof!r}")
    failed += [f"answer has {t!r}" for t in expect.get("result_lacks", []) if t in result]
    lines = sum(bool(line.strip()) for line in result.splitlines())
    if "max_lines" in expect and lines > int(expect["max_lines"]):
        failed.append(f"answer has {lines} lines (at most {expect['max_lines']})")
    return failed


def _parse_problem(rel: str, text: str) -> str | None:
    if rel.endswith(".ini") or rel.endswith(".cfg"):
        return None
    if rel.endswith(".toml"):
        try:
            tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            return str(exc)
        return None
    return syntax_error(text, checked_language(rel))


def outcome(task: dict[str, Any], status: str, failed: list[str]) -> str:
    """completed, false DONE, honest STOP or other (see the module docstring)."""
    should_stop = task.get("should") == "stop"
    if status == "DONE":
        return "false DONE" if should_stop or failed else "completed"
    if status == "STOP":
        return "completed" if should_stop and not failed else "honest STOP"
    return "other"


async def run_task(task: dict[str, Any], base: Path, backend: LocalBackend) -> dict[str, Any]:
    """One task on a fresh copy of its project: the ending, the checks, the wall time."""
    with tempfile.TemporaryDirectory() as work:
        folder, pristine_folder = Path(work) / "run", Path(work) / "pristine"
        root = _copy_project(task, folder, base)
        pristine = _copy_project(task, pristine_folder, base)
        flags = {"provider": "local", "approval": "yolo", "max_turns": MAX_TURNS}
        config = load_config(root, flags)
        started = time.perf_counter()
        agent = assemble_agent(root, config, backend, interactive=False)
        end: RunFinished | None = None
        decoded = 0
        try:
            async for event in agent.run(task["task"]):
                if isinstance(event, RunFinished):
                    end = event
                elif isinstance(event, AssistantReplied):
                    decoded += event.usage.completion_tokens > 0
        finally:
            await agent.runner.ctx.aclose()
        seconds = time.perf_counter() - started
        assert end is not None
        failed = failures(task, root, pristine, end.result)
        return {
            "id": task["id"],
            "group": task["group"],
            "lang": task["lang"],
            "kind": task["kind"],
            "status": end.status,
            "verified": end.verified,
            "outcome": outcome(task, end.status, failed),
            "failed_checks": failed,
            "turns": end.turns,
            "decoded_turns": decoded,
            "result": end.result[:300],
            "seconds": round(seconds, 2),
        }


def _decoded(rows: list[dict[str, Any]]) -> str:
    """How many of the rows' turns the model decoded (grounding emits a turn with one possible reply)."""
    return f"{sum(r['decoded_turns'] for r in rows)} of {sum(r['turns'] for r in rows)}"


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per group and overall: n, completed, false DONE, honest STOP, other, median and p95 seconds."""

    def figures(selected: list[dict[str, Any]]) -> dict[str, Any]:
        if not selected:
            return {"n": 0}
        times = sorted(r["seconds"] for r in selected)
        count = {name: sum(r["outcome"] == name for r in selected) for name in _OUTCOMES}
        dones = sum(r["status"] == "DONE" for r in selected)
        # "verified" as the runtime reports it: a false DONE it called verified is the worst ending
        verified = [r for r in selected if r["status"] == "DONE" and r.get("verified")]
        false_verified = sum(r["outcome"] == "false DONE" for r in verified)
        return {
            "n": len(selected),
            **count,
            "completed_pct": round(100 * count["completed"] / len(selected), 1),
            "false_done_pct": round(100 * count["false DONE"] / len(selected), 1),
            "false_done_of_dones": f"{count['false DONE']} of {dones}",
            "false_verified": f"{false_verified} of {len(verified)}",
            "decoded_turns": _decoded(selected),
            "median_s": round(statistics.median(times), 2),
            "p95_s": round(times[min(len(times) - 1, int(0.95 * len(times)))], 2),
        }

    summary = {"all": figures(rows)}
    for group in GROUPS:
        summary[group] = figures([r for r in rows if r["group"] == group])
    for lang in ("en", "zh"):
        summary[f"lang {lang}"] = figures([r for r in rows if r["lang"] == lang])
    return summary


_OUTCOMES = ("completed", "false DONE", "honest STOP", "other")


async def bench(
    name: str, tasks: list[dict[str, Any]], runs: int, threads: int, out: Path
) -> list[dict[str, Any]]:
    """Every task `runs` times (seed = run number), rows kept after each task."""
    rows: list[dict[str, Any]] = []
    for run in range(runs):
        backend = LocalBackend(LocalBackendConfig(threads=threads, seed=run))
        try:
            for task in tasks:
                row = await run_task(task, SETS[name], backend)
                row["run"] = run
                rows.append(row)
                out.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
                print(
                    f"  {row['outcome']:<12} {row['id']:<40} {row['status']:<9} {row['seconds']:6.1f}s "
                    f"{row['result'][:60]!r} {'; '.join(row['failed_checks'])[:80]}",
                    flush=True,
                )
        finally:
            await backend.aclose()
    return rows


def main_set(name: str, runs: int, threads: int, only: list[str] | None, out: Path | None) -> None:
    """Run one set and print its table (the held-out set is meant to be run once, at the end)."""
    tasks = json.loads((SETS[name] / "tasks.json").read_text(encoding="utf-8"))
    if only:
        tasks = [t for t in tasks if t["id"] in only]
    target = out or HERE / "results" / f"embedded-{name}.json"
    target.parent.mkdir(exist_ok=True)
    partial = target.with_suffix(".partial.json")
    load_before = os.getloadavg()[0]
    rows = asyncio.run(bench(name, tasks, runs, threads, partial))
    summary = summarise(rows)
    report = {
        "set": name,
        "runs": runs,
        "threads": threads,
        "load_average_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "summary": summary,
        "rows": rows,
    }
    if not only:
        target.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nset {name}, load average (1 min, start/end) {report['load_average_1m']}")
    print(
        "| group | n | completed | false DONE | false and verified | honest STOP | other | decoded turns "
        "| median s | p95 s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for group, f in summary.items():
        if f["n"]:
            print(
                f"| {group} | {f['n']} | {f['completed']} ({f['completed_pct']}%) | {f['false DONE']} "
                f"({f['false_done_pct']}%) | {f['false_verified']} | {f['honest STOP']} | {f['other']} "
                f"| {f['decoded_turns']} "
                f"| {f['median_s']} "
                f"| {f['p95_s']} |"
            )
