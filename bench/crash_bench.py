"""Benchmark: SIGKILL during edits — the journal stays crash-consistent.

A worker process edits, creates and deletes files of a small project through the real write path
(`commit_change`: atomic write + write-ahead journal) as fast as it can; it is killed with SIGKILL at a
random moment, `--kills` times. After every kill:

- every project file must be whole: each content the worker writes carries its own checksum;
- the next process's journal recovery settles the interrupted change and deletes its temporary files:
  afterwards no `.<name>.<hex>.tmp` file may remain anywhere in the project;
- every completed change must be undoable: for each file, the newest committed journal entry must
  describe what is on disk (the check `asi-agent undo` makes), and one real undo is done.

Targets: 0 corrupt files, 100% undoable, 0 stray files. Prints a markdown table and writes
`bench/results/crash.json`; `--json` prints only the JSON (used by the test suite).

    python bench/crash_bench.py [--kills N] [--seed N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from asi_agent.exceptions import UserError
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.files.textio import is_write_temp

RESULTS = Path(__file__).parent / "results" / "crash.json"
NAMES = [f"file{i}.txt" for i in range(6)] + ["sub/deep.txt"]

WORKER = r"""
import hashlib, os, random, sys
from pathlib import Path
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.files.ops import commit_change

root = Path(sys.argv[1]); names = sys.argv[3:]
rng = random.Random(int(sys.argv[2]))
ctx = ToolContext(root=root, journal=Journal(root / ".asi"), session_id="crash")
print("ready", flush=True)
n = 0
while True:
    n += 1
    path = root / rng.choice(names)
    before = path.read_bytes() if path.exists() else None
    if before is not None and rng.random() < 0.15:
        commit_change(ctx, path, before, None, tool="bench")
        continue
    body = (f"v{n} " + "x" * rng.randint(0, 200_000)).encode()
    after = hashlib.sha256(body).hexdigest().encode() + b"\n" + body
    commit_change(ctx, path, before, after, tool="bench")
"""


def whole(data: bytes) -> bool:
    """Whether a file holds a complete version: its first line is the checksum of the rest."""
    head, _, body = data.partition(b"\n")
    return hashlib.sha256(body).hexdigest().encode() == head


def check(root: Path) -> dict[str, Any]:
    """Corrupt files and stray temp files before recovery; recovery; stray files and undo after it."""
    files = [p for p in root.rglob("*") if p.is_file() and ".asi" not in p.relative_to(root).parts]
    corrupt = [p for p in files if not is_write_temp(p.name) and not whole(p.read_bytes())]
    strays_before = [p for p in files if is_write_temp(p.name)]
    journal = Journal(root / ".asi")
    report = journal.recover()
    strays_after = [p for p in root.rglob("*") if p.is_file() and is_write_temp(p.name)]
    mismatched = 0
    newest: dict[str, Any] = {}
    for entry in journal.entries():
        newest.setdefault(entry.path, entry)
    for rel, entry in newest.items():
        disk = (root / rel).read_bytes() if (root / rel).exists() else None
        want = None if entry.after is None else journal.blob(entry.after)
        mismatched += disk != want
    undo_ok = True
    try:
        journal.undo(root, 1)
    except UserError:
        undo_ok = False
    return {
        "corrupt": len(corrupt),
        "strays_before_recovery": len(strays_before),
        "strays_after_recovery": len(strays_after),
        "settled": len(report.committed) + len(report.aborted),
        "not_undoable": mismatched + (not undo_ok),
    }


def run(kills: int, seed: int) -> dict[str, Any]:
    """`kills` kill-and-check rounds on one project; the totals."""
    rng = random.Random(seed)
    totals = {"corrupt": 0, "strays_before_recovery": 0, "strays_after_recovery": 0, "settled": 0}
    rounds_not_undoable = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "sub").mkdir()
        for kill in range(kills):
            worker = subprocess.Popen(
                [sys.executable, "-c", WORKER, str(root), str(seed * 100_000 + kill), *NAMES],
                stdout=subprocess.PIPE,
            )
            assert worker.stdout is not None
            worker.stdout.readline()  # imported and about to write
            time.sleep(rng.uniform(0.0, 0.25))
            os.kill(worker.pid, signal.SIGKILL)
            worker.wait()
            worker.stdout.close()
            found = check(root)
            rounds_not_undoable += found.pop("not_undoable") > 0
            for key, value in found.items():
                totals[key] += value
        changes = len(Journal(root / ".asi").entries())
    return {
        "kills": kills,
        "changes_committed": changes,
        "rounds_not_undoable": rounds_not_undoable,
        **totals,
    }


def main() -> None:
    """Parse the options, run, print and save the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print only the JSON result")
    args = parser.parse_args()
    result = {**run(args.kills, args.seed), "load_average": os.getloadavg()[0]}
    if args.json:
        print(json.dumps(result))
        return
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print("| kills | committed changes | corrupt files | stray files after recovery | rounds not undoable |")
    print("|---:|---:|---:|---:|---:|")
    print(
        f"| {result['kills']} | {result['changes_committed']} | {result['corrupt']} | "
        f"{result['strays_after_recovery']} | {result['rounds_not_undoable']} |"
    )
    print(
        f"(temp files left by kills before recovery: {result['strays_before_recovery']}; "
        f"interrupted changes settled: {result['settled']})"
    )


if __name__ == "__main__":
    main()
