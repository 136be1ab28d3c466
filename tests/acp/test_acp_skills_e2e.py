"""`/NAME` from an editor (ACP): a skill's name in the prompt loads the skill into the request."""

from __future__ import annotations

import json
from pathlib import Path

from acp import text_block
from editor import Editor, agent_process, script

BODY = "MARKER-ACP-SKILL: answer in one line."


async def test_a_skill_named_in_an_editor_prompt_is_loaded(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    folder = repo / ".asi" / "skills" / "brief"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: brief\ndescription: Answer briefly.\n---\n{BODY}\n", "utf-8"
    )
    (tmp_path / "user-config").mkdir()
    (tmp_path / "user-config" / "config.toml").write_text('[skills]\nembeddings = "lexical"\n', "utf-8")
    model = script(tmp_path / "model.json", ["Brief.\nAGENT_STATUS: DONE"])
    editor = Editor()
    async with agent_process(editor, model, repo) as conn:
        session = await conn.new_session(cwd=str(repo), mcp_servers=[])
        await editor.settled()
        assert await editor.prompt(session.session_id, text_block("/brief what is 404?")) == "end_turn"
        assert "Brief." in editor.message_text()
    (transcript,) = (repo / ".asi" / "sessions").glob("*.jsonl")
    records = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    users = [
        r["message"]["content"] for r in records if r["type"] == "message" and r["message"]["role"] == "user"
    ]
    assert users[0].startswith("what is 404?") and BODY in users[0]
