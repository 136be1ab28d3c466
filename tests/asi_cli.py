"""Running the real `asi-agent` command as a subprocess, with no TTY and a private user config folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def model_free_env() -> dict[str, str]:
    """This process's environment without the model settings (`ASI_*`, `OPENAI_*`, `OLLAMA_*`) of
    whoever runs the tests."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("ASI_", "OPENAI_", "OLLAMA_"))}


def asi(*args: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """`asi-agent ARGS` in `cwd`, with none of the model settings of whoever runs the tests."""
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(cwd / ".user-config")
    return subprocess.run(
        [sys.executable, "-m", "asi_agent", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def tool_results(root: Path, session_id: str) -> list[str]:
    """The tool results as the model received them, from the session's transcript, in order."""
    transcript = root / ".asi" / "sessions" / f"{session_id}.jsonl"
    records = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    messages = [r["message"] for r in records if r.get("type") == "message"]
    return [m["content"] for m in messages if m["role"] == "tool"]


def text_mode_run(base_url: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`asi-agent run --provider openai --base-url URL --model test-model --tool-mode text --yes ARGS` in
    `cwd`, with a user config folder beside the project."""
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(cwd.parent / "user-config")
    command = [sys.executable, "-m", "asi_agent", "run", "--provider", "openai", "--base-url", base_url]
    command += ["--model", "test-model", "--tool-mode", "text", "--yes", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, timeout=120, check=False)
