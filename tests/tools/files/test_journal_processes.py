"""Several processes writing one project: a write is atomic with its check, the journal is one ordered
history, and nobody waits on a lock forever. Real processes throughout, not threads."""

from __future__ import annotations

import itertools
import subprocess
import sys
import time
from pathlib import Path

import pytest

from asi_agent.tools.files import journal_file
from asi_agent.tools.files.journal import Journal, StaleFileError
from asi_agent.tools.files.journal_file import JournalBusyError
from asi_agent.tools.files.textio import write_atomic

REPO = Path(__file__).resolve().parents[3]

_ONE_WRITE = """
import sys
from pathlib import Path
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.files.textio import write_atomic
root, text = Path(sys.argv[1]), sys.argv[2].encode()
target = root / "shared.txt"
before = target.read_bytes()
with Journal(root / ".asi").change(target, "shared.txt", before, text, tool="t", session_id="other"):
    write_atomic(target, text)
"""

_EDITOR = """
import sys, time
from pathlib import Path
from asi_agent.tools.files.journal import Journal, StaleFileError
from asi_agent.tools.files.textio import write_atomic
root, me, times = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
target, journal, stale = root / "shared.txt", Journal(root / ".asi"), 0
while not (root / "go").exists():  # every process starts editing at the same moment
    time.sleep(0.001)
for version in range(1, times + 1):
    while True:  # read, compute, write; a stale base means read again, as the model is told to
        before = target.read_bytes()
        lines = before.decode().splitlines(keepends=True)
        lines[me] = f"line {me}: v{version}\\n"
        after = "".join(lines).encode()
        try:
            with journal.change(target, "shared.txt", before, after, tool="t", session_id=f"s{me}"):
                write_atomic(target, after)
            break
        except StaleFileError:
            stale += 1
print(stale)
"""

_HOLDER = """
import sys, time
from pathlib import Path
from asi_agent.tools.files.journal import Journal
with Journal(Path(sys.argv[1]))._locked():
    print("held", flush=True)
    time.sleep(60)
"""


def _python(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_write_on_a_base_another_process_changed_is_refused_with_the_diff_and_not_journaled(
    tmp_path: Path,
) -> None:
    target = tmp_path / "shared.txt"
    target.write_bytes(b"one\ntwo\n")
    journal = Journal(tmp_path / ".asi")
    base = target.read_bytes()  # this process read the file ...
    other = _python(_ONE_WRITE, str(tmp_path), "one\nTWO (the other run)\n")  # ... another one wrote it
    assert other.wait(timeout=60) == 0, other.stderr.read() if other.stderr else ""

    change = journal.change(target, "shared.txt", base, b"ONE\ntwo\n", tool="replace_text", session_id="me")
    with pytest.raises(StaleFileError) as caught, change:
        write_atomic(target, b"ONE\ntwo\n")
    message = str(caught.value)
    assert "shared.txt changed on disk after it was read" in message and "nothing was written" in message
    assert "-two\n+TWO (the other run)" in message and "Call read_file again" in message
    assert target.read_bytes() == b"one\nTWO (the other run)\n"  # the other process's edit is kept
    assert [e.session_id for e in journal.entries()] == ["other"]  # and the refused one left no entry


def test_a_file_created_or_deleted_meanwhile_is_refused_too(tmp_path: Path) -> None:
    journal = Journal(tmp_path / ".asi")
    target = tmp_path / "new.txt"
    target.write_bytes(b"made by someone else\n")
    create = journal.change(target, "new.txt", None, b"mine\n", tool="create_file", session_id="me")
    with pytest.raises(StaleFileError, match=r"new\.txt was created by someone else"), create:
        write_atomic(target, b"mine\n")
    gone = tmp_path / "gone.txt"
    edit = journal.change(gone, "gone.txt", b"was here\n", b"edited\n", tool="replace_text", session_id="me")
    with pytest.raises(StaleFileError, match=r"gone\.txt was deleted by someone else"), edit:
        write_atomic(gone, b"edited\n")
    assert target.read_bytes() == b"made by someone else\n" and not gone.exists()
    assert journal.entries() == []


def test_processes_editing_one_file_at_once_lose_nothing_and_undo_restores_it_exactly(tmp_path: Path) -> None:
    writers, times = 6, 15
    original = "".join(f"line {i}: original\n" for i in range(writers)).encode()
    (tmp_path / "shared.txt").write_bytes(original)
    procs = [_python(_EDITOR, str(tmp_path), str(i), str(times)) for i in range(writers)]
    time.sleep(1.0)
    (tmp_path / "go").touch()
    stale = 0
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        stale += int(out)

    final = (tmp_path / "shared.txt").read_text(encoding="utf-8")
    assert final == "".join(f"line {i}: v{times}\n" for i in range(writers))  # every edit of every process
    journal = Journal(tmp_path / ".asi")
    history = list(reversed(journal.entries()))
    assert [e.seq for e in history] == list(range(1, writers * times + 1))  # one ordered history
    switches = sum(a.session_id != b.session_id for a, b in itertools.pairwise(history))
    assert switches > writers - 1  # the processes' entries interleave, not one process after another
    for earlier, later in itertools.pairwise(history):
        assert earlier.after == later.before  # each change was made on the one before it
    print(f"{stale} stale bases refused and redone, {switches} switches between processes")

    reverted = journal.undo(tmp_path, writers * times)
    assert len(reverted) == writers * times
    assert (tmp_path / "shared.txt").read_bytes() == original


def test_a_lock_held_too_long_is_reported_with_its_holder_instead_of_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / ".asi"
    Journal(state).last_seq()
    holder = _python(_HOLDER, str(state))
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(journal_file, "LOCK_WAIT", 0.3)
        started = time.monotonic()
        with pytest.raises(JournalBusyError) as caught:
            Journal(state).record("a.txt", None, b"x", tool="t", session_id="s")
        assert time.monotonic() - started < 5
        assert f"pid {holder.pid}" in str(caught.value) and "nothing was written" in str(caught.value)
    finally:
        holder.kill()
        holder.wait()
    assert Journal(state).entries() == []  # after the holder is gone, the next writer goes ahead
    Journal(state).record("a.txt", None, b"x", tool="t", session_id="s")
    assert [e.seq for e in Journal(state).entries()] == [1]
