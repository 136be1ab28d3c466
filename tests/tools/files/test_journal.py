"""The change journal: append-only entries with blobs, undo of every kind of change, concurrent writers."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from asi_agent.exceptions import UserError
from asi_agent.tools.files.journal import Journal, move_to_trash
from asi_agent.tools.files.textio import write_atomic

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    return Journal(tmp_path / ".asi")


def _write(root: Path, rel: str, data: bytes) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, data)


def test_first_record_creates_state_dir_with_gitignore(tmp_path: Path, journal: Journal) -> None:
    assert not (tmp_path / ".asi").exists()
    journal.record("a.txt", None, b"hi\n", tool="create_file", session_id="s1")
    assert (tmp_path / ".asi" / ".gitignore").read_text() == "*\n"
    assert (tmp_path / ".asi" / "journal" / "entries.jsonl").is_file()


def test_entries_are_newest_first_with_increasing_seq(journal: Journal) -> None:
    first = journal.record("a.txt", None, b"1", tool="create_file", session_id="s")
    second = journal.record("b.txt", None, b"2", tool="create_file", session_id="s")
    third = journal.record("a.txt", b"1", b"3", tool="replace_text", session_id="s")
    assert [e.seq for e in journal.entries()] == [3, 2, 1]
    assert [e.seq for e in journal.entries("a.txt")] == [third.seq, first.seq]
    assert journal.entries(limit=1) == [third]
    assert journal.last_seq() == 3
    assert journal.since(first.seq) == [second, third]
    assert (first.kind, third.kind) == ("created", "modified")


def test_contents_are_stored_as_blobs_not_inline(tmp_path: Path, journal: Journal) -> None:
    big = b"x" * 100_000
    entry = journal.record("big.txt", None, big, tool="create_file", session_id="s")
    assert entry.after is not None
    assert journal.blob(entry.after) == big
    assert len((tmp_path / ".asi" / "journal" / "entries.jsonl").read_bytes()) < 1000


def test_empty_journal(journal: Journal) -> None:
    assert journal.entries() == []
    assert journal.last_seq() == 0
    assert journal.undo(Path("."), 3) == []


def test_torn_last_line_is_skipped_and_repaired(tmp_path: Path, journal: Journal) -> None:
    journal.record("a.txt", None, b"1", tool="create_file", session_id="s")
    with (tmp_path / ".asi" / "journal" / "entries.jsonl").open("ab") as handle:
        handle.write(b'{"seq": 2, "ti')
    assert journal.last_seq() == 1
    entry = journal.record("b.txt", None, b"2", tool="create_file", session_id="s")
    assert entry.seq == 2
    assert [e.path for e in journal.entries()] == ["b.txt", "a.txt"]


def test_undo_of_an_edit_restores_content_and_keeps_mode(tmp_path: Path, journal: Journal) -> None:
    _write(tmp_path, "run.sh", b"echo new\n")
    (tmp_path / "run.sh").chmod(0o755)
    edit = journal.record("run.sh", b"echo old\n", b"echo new\n", tool="replace_text", session_id="s")
    assert journal.undo(tmp_path) == [edit]
    assert (tmp_path / "run.sh").read_bytes() == b"echo old\n"
    assert stat.S_IMODE((tmp_path / "run.sh").stat().st_mode) == 0o755
    record = journal.entries()[0]
    assert (record.tool, record.reverts, record.path) == ("undo", edit.seq, "run.sh")


def test_undo_of_a_create_moves_the_file_to_trash(tmp_path: Path, journal: Journal) -> None:
    _write(tmp_path, "src/new.py", b"print(1)\n")
    journal.record("src/new.py", None, b"print(1)\n", tool="create_file", session_id="s")
    journal.undo(tmp_path)
    assert not (tmp_path / "src" / "new.py").exists()
    trashed = list((tmp_path / ".asi" / "trash").glob("*/src/new.py"))
    assert [p.read_bytes() for p in trashed] == [b"print(1)\n"]


def test_undo_of_a_delete_restores_file_parents_and_mode(tmp_path: Path, journal: Journal) -> None:
    journal.record("deep/dir/tool.sh", b"#!/bin/sh\n", None, tool="delete_file", session_id="s", mode=0o750)
    journal.undo(tmp_path)
    restored = tmp_path / "deep" / "dir" / "tool.sh"
    assert restored.read_bytes() == b"#!/bin/sh\n"
    assert stat.S_IMODE(restored.stat().st_mode) == 0o750


def test_undo_n_changes_newest_first_across_the_same_file(tmp_path: Path, journal: Journal) -> None:
    _write(tmp_path, "a.txt", b"v3")
    first = journal.record("a.txt", None, b"v1", tool="create_file", session_id="s")
    second = journal.record("a.txt", b"v1", b"v2", tool="replace_text", session_id="s")
    third = journal.record("a.txt", b"v2", b"v3", tool="replace_text", session_id="s")
    assert journal.undo(tmp_path, 2) == [third, second]
    assert (tmp_path / "a.txt").read_bytes() == b"v1"
    # Already-undone changes and undo records are skipped: the next undo reverts the create.
    assert journal.undo(tmp_path, 5) == [first]
    assert not (tmp_path / "a.txt").exists()
    assert journal.undo(tmp_path) == []
    assert [e.reverts for e in journal.entries()[:3]] == [first.seq, second.seq, third.seq]


def test_undo_is_refused_when_the_file_changed_since(tmp_path: Path, journal: Journal) -> None:
    _write(tmp_path, "b.txt", b"B2")
    journal.record("b.txt", b"B1", b"B2", tool="replace_text", session_id="s")
    _write(tmp_path, "a.txt", b"edited by hand")
    journal.record("a.txt", b"A1", b"A2", tool="replace_text", session_id="s")
    with pytest.raises(UserError, match=r"a\.txt changed since change #2.*nothing was reverted"):
        journal.undo(tmp_path, 2)
    assert (tmp_path / "a.txt").read_bytes() == b"edited by hand"
    assert (tmp_path / "b.txt").read_bytes() == b"B2"
    assert journal.last_seq() == 2


def test_move_to_trash_keeps_the_relative_path(tmp_path: Path) -> None:
    _write(tmp_path, "pkg/mod.py", b"x")
    dest = move_to_trash(tmp_path, tmp_path / "pkg" / "mod.py")
    assert dest.read_bytes() == b"x"
    assert dest.relative_to(tmp_path / ".asi" / "trash").parts[1:] == ("pkg", "mod.py")
    assert len(dest.relative_to(tmp_path / ".asi" / "trash").parts[0]) == len("20240101-120000-000000")


_WRITER = """
import sys
from pathlib import Path
from asi_agent.tools.files.journal import Journal
journal = Journal(Path(sys.argv[1]))
for i in range(200):
    name = sys.argv[2]
    journal.record(f"{name}/{i}.txt", None, str(i).encode(), tool="create_file", session_id=name)
