"""Benchmark: several `asi-agent run` processes editing one project at once — no lost update.

Each round starts `--runs` real `asi-agent run` processes at the same moment on one project (a git
repository), each with the scripted model. Run i makes two edits in one reply: `replace_text` of its own
line of the shared file `shared.txt`, and `create_file` of its own file `own-<i>.txt`. Afterwards:

- **lost**: an edit the run reported as ok whose text is not on disk (the failure this guards against);
- **stale**: an edit refused because another run wrote the file between this run's read and its write
  (the model-fixable stale-file error, nothing written, no journal entry);
- **other errors**: an edit that failed for any other reason (should be 0);
- **undo**: one `asi-agent undo N` of every change the round made must bring every file back byte for
  byte (the shared file as it was, the own files gone), whatever order the runs' changes interleaved in.

Targets: 0 lost, 0 other errors, every round's undo exact. Prints a markdown table and writes
`bench/results/concurrent.json`.

    python bench/concurrent_bench.py [--runs 8] [--rounds 32]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results" / "concurrent.json"
STALE = ("changed on disk after it was read", "was created by someone else", "was deleted by someone else")


def shared_text(runs: int) -> str:
    """The shared file before a round: one line per run."""
    return "".join(f"line {i}: original\n" for i in range(runs))


def script(i: int) -> dict[str, Any]:
    """Run i's scripted model: both edits in one reply, then DONE."""
    calls = [
        {
            "name": "replace_text",
            "arguments": {
                "path": "shared.txt",
                "oldText": f"line {i}: original",
                "newText": f"line {i}: run {i}",
            },
        },
        {"name": "create_file", "arguments": {"path": f"own-{i}.txt", "content": f"written by run {i}\n"}},
    ]
    return {
        "native": True,
        "replies": [{"text": "", "tool_calls": calls}, "Both edits made.\nAGENT_STATUS: DONE"],
    }


def _env(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASI_", "OPENAI_", "OLLAMA_"))}
    env["ASI_CONFIG_DIR"] = str(root.parent / "user-config")
    return env


def _asi(root: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "asi_agent", *args],
        cwd=root,
        env=_env(root),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def make_project(work: Path, runs: int) -> Path:
    """A git repository holding the shared file, and one script file per run beside it."""
    root = work / "project"
    root.mkdir()
    (root / "shared.txt").write_text(shared_text(runs), encoding="utf-8")
    for args in (
        ["init", "-q"],
        ["add", "shared.txt"],
        ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "init"],
    ):
        subprocess.run(["git", *args], cwd=root, check=True)
    for i in range(runs):
        (work / f"script-{i}.json").write_text(json.dumps(script(i)), encoding="utf-8")
    return root


def one_round(root: Path, runs: int) -> dict[str, Any]:
    """Start every run at once, wait for all, then check the files and undo everything."""
    before = {p.name: p.read_bytes() for p in root.iterdir() if p.is_file()}
    started = time.perf_counter()
    procs = [
        _asi(
            root,
            "run",
            "--provider",
            "scripted",
            "--model",
            str(root.parent / f"script-{i}.json"),
            "--yes",
            "--output-format",
            "json",
            f"edit line {i}",
        )
        for i in range(runs)
    ]
    outputs = [p.communicate(timeout=600) for p in procs]
    wall = time.perf_counter() - started
    row = {"edits": 0, "ok": 0, "lost": 0, "stale": 0, "other_errors": 0, "wall_s": round(wall, 2)}
    shared = (root / "shared.txt").read_text(encoding="utf-8")
    problems: list[str] = []
    for i, (out, err) in enumerate(outputs):
        lines = out.strip().splitlines()
        if not lines:
            problems.append(f"run {i} printed nothing: {err.strip()[-300:]}")
            continue
        result = json.loads(lines[-1])
        results = _tool_results(root, result["session_id"])
        wanted = {"replace_text": f"line {i}: run {i}\n", "create_file": f"written by run {i}\n"}
        for call, seen in zip(result["tool_calls"], results, strict=True):
            row["edits"] += 1
            on_disk = shared if call["name"] == "replace_text" else _read(root / f"own-{i}.txt")
            if call["ok"]:
                row["ok"] += 1
                row["lost"] += wanted[call["name"]] not in on_disk
            elif any(marker in seen for marker in STALE):
                row["stale"] += 1
                row["lost"] += wanted[call["name"]] in on_disk  # refused yet written: as bad as lost
            else:
                row["other_errors"] += 1
                problems.append(f"run {i} {call['name']}: {seen[:200]}")
    undo = subprocess.run(
        [sys.executable, "-m", "asi_agent", "undo", str(row["ok"])],
        cwd=root,
        env=_env(root),
        capture_output=True,
        text=True,
        check=False,
    )
    after = {p.name: p.read_bytes() for p in root.iterdir() if p.is_file()}
    row["undo_exact"] = undo.returncode == 0 and after == before
    if not row["undo_exact"]:
        problems.append(f"undo: exit {undo.returncode}, {undo.stderr.strip()[-300:]}")
        _reset(root, before)  # so that the next round starts from the same files
    row["problems"] = problems
    return row


def _reset(root: Path, files: dict[str, bytes]) -> None:
    """Put the project's top-level files back as they were (a failed round's leftovers removed)."""
    for path in root.iterdir():
        if path.is_file() and path.name not in files:
            path.unlink()
    for name, data in files.items():
        (root / name).write_bytes(data)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def _tool_results(root: Path, session_id: str) -> list[str]:
    """The tool results as the model received them, from the session's transcript."""
    transcript = root / ".asi" / "sessions" / f"{session_id}.jsonl"
    records = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    messages = [r["message"] for r in records if r.get("type") == "message"]
    return [m["content"] for m in messages if m["role"] == "tool"]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=8, help="processes started at once per round")
    parser.add_argument("--rounds", type=int, default=32)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    load = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory(prefix="asi-concurrent-") as work:
        root = make_project(Path(work), args.runs)
        for number in range(args.rounds):
            row = one_round(root, args.runs)
            rows.append(row)
            print(f"round {number + 1}: {json.dumps(row)}", file=sys.stderr)
    totals = {key: sum(r[key] for r in rows) for key in ("edits", "ok", "lost", "stale", "other_errors")}
    walls = sorted(r["wall_s"] for r in rows)
    summary = {
        "runs_per_round": args.runs,
        "rounds": args.rounds,
        **totals,
        "rounds_undo_exact": sum(r["undo_exact"] for r in rows),
        "round_wall_s_median": round(statistics.median(walls), 2),
        "round_wall_s_p95": walls[min(len(walls) - 1, round(0.95 * (len(walls) - 1)))],
        "load_average_before": [round(x, 2) for x in load],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "rows": rows,
    }
    args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(
        "| runs at once | rounds | edits | reported ok | lost | stale (refused) | other errors | undo exact |"
    )
    print("|---|---|---|---|---|---|---|---|")
    print(
        f"| {args.runs} | {args.rounds} | {totals['edits']} | {totals['ok']} | **{totals['lost']}** | "
        f"{totals['stale']} | {totals['other_errors']} | {summary['rounds_undo_exact']}/{args.rounds} |"
    )
    print(
        f"\nround wall time median {summary['round_wall_s_median']} s, p95 {summary['round_wall_s_p95']} s; "
        f"load average before {summary['load_average_before']}"
    )


if __name__ == "__main__":
    main()
