"""Through `asi-agent acp` as an editor drives it: a session's git (the system prompt's `git status` and
`git log`, made for every new session) runs no hook, fsmonitor or filter the repository plants."""

from __future__ import annotations

import subprocess
from pathlib import Path

from acp import text_block
from editor import Editor, agent_process, call, script


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout


def plant(root: Path, marker: Path) -> None:
    """Hooks, an fsmonitor and a clean filter, each a script that touches `marker`."""
    program = root / "tools" / "evil"
    program.parent.mkdir()
    program.write_text(f"#!/bin/sh\ntouch '{marker}'\ncat\n")
    program.chmod(0o755)
    for hook in ("pre-commit", "post-index-change", "reference-transaction", "post-commit"):
        (root / ".git" / "hooks" / hook).write_text(program.read_text())
        (root / ".git" / "hooks" / hook).chmod(0o755)
    git(root, "config", "core.fsmonitor", str(program))
    git(root, "config", "filter.fmt.clean", str(program))
    (root / ".gitattributes").write_text("*.py filter=fmt\n")


async def test_an_acp_session_runs_nothing_the_repository_plants(tmp_path: Path) -> None:
    root, marker = tmp_path / "proj", tmp_path / "markers" / "ran"
    root.mkdir()
    marker.parent.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "greet.py").write_text("def greet():\n    return 'hi'\n")
    git(root, "add", ".")
    git(root, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "start")
    plant(root, marker)
    model = script(
        tmp_path / "model.json",
        [call("c1", "create_file", path="new.py", content="x = 1\n"), "Created.\nAGENT_STATUS: DONE"],
    )
    editor = Editor()
    editor.answers = ["yes"]
    async with agent_process(editor, model, root) as conn:
        session = await conn.new_session(cwd=str(root), mcp_servers=[])
        assert await editor.prompt(session.session_id, text_block("add a module")) == "end_turn"
    assert (root / "new.py").read_text() == "x = 1\n"
    assert not marker.exists(), "the repository's program ran"
