"""Eight real `asi-agent run` processes on one project at once (scripted model): no edit a run reports
as ok is ever lost, a run that lost the race says so, and one `undo` of everything is exact.

To make the race certain rather than likely, the journal's lock is held while the runs start: every
run reads `shared.txt`, computes its edit and waits; when the lock is let go, the first writer wins
and every other run must find that its base changed. (`bench/concurrent_bench.py` repeats the race
unforced, hundreds of edits.)
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from asi_cli import model_free_env

from asi_agent.tools.files.journal import Journal

RUNS = 8
STALE = "shared.txt changed on disk after it was read"

_HOLDER = """
import sys
from pathlib import Path
from asi_agent.tools.files.journal import Journal
with Journal(Path(sys.argv[1]))._locked():
    print("held", flush=True)
    sys.stdin.readline()
"""


def _script(i: int) -> dict[str, Any]:
    edit = {"path": "shared.txt", "oldText": f"line {i}: original", "newText": f"line {i}: run {i}"}
    own = {"path": f"own-{i}.txt", "content": f"written by run {i}\n"}
    calls = [{"name": "replace_text", "arguments": edit}, {"name": "create_file", "arguments": own}]
    return {"native": True, "replies": [{"text": "", "tool_calls": calls}, "Edits made.\nAGENT_STATUS: DONE"]}


def _start(root: Path, *args: str) -> subprocess.Popen[str]:
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(root.parent / "user-config")
    return subprocess.Popen(
        [sys.executable, "-m", "asi_agent", *args],
        cwd=root,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _run_args(script: Path, task: str) -> tuple[str, ...]:
    return ("run", "--provider", "scripted", "--model", str(script), "--yes", "--output-format", "json", task)


def _finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


def _run_all_at_once(tmp_path: Path, root: Path) -> list[dict[str, Any]]:
    for i in range(RUNS):
        (tmp_path / f"script-{i}.json").write_text(json.dumps(_script(i)), encoding="utf-8")
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(root / ".asi")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    runs = [_start(root, *_run_args(tmp_path / f"script-{i}.json", f"edit line {i}")) for i in range(RUNS)]
    sessions = root / ".asi" / "sessions"
    deadline = time.monotonic() + 120
    while len(list(sessions.glob("*.jsonl"))) < RUNS and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.5)  # every run has read shared.txt and waits for the lock
    holder.communicate("\n", timeout=30)
    results = []
    for proc in runs:
        code, out, err = _finish(proc)
        assert code in (0, 2) and out.strip(), err
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def test_eight_runs_at_once_lose_no_reported_edit_and_one_undo_restores_everything(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    original = "".join(f"line {i}: original\n" for i in range(RUNS))
    (root / "shared.txt").write_text(original, encoding="utf-8")

    results = _run_all_at_once(tmp_path, root)

    shared = (root / "shared.txt").read_text(encoding="utf-8")
    ok_edits, lost_races = 0, 0
    for i, result in enumerate(results):
        edit, own = result["tool_calls"]
        assert own["ok"] and (root / f"own-{i}.txt").read_text(encoding="utf-8") == f"written by run {i}\n"
        if edit["ok"]:
            ok_edits += 1
            assert f"line {i}: run {i}\n" in shared  # reported ok, so it is in the file
        else:
            lost_races += 1
            assert STALE in edit["error"] and "nothing was written" in edit["error"]
            assert f"line {i}: original\n" in shared  # refused, so not half-applied either
    assert ok_edits >= 1 and lost_races >= 1
    assert ok_edits + lost_races == RUNS

    journal = Journal(root / ".asi")
    history = list(reversed(journal.entries()))
    assert [e.seq for e in history] == list(range(1, ok_edits + RUNS + 1))  # one ordered history
    shared_changes = [e for e in history if e.path == "shared.txt"]
    assert len(shared_changes) == ok_edits  # a refused edit left no entry

    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(tmp_path / "user-config")
    undo = subprocess.run(
        [sys.executable, "-m", "asi_agent", "undo", str(ok_edits + RUNS)],
        cwd=root, env=env, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert undo.returncode == 0, undo.stderr
    assert (root / "shared.txt").read_text(encoding="utf-8") == original
    assert sorted(p.name for p in root.iterdir() if p.is_file()) == ["shared.txt"]

    # reapply works on the interleaved history too: the latest change comes back exactly
    latest = next(e for e in journal.entries() if e.reverts is None)
    reapply = {"name": "reapply", "arguments": {"index": 0}}
    script = {"native": True, "replies": [{"text": "", "tool_calls": [reapply]}, "Done.\nAGENT_STATUS: DONE"]}
    (tmp_path / "reapply.json").write_text(json.dumps(script), encoding="utf-8")
    again = _run_args(tmp_path / "reapply.json", "reapply the latest change")
    code, _out, err = _finish(_start(root, *again))
    assert code == 0, err
    assert latest.after is not None
    assert (root / latest.path).read_bytes() == journal.blob(latest.after)
