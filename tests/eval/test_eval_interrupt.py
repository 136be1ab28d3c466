"""An eval stopped by SIGTERM (a CI timeout, `kill`) ends at once, reports, and leaves no temp folders."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from asi_cli import model_free_env

from asi_agent.eval.suite import BUILTIN_SUITE

# The task's first call keeps the run busy (a long command, allowed in yolo) until the signal comes.
SLOW_SCRIPT = {
    "native": True,
    "replies": [
        {"tool_calls": [{"name": "run_terminal_cmd", "arguments": {"command": "sleep 30"}}]},
        "Done.\nAGENT_STATUS: DONE",
    ],
}


def test_sigterm_ends_the_eval_promptly_and_removes_its_temp_folders(tmp_path: Path) -> None:
    shutil.copytree(BUILTIN_SUITE / "py-read-config", tmp_path / "suite" / "py-read-config")
    (tmp_path / "slow.json").write_text(json.dumps(SLOW_SCRIPT))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = model_free_env()
    env |= {"ASI_CONFIG_DIR": str(tmp_path / ".user-config"), "TMPDIR": str(scratch)}
    command = [sys.executable, "-m", "asi_agent", "eval", "--suite", "suite", "--provider", "scripted"]
    command += ["--model", str(tmp_path / "slow.json"), "--approval", "yolo"]
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not list(scratch.glob("asi-eval-*/*/*")):  # a task's project copy exists: the run is on
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the eval never started its task"
            time.sleep(0.2)
        time.sleep(2)  # into the long command
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=20)  # not the 30 s the command would take
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert b"interrupted" in err
    assert b"Traceback" not in err
    assert b"task" in out  # the table of what finished is still printed
    assert [p.name for p in scratch.iterdir() if p.name.startswith("asi-eval")] == []
