"""`asi-agent chat --plain` on a real terminal (a pseudo-terminal): one key answers an approval, no Enter."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from asi_cli import model_free_env

BUGGY = "def add(a, b):\n    return a - b\n"
FIX = {"path": "calc.py", "oldText": "a - b", "newText": "a + b"}


def _read_until(fd: int, wanted: str, seen: list[str], timeout: float = 60) -> None:
    """Read the terminal's output until `wanted` shows (or fail, showing what did)."""
    deadline = time.monotonic() + timeout
    while wanted not in "".join(seen):
        left = deadline - time.monotonic()
        if left <= 0:
            pytest.fail(f"{wanted!r} never showed; the terminal showed: {''.join(seen)[-2000:]!r}")
        ready, _, _ = select.select([fd], [], [], min(left, 0.5))
        if ready:
            try:
                seen.append(os.read(fd, 65536).decode("utf-8", "replace"))
            except OSError:
                pytest.fail(f"the chat ended before {wanted!r}: {''.join(seen)[-2000:]!r}")


@pytest.mark.parametrize(("key", "after"), [("y", BUGGY.replace("a - b", "a + b")), ("n", BUGGY)])
def test_one_key_answers_an_approval(tmp_path: Path, key: str, after: str) -> None:
    project = tmp_path / "calc"
    project.mkdir()
    (project / "calc.py").write_text(BUGGY, encoding="utf-8")
    replies = [
        {"text": "", "tool_calls": [{"name": "replace_text", "arguments": FIX}]},
        "Handled.\nAGENT_STATUS: DONE",
    ]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(tmp_path / "user-config")
    env["TERM"] = "xterm"
    env["PROMPT_TOOLKIT_NO_CPR"] = "1"  # nobody answers the cursor position request
    leader, follower = pty.openpty()
    argv = [
        sys.executable,
        "-m",
        "asi_agent",
        "chat",
        "--plain",
        "--provider",
        "scripted",
        "--model",
        str(script),
    ]
    proc = subprocess.Popen(argv, cwd=project, env=env, stdin=follower, stdout=follower, stderr=follower)
    os.close(follower)
    seen: list[str] = []
    try:
        _read_until(leader, "›", seen)
        os.write(leader, b"fix add\r")
        _read_until(leader, "Allow?", seen)
        os.write(leader, key.encode())  # the key alone
        _read_until(leader, "Handled.", seen)
        assert (project / "calc.py").read_text(encoding="utf-8") == after
        os.write(leader, b"/quit\r")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(leader)
