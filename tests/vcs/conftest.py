"""Real git repositories and the real CLI for the git tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asi_cli import model_free_env


def git(root: Path, *args: str, input: str | None = None) -> str:
    """Run git in `root` and return its output (raises on failure)."""
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True, input=input)
    return done.stdout


def cli(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The real `asi-agent` as a subprocess, without a TTY."""
    full = model_free_env()
    full["ASI_CONFIG_DIR"] = str(root.parent / "user-config")
    full.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "asi_agent", *args, "--cwd", str(root)],
        capture_output=True,
        text=True,
        env=full,
        timeout=180,
        check=False,
    )


def script(root: Path, replies: list[Any]) -> Path:
    """A scripted model (native calls) saved next to the project."""
    path = root.parent / "script.json"
    path.write_text(json.dumps({"native": True, "replies": replies}))
    return path


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with two committed files, on branch `main`."""
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Pat Person")
    git(root, "config", "user.email", "pat@example.org")
    (root / "a.py").write_text("value = 1\n")
    (root / "b.py").write_text("other = 2\n")
    (root / ".gitignore").write_text("*.log\n")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "start")
    return root
