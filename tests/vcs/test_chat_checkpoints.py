"""The chat checkpoints the tree before each message's first change, as `run` does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from asi_cli import model_free_env
from conftest import call, cli, git, script


def test_a_chat_message_that_changes_files_leaves_a_checkpoint(repo: Path):
    model = script(
        repo,
        [
            {"text": "", "tool_calls": [call("replace_text", path="a.py", oldText="1", newText="2")]},
            "Changed.\nAGENT_STATUS: DONE",
            "Nothing to change.\nAGENT_STATUS: DONE",
        ],
    )
    env = model_free_env() | {"ASI_CONFIG_DIR": str(repo.parent / "user-config")}
    flags = ["--provider", "scripted", "--model", str(model), "--approval", "yolo"]
    chat = subprocess.run(
        [sys.executable, "-m", "asi_agent", "chat", "--plain", *flags],
        cwd=repo,
        input="set value to 2\njust say hi\n/quit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert chat.returncode == 0, chat.stderr
    assert (repo / "a.py").read_text() == "value = 2\n"
    listed = cli(repo, "checkpoints")
    assert listed.returncode == 0, listed.stderr
    lines = [line for line in listed.stdout.splitlines() if line.strip()]
    assert len(lines) == 1 and "set value to 2" in lines[0], listed.stdout  # a message changing nothing: none
    checkpoint = lines[0].split()[0]
    restored = cli(repo, "checkpoints", "restore", checkpoint)
    assert restored.returncode == 0, restored.stderr
    assert (repo / "a.py").read_text() == "value = 1\n"
    assert git(repo, "status", "--porcelain") == ""
