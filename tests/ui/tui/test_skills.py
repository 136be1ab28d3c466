"""`/NAME` in the Textual chat: a skill's name goes to the agent with the skill loaded (a pilot test)."""

from __future__ import annotations

from pathlib import Path

import pytest
from chat_helpers import make_app, reply, send, until

from asi_agent.ui.tui.widgets import Notice, UserLine

BODY = "MARKER-NOTES-SKILL: write notes in the notes/ folder."


@pytest.fixture
def with_skill(user_config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder = user_config / "skills" / "notes"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: notes\ndescription: Write notes.\n---\n{BODY}\n", "utf-8")
    (user_config / "config.toml").write_text('[skills]\nembeddings = "lexical"\n', encoding="utf-8")
    return folder


async def test_slash_skill_name_is_sent_to_the_agent_with_the_skill(project: Path, with_skill: Path) -> None:
    app = make_app(project, [reply("Noted.\nAGENT_STATUS: DONE")], "--no-sandbox")
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "/nope")
        await until(
            pilot, lambda: "unknown command /nope" in "\n".join(str(n.render()) for n in app.query(Notice))
        )
        await send(pilot, "/notes take a note")
        await until(pilot, lambda: app.turn_worker is not None and not app.turn_worker.is_running)
        assert "› /notes take a note" in [str(u.render()) for u in app.query(UserLine)]
        assert app.chat is not None
        users = [m.content for m in app.chat.agent.messages if m.role == "user"]
        assert users[0].startswith("take a note") and BODY in users[0]
