"""The real `asi-agent run` with a scripted model making given calls, for the extension tools' tests."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import asi_cli

DONE = "Done.\nAGENT_STATUS: DONE"
NO_SEARCH_KEYS = {"TAVILY_API_KEY": "", "BRAVE_API_KEY": ""}
"""The web search keys of whoever runs the tests, blanked: an empty key counts as none."""


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
    proc = asi_cli.scripted_run(root, replies, *flags, "Do the task.", env=NO_SEARCH_KEYS)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def json_run(root: Path, calls: list[dict[str, Any]], *flags: str, **kwargs: Any) -> dict[str, Any]:
    """`scripted_run` with `--output-format json`: the final JSON object."""
    proc = scripted_run(root, calls, "--output-format", "json", *flags, **kwargs)
    return asi_cli.last_json(proc.stdout)