"""


def test_two_processes_appending_at_once_lose_nothing(tmp_path: Path) -> None:
    state = tmp_path / ".asi"
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(state), name], cwd=REPO) for name in ("p1", "p2")
    ]
    assert [w.wait(timeout=60) for w in writers] == [0, 0]
    lines = (state / "journal" / "entries.jsonl").read_text().splitlines()
    assert len(lines) == 400
    parsed = [json.loads(line) for line in lines]
    assert sorted(item["seq"] for item in parsed) == list(range(1, 401))
    assert sorted(item["path"] for item in parsed if item["session_id"] == "p1") == sorted(
        f"p1/{i}.txt" for i in range(200)
    )


# -- write-ahead: what a process killed mid-change leaves, and how the next one settles it -------------


_KILLED = """
import os, signal, sys
from pathlib import Path
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.files.textio import write_atomic
root, rel, renamed = Path(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
path = root / rel
before = path.read_bytes() if path.exists() else None
with Journal(root / ".asi").change(path, rel, before, b"new\\n", tool="replace_text", session_id="s"):
    if renamed:
        write_atomic(path, b"new\\n")
    else:
        (root / f".{rel}.0123abcd.tmp").write_bytes(b"ne")
    os.kill(os.getpid(), signal.SIGKILL)
"""


def _killed_during(root: Path, rel: str, *, renamed: bool) -> None:
    """Run a process that is SIGKILLed inside `change()`: after the new content was renamed into
    place (`renamed`), or while it was only half-written to a temp file."""
    done = subprocess.run(
        [sys.executable, "-c", _KILLED, str(root), rel, "1" if renamed else "0"], check=False
    )
    assert done.returncode == -9


def test_change_renamed_but_not_committed_is_completed_on_recovery(tmp_path: Path) -> None:
    _write(tmp_path, "a.txt", b"old\n")
    Journal(tmp_path / ".asi").record("a.txt", None, b"old\n", tool="create_file", session_id="s")
    _killed_during(tmp_path, "a.txt", renamed=True)
    journal = Journal(tmp_path / ".asi")
    assert [e.seq for e in journal.entries()] == [1]  # the pending one is not history yet...
    report = journal.recover()
    assert report.committed == (2,) and report.aborted == ()
    assert [e.seq for e in journal.entries()] == [2, 1]  # ...until recovery completes it
    assert [e.seq for e in journal.undo(tmp_path, 1)] == [2]
    assert (tmp_path / "a.txt").read_bytes() == b"old\n"


def test_change_not_renamed_is_rolled_back_and_its_temp_file_removed(tmp_path: Path) -> None:
    _write(tmp_path, "a.txt", b"old\n")
    Journal(tmp_path / ".asi").record("a.txt", None, b"old\n", tool="create_file", session_id="s")
    _killed_during(tmp_path, "a.txt", renamed=False)
    assert (tmp_path / ".a.txt.0123abcd.tmp").exists()
    journal = Journal(tmp_path / ".asi")
    report = journal.recover()
    assert report.aborted == (2,) and report.committed == ()
    assert tmp_path / ".a.txt.0123abcd.tmp" in report.removed
    assert not (tmp_path / ".a.txt.0123abcd.tmp").exists()
    assert [e.seq for e in journal.entries()] == [1]
    assert (tmp_path / "a.txt").read_bytes() == b"old\n"


def test_any_first_use_of_the_journal_settles_pending_changes(tmp_path: Path) -> None:
    _killed_during(tmp_path, "a.txt", renamed=True)
    journal = Journal(tmp_path / ".asi")
    journal.record("b.txt", None, b"b", tool="create_file", session_id="s")  # takes the lock first
    assert [e.path for e in journal.entries()] == ["b.txt", "a.txt"]


def test_failed_write_is_aborted_not_history(tmp_path: Path) -> None:
    journal = Journal(tmp_path / ".asi")
    (tmp_path / "blocker").write_text("a file, not a folder")
    target = tmp_path / "blocker" / "x.txt"
    with (
        pytest.raises(NotADirectoryError),
        journal.change(target, "blocker/x.txt", None, b"x", tool="create_file", session_id="s"),
    ):
        write_atomic(target, b"x")
    assert journal.entries() == []
    assert b'"abort":1' in (tmp_path / ".asi" / "journal" / "entries.jsonl").read_bytes()


def test_sigkill_during_edits_leaves_whole_files_undoable_changes_and_no_strays() -> None:
    """The crash benchmark, shortened: real worker processes killed with SIGKILL mid-edit."""
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "crash_bench.py"), "--kills", "12", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    result = json.loads(done.stdout)
    assert result["changes_committed"] > 12
    assert result["corrupt"] == 0
    assert result["strays_after_recovery"] == 0
    assert result["rounds_not_undoable"] == 0
