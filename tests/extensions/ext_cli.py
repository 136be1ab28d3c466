"""Helpers of the extension tests: a project with a scripted model, run through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from asi_cli import asi


def call(name: str, **arguments: Any) -> dict[str, Any]:
    """A scripted reply that makes one native call."""
    return {"text": "", "tool_calls": [{"name": name, "arguments": arguments}]}


def run(root: Path, task: str, replies: list[Any], *flags: str) -> tuple[dict[str, Any], str]:
    """`asi-agent run TASK` with the scripted replies; the JSON result and stderr."""
    script = root.parent / "script.json"
    script.write_text(json.dumps({"native": True, "replies": replies}))
    done = asi(
        "run", "--provider", "scripted", "--model", str(script), "--output-format", "json",
        "--no-sandbox", *flags, task, cwd=root,
    )  # fmt: skip
    assert done.stdout.strip(), done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def records(root: Path, session_id: str) -> list[dict[str, Any]]:
    """The transcript records of a session."""
    path = root / ".asi" / "sessions" / f"{session_id}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def user_messages(root: Path, session_id: str) -> list[str]:
    """The user messages the model received, in order."""
    found = [r["message"] for r in records(root, session_id) if r.get("type") == "message"]
    return [m["content"] for m in found if m["role"] == "user"]
