"""Custom commands and child agents in an editor: `asi-agent acp` offers the command files as available
commands, runs one as its prompt, and shows a `task` call's child calls under it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from acp import text_block
from editor import Editor, agent_process, call, script


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".claude" / "commands").mkdir(parents=True)
    (root / ".claude" / "commands" / "review.md").write_text(
        "---\ndescription: Review a file for bugs\nargument-hint: FILE\n---\nReview $1 and report bugs.\n"
    )
    (root / "greet.py").write_text("def greet():\n    return 'hi'\n")
    return root


async def test_available_commands_custom_prompt_and_nested_child(project: Path, tmp_path: Path) -> None:
    model = script(
        tmp_path / "model.json",
        [
            call("t1", "task", description="read it", prompt="Read greet.py", subagent_type="explore"),
            call("r1", "read_file", path="greet.py"),
            "greet returns 'hi'.\nAGENT_STATUS: DONE",
            "No bugs: greet returns 'hi'.\nAGENT_STATUS: DONE",
        ],
    )
    editor = Editor()
    async with agent_process(editor, model, project) as conn:
        session = await conn.new_session(cwd=str(project), mcp_servers=[])
        assert await editor.prompt(session.session_id, text_block("/review greet.py")) == "end_turn"
        listed = {c.name: c for c in editor.of_kind("available_commands_update")[-1].available_commands}
        assert {"undo", "diff", "review"} <= set(listed)
        assert listed["review"].description == "Review a file for bugs"
        assert listed["review"].input.root.hint == "FILE"
        child = editor.tool_updates("t1/r1")
        assert child[0].title.startswith("explore › ") and child[-1].status == "completed"
        assert "return 'hi'" in child[-1].content[0].content.text
        assert editor.tool_updates("t1")[-1].status == "completed"
    transcript = project / ".asi" / "sessions" / f"{session.session_id}.jsonl"
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    users = [
        r["message"]["content"]
        for r in records
        if r.get("type") == "message" and r["message"]["role"] == "user"
    ]
    assert users[0] == "Review greet.py and report bugs."
