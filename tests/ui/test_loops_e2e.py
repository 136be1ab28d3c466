"""A refused write does not loop to the turn limit, in every front end: `run` and the plain chat as
subprocesses without a terminal (where every "ask" is a refusal), and the full-screen chat answering "n"."""

from __future__ import annotations

import json
from pathlib import Path

from asi_cli import run_cli, write_script

BUGGY = "def add(a, b):\n    return a - b\n"
READ = {"name": "read_file", "arguments": {"path": "calc.py"}}
WRITE = {"name": "replace_text", "arguments": {"path": "calc.py", "oldText": "a - b", "newText": "a + b"}}
CYCLE = [{"text": "", "tool_calls": [READ]}, {"text": "", "tool_calls": [WRITE]}] * 15


def project_with_script(tmp_path: Path, replies: list) -> tuple[Path, Path]:
    root = tmp_path / "calc"
    root.mkdir()
    (root / "calc.py").write_text(BUGGY)
    return root, write_script(tmp_path, replies)


def test_run_without_a_terminal_stops_a_refused_write_after_two_refusals(tmp_path):
    root, model = project_with_script(tmp_path, CYCLE)
    proc = run_cli(
        "run", "--provider", "scripted", "--model", str(model), "--output-format", "json", "fix add", cwd=root
    )
    assert proc.returncode == 2, proc.stderr
    result = json.loads(proc.stdout.splitlines()[-1])
    assert result["status"] == "STOP"
    assert result["result"].startswith("stopped a loop") and "replace_text" in result["result"]
    writes = [c for c in result["tool_calls"] if c["name"] == "replace_text"]
    assert [c["error"].startswith("permission denied") for c in writes] == [True, True]
    assert result["turns"] < 10
    assert (root / "calc.py").read_text() == BUGGY


def test_plain_chat_stops_the_loop_and_the_next_message_starts_afresh(tmp_path):
    """After a loop was stopped, `/mode auto-edit` and the same write in the next message runs: the loop
    breaker's memory is the run's, not the chat's."""
    after = [{"text": "", "tool_calls": [WRITE]}, "Fixed now.\nAGENT_STATUS: DONE"]
    root, model = project_with_script(tmp_path, [*CYCLE[:5], *after])
    proc = run_cli(
        "chat", "--plain", "--provider", "scripted", "--model", str(model),
        cwd=root, stdin="fix add\n/mode auto-edit\nfix it again\n/quit\n",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert (
        "── STOP: stopped a loop: the model went round the same 2 calls 3 times (read_file, replace_text)"
        in out
    )
    assert out.count("permission denied") == 2
    assert "Fixed now." in out and "── DONE" in out
    assert (root / "calc.py").read_text() == BUGGY.replace("a - b", "a + b")
