"""`--yes` with an `--approval` other than yolo is a usage error: exit 1, one line naming both flags."""

import subprocess

import pytest
from asi_cli import asi


def run_cli(*args: str, cwd) -> subprocess.CompletedProcess[str]:
    """The command with a private user folder: nothing of the real user's is read or written."""
    return asi(*args, cwd=cwd, timeout=60)


@pytest.mark.parametrize("mode", ["plan", "ask", "auto-edit"])
def test_yes_conflicts_with_another_approval(tmp_path, mode):
    done = run_cli("run", "say hi", "--approval", mode, "--yes", "--cwd", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--yes" in lines[0] and f"--approval {mode}" in lines[0]
    assert not (tmp_path / ".asi").exists()


def test_yes_with_approval_yolo_is_no_conflict(tmp_path):
    done = run_cli("run", "say hi", "--approval", "yolo", "--yes", "--provider", "openai", "--base-url",
                   "http://127.0.0.1:9", "--model", "m", "--cwd", str(tmp_path), cwd=tmp_path)  # fmt: skip
    assert "conflicts" not in done.stderr
