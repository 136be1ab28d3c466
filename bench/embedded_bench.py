"""Benchmark: the embedded model (SmolLM2-135M-Instruct, in-process) completing trivially easy tasks.

Each task of `bench/embedded/tasks.json` (show, list, find, answer from a file, fix an obvious bug,
create a small file) runs as `asi-agent run --approval auto-edit --max-turns 4` would — the same
agent, tools, policy and grounding — on a fresh copy of its fixture project under `bench/embedded/
projects/`, and an automatic check decides whether it was done: the run ended DONE and its result
holds the expected text, or the file has the expected content.

Answers must be tight. For answer and find tasks (questions), the result must also have at most
`max_lines` non-empty lines — 1 unless the task says otherwise: the line that answers ("port = 8080",
"notes.txt:3: TODO: write the docs"), not the file around it. A result that holds the expected text
inside the whole file, or next to other lines, fails (`"tight": false` in its row). Every row also says
whether the final answer was decoded by the model (`answer_decoded`) or was the one reply grounding
left. Runs with grounding on and off
(`[local] grounding = false` in the project's `.asi/config.toml`, the old behaviour), `--runs`
times each (seed = run number), on `--threads` CPU threads. Writes `bench/results/embedded.json`
and prints a markdown table with n, completion, median and p95 wall time, and the load average.

    python bench/embedded_bench.py [--runs 3] [--threads 2] [--mode on|off|both] [--only ID ...] [--out FILE]
    python bench/embedded_bench.py --set ordinary|heldout [--runs 1] ...   (see bench/embedded_sets.py)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from asi_agent.assembly import assemble_agent
from asi_agent.backends.local import LocalBackend, LocalBackendConfig
from asi_agent.config import load_config
from asi_agent.events import AssistantReplied, RunFinished

HERE = Path(__file__).parent
TASKS = HERE / "embedded" / "tasks.json"
PROJECTS = HERE / "embedded" / "projects"
RESULTS = HERE / "results" / "embedded.json"
MAX_TURNS = 4
WRITE_KINDS = ("edit", "create")
QUESTION_KINDS = ("answer", "find")
"""Kinds whose result is an answer to a question: it must be tight (see `tight`)."""


def tight(task: dict[str, Any], result: str) -> bool:
    """Whether a question's answer is at most `max_lines` (default 1) non-empty lines; other kinds: True."""
    if task["kind"] not in QUESTION_KINDS:
        return True
    return sum(bool(line.strip()) for line in result.splitlines()) <= int(task.get("max_lines", 1))


def check(task: dict[str, Any], root: Path, status: str, result: str) -> bool:
    """Whether the run did the task: status DONE and the expected (tight) result text or file content."""
    if status != "DONE":
        return False
    if "result_has" in task:
        lacks = task.get("result_lacks", [])
        holds = all(t in result for t in task["result_has"]) and not any(t in result for t in lacks)
        return holds and tight(task, result)
    path = root / task["file"]
    if not path.is_file():
        return False
    content = path.read_text(encoding="utf-8")
    if "file_is" in task:
        return content.strip() == task["file_is"]
    return all(t in content for t in task["file_has"]) and not any(t in content for t in task["file_lacks"])


async def run_task(task: dict[str, Any], backend: LocalBackend, grounding: bool) -> dict[str, Any]:
    """One task on a fresh copy of its project; the run's end, the check and the wall time."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / task["project"]
        shutil.copytree(PROJECTS / task["project"], root)
        (root / ".asi").mkdir()
        (root / ".asi" / "config.toml").write_text(f"[local]\ngrounding = {str(grounding).lower()}\n")
        flags = {"provider": "local", "approval": "auto-edit", "max_turns": MAX_TURNS}
        config = load_config(root, flags)
        started = time.perf_counter()
        agent = assemble_agent(root, config, backend, interactive=False)
        end: RunFinished | None = None
        decoded = 0
        answer_decoded = False
        try:
            async for event in agent.run(task["task"]):
                if isinstance(event, RunFinished):
                    end = event
                elif isinstance(event, AssistantReplied):
                    # A turn the model decoded (grounding may leave one possible reply, emitted as is).
                    was_decoded = event.usage.completion_tokens > 0
                    decoded += was_decoded
                    if not event.message.tool_calls:
                        answer_decoded = was_decoded
        finally:
            await agent.runner.ctx.aclose()
        seconds = time.perf_counter() - started
        assert end is not None
        return {
            "id": task["id"],
            "kind": task["kind"],
            "status": end.status,
            "turns": end.turns,
            "decoded_turns": decoded,
            "answer_decoded": answer_decoded,
            "result": end.result[:300],
            "tight": tight(task, end.result),
            "done": check(task, root, end.status, end.result),
            "seconds": round(seconds, 2),
        }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Completion overall, on write tasks and per kind; median and p95 wall time per task."""
    times = sorted(r["seconds"] for r in rows)

    def rate(selected: list[dict[str, Any]]) -> float:
        return round(100 * sum(r["done"] for r in selected) / len(selected), 1) if selected else 0.0

    kinds = sorted({r["kind"] for r in rows})
    return {
        "n": len(rows),
        "completion": rate(rows),
        "completion_edit": rate([r for r in rows if r["kind"] in WRITE_KINDS]),
        "by_kind": {kind: rate([r for r in rows if r["kind"] == kind]) for kind in kinds},
        "kinds": {kind: _kind_figures([r for r in rows if r["kind"] == kind]) for kind in kinds},
        "median_s": round(statistics.median(times), 2),
        "decoded_turns": f"{sum(r['decoded_turns'] for r in rows)} of {sum(r['turns'] for r in rows)}",
        "p95_s": round(times[min(len(times) - 1, int(0.95 * len(times)))], 2),
    }


