"""The rest of `.asi/` with several processes writing at once: transcripts, chat history, checkpoints,
the first-request cache and the code index stay consistent, and a lock held too long is reported.
Real processes, not threads."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import FindCodeLocationArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.code.index import store as index_store
from asi_agent.tools.code.lookup import find_code_location
from asi_agent.tools.files.journal import Journal

REPO = Path(__file__).resolve().parents[2]
WRITERS = 4


def _all_at_once(code: str, *args: str, count: int = WRITERS) -> list[str]:
    """Run `code` in `count` processes that start their work together (they wait for a `go` file)."""
    go = Path(args[0]) / "go"
    wait = "import sys, time\nfrom pathlib import Path\n"
    wait += "while not Path(sys.argv[1], 'go').exists(): time.sleep(0.001)\n"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", wait + code, *args, str(i)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(count)
    ]
    time.sleep(1.0)
    go.touch()
    outputs = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        outputs.append(out)
    return outputs


def test_processes_appending_big_records_to_one_transcript_never_mix_their_lines(tmp_path: Path) -> None:
    code = """
from asi_agent.session.store import Session
session, me = Session(Path(sys.argv[1]) / "s.jsonl"), sys.argv[2]
for n in range(40):
    session.append("message", who=me, n=n, text=me * 70_000)  # far beyond any stdio buffer
"""
    _all_at_once(code, str(tmp_path))
    lines = (tmp_path / "s.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]  # a mixed line would not parse
    assert len(records) == WRITERS * 40
    for who in map(str, range(WRITERS)):
        mine = [r for r in records if r["who"] == who]
        assert [r["n"] for r in mine] == list(range(40)) and all(r["text"] == who * 70_000 for r in mine)


def test_two_chats_adding_to_the_input_history_at_once_keep_every_entry(tmp_path: Path) -> None:
    code = """
from asi_agent.ui.history import InputHistory
history, me = InputHistory(Path(sys.argv[1])), sys.argv[2]
for n in range(50):
    history.add(f"chat {me} message {n} " + "x" * 9000)
"""
    _all_at_once(code, str(tmp_path))
    lines = (tmp_path / ".asi" / "chat_history").read_text(encoding="utf-8").splitlines()
    entries = {json.loads(line).split(" x")[0] for line in lines}
    assert len(lines) == WRITERS * 50
    assert entries == {f"chat {me} message {n}" for me in range(WRITERS) for n in range(50)}


def test_checkpoints_saved_at_once_under_one_session_never_overwrite_each_other(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "a.txt").write_text("a\n", encoding="utf-8")
    code = """
from asi_agent.vcs.checkpoints import create_checkpoint
from asi_agent.vcs.repo import open_repo
repo = open_repo(Path(sys.argv[1]))
for n in range(5):
    print(create_checkpoint(repo, "shared-session", f"{sys.argv[2]}-{n}").id)
"""
    outputs = _all_at_once(code, str(tmp_path))
    made = [line for out in outputs for line in out.split()]
    refs = subprocess.run(
        ["git", "for-each-ref", "--format=%(refname)", "refs/asi/checkpoints/shared-session/"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    assert len(made) == len(set(made)) == WRITERS * 5  # every process got its own number each time
    assert len(refs) == WRITERS * 5


def test_runs_ending_at_once_all_keep_their_first_request_recording(tmp_path: Path) -> None:
    code = """
from asi_agent import prefetch
path, me = str(Path(sys.argv[1]) / "cache" / "first-request.json"), sys.argv[2]
for n in range(30):
    prefetch._write_entry(path, f"key-{me}-{n % 3}", {"url": "http://127.0.0.1/", "n": n})
"""
    _all_at_once(code, str(tmp_path))
    data = json.loads((tmp_path / "cache" / "first-request.json").read_text(encoding="utf-8"))
    assert set(data["entries"]) == {f"key-{me}-{k}" for me in range(WRITERS) for k in range(3)}


def test_a_code_index_locked_too_long_by_another_process_is_an_error_that_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text("def main():\n    return 1\n", encoding="utf-8")
    db = root / ".asi" / "index" / "code.db"
    holder = subprocess.Popen(
        [sys.executable, "-c", _INDEX_HOLDER, str(root), str(db)],
        cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(index_store, "BUSY_TIMEOUT_MS", 300)
        ctx = ToolContext(root=root, journal=Journal(root / ".asi"), session_id="t")
        started = time.monotonic()
        with pytest.raises(ToolError, match="stayed locked by another asi-agent process"):
            asyncio.run(find_code_location(FindCodeLocationArgs(search="main"), ctx))
        assert time.monotonic() - started < 10
    finally:
        holder.communicate("\n", timeout=30)
    # Once the other process is done, the same call works.
    ctx = ToolContext(root=root, journal=Journal(root / ".asi"), session_id="t")
    assert "app.py" in asyncio.run(find_code_location(FindCodeLocationArgs(search="main"), ctx))


_INDEX_HOLDER = """
import sqlite3, sys
from pathlib import Path
from asi_agent.tools.code.index.store import CodeIndex
CodeIndex(Path(sys.argv[1]), Path(sys.argv[2])).close()  # the database exists, in WAL mode
conn = sqlite3.connect(sys.argv[2], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
"""
