"""`--yes` with an `--approval` other than yolo is a usage error: exit 1, one line naming both flags."""

import subprocess
import sys

import pytest


def run_cli(*args: str, cwd) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "asi_agent", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


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