def _kind_figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One kind's counts: done, DONE but not tight, final answers the model decoded, median seconds."""
    return {
        "n": len(rows),
        "done": sum(r["done"] for r in rows),
        "not_tight": sum(r["status"] == "DONE" and not r.get("tight", True) for r in rows),
        "answers_decoded": sum(bool(r.get("answer_decoded")) for r in rows),
        "median_s": round(statistics.median(r["seconds"] for r in rows), 2),
    }


async def bench(
    tasks: list[dict[str, Any]], runs: int, threads: int, grounding: bool, partial: Path | None = None
) -> list[dict[str, Any]]:
    """Every task `runs` times; one model load per run (seed = run number)."""
    rows: list[dict[str, Any]] = []
    for run in range(runs):
        backend = LocalBackend(LocalBackendConfig(threads=threads, seed=run))
        try:
            for task in tasks:
                row = await run_task(task, backend, grounding)
                row["run"] = run
                rows.append(row)
                if partial is not None:  # kept after every task: a long run interrupted still counts
                    partial.write_text(
                        json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
                    )
                mark = "ok " if row["done"] else "NO "
                print(
                    f"  {mark} {'on ' if grounding else 'off'} run {run} {row['id']:<16} "
                    f"{row['status']:<9} {row['seconds']:6.1f}s  {row['result'][:70]!r}",
                    flush=True,
                )
        finally:
            await backend.aclose()
    return rows


def main() -> None:
    """Run the benchmark and write its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--mode", choices=("on", "off", "both"), default="both")
    parser.add_argument("--only", nargs="*", default=None, help="task ids")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the figures are written")
    parser.add_argument("--summarise", nargs="*", type=Path, help="only summarise these partial files")
    parser.add_argument(
        "--set",
        choices=("original", "ordinary", "heldout", "heldout2", "heldout3"),
        default="original",
        help="original: tasks.json; ordinary: requests as people type them (tuning); heldout: the sealed set",
    )
    options = parser.parse_args()
    if options.set != "original":
        from embedded_sets import main_set  # noqa: PLC0415

        out = None if options.out == RESULTS else options.out
        main_set(options.set, options.runs, options.threads, options.only, out)
        return
    if options.summarise:
        for path in options.summarise:
            print(path.name, json.dumps(summarise(json.loads(path.read_text(encoding="utf-8")))))
        return
    tasks = json.loads(TASKS.read_text(encoding="utf-8"))
    if options.only:
        tasks = [t for t in tasks if t["id"] in options.only]
    modes = {"on": [True], "off": [False], "both": [True, False]}[options.mode]
    options.out.parent.mkdir(exist_ok=True)
    report: dict[str, Any] = {
        "threads": options.threads,
        "runs": options.runs,
        "tasks": len(tasks),
        "modes": {},
    }
    for grounding in modes:
        load_before = os.getloadavg()
        partial = options.out.with_suffix(f".{'on' if grounding else 'off'}.partial.json")
        rows = asyncio.run(bench(tasks, options.runs, options.threads, grounding, partial))
        load_after = os.getloadavg()
        summary = summarise(rows)
        summary["load_average_1m"] = [round(load_before[0], 2), round(load_after[0], 2)]
        report["modes"]["grounding on" if grounding else "grounding off"] = {"summary": summary, "rows": rows}
    print(
        "\n| mode | n | completed | edit tasks | median s/task | p95 s/task | load avg (1 min, start/end) |"
    )
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, data in report["modes"].items():
        s = data["summary"]
        print(
            f"| {name} | {s['n']} | {s['completion']}% | {s['completion_edit']}% | {s['median_s']} | "
            f"{s['p95_s']} | {s['load_average_1m'][0]} / {s['load_average_1m'][1]} |"
        )
    print("\n| mode | kind | n | done | DONE, not tight | answers decoded | median s/task |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, data in report["modes"].items():
        for kind, k in data["summary"]["kinds"].items():
            print(
                f"| {name} | {kind} | {k['n']} | {k['done']} | {k['not_tight']} | "
                f"{k['answers_decoded']} | {k['median_s']} |"
            )
    if not options.only:
        options.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
