"""The real `asi-agent run` with a scripted model making given calls, for the extension tools' tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from asi_cli import model_free_env

DONE = "Done.\nAGENT_STATUS: DONE"


def write_user_config(root: Path, toml: str) -> None:
    """Write the user's `config.toml` that `scripted_run` in `root` reads (in the sibling `user-config`)."""
    user = root.parent / "user-config"
    user.mkdir(exist_ok=True)
    (user / "config.toml").write_text(toml)


def scripted_run(
    root: Path, calls: list[dict[str, Any]], *flags: str, replies_after: list[Any] | None = None
) -> subprocess.CompletedProcess[str]:
    """`asi-agent run FLAGS` in `root` (no terminal): the model makes `calls`, one per reply, then answers
    with `replies_after` (default: DONE). The user config folder is `root`'s sibling `user-config`."""
    replies: list[Any] = [{"text": "", "tool_calls": [call]} for call in calls]
    replies += replies_after if replies_after is not None else [DONE, DONE]
    script = root.parent / "script.json"
    script.write_text(json.dumps({"native": True, "replies": replies}))
    env = {k: v for k, v in model_free_env().items() if k not in ("TAVILY_API_KEY", "BRAVE_API_KEY")}
    env["ASI_CONFIG_DIR"] = str(root.parent / "user-config")
    proc = subprocess.run(
        [sys.executable, "-m", "asi_agent", "run", "--provider", "scripted", "--model", str(script), *flags,
         "Do the task."],
        cwd=root, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def json_run(root: Path, calls: list[dict[str, Any]], *flags: str, **kwargs: Any) -> dict[str, Any]:
    """`scripted_run` with `--output-format json`: the final JSON object."""
    proc = scripted_run(root, calls, "--output-format", "json", *flags, **kwargs)
    result: dict[str, Any] = json.loads(proc.stdout.splitlines()[-1])
    return result


def results(root: Path, session_id: str) -> list[str]:
    """The tool results as the model received them, in order."""
    transcript = root / ".asi" / "sessions" / f"{session_id}.jsonl"
    records = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    messages = [r["message"] for r in records if r.get("type") == "message"]
    return [m["content"] for m in messages if m["role"] == "tool"]
