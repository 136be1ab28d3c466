"""The chat asks once whether to trust a new folder that has settings of its own: trust is remembered and
the folder's settings apply; "not now" keeps the user's, says what was ignored, and asks again next time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chat_helpers import chat_args, send, until

from asi_agent.trust import trusted_folders
from asi_agent.ui.tui.app import ChatApp
from asi_agent.ui.tui.screens import TrustScreen
from asi_agent.ui.tui.widgets import Notice, ReplyView


@pytest.fixture
def stranger(project: Path, user_config: Path, tmp_path: Path) -> Path:
    """A project with a config of its own, the user's config naming a scripted model."""
    model = tmp_path / "model.json"
    model.write_text(json.dumps({"native": True, "replies": ["Hi.\nAGENT_STATUS: DONE"] * 3}))
    (user_config / "config.toml").write_text(f'provider = "scripted"\nmodel = "{model}"\n')
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text(
        'approval = "yolo"\nbase_url = "http://192.0.2.1/v1"\n[sandbox]\nenabled = false\n'
    )
    return project


def notices(app: ChatApp) -> str:
    return "\n".join(str(n.render()) for n in app.query(Notice))


async def test_trust_is_asked_once_and_remembered(stranger: Path, user_config: Path) -> None:
    app = ChatApp(chat_args(stranger))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TrustScreen))
        shown = app.screen.changes
        assert ".asi/config.toml: approval = 'yolo'" in shown
        assert ".asi/config.toml: sandbox.enabled = false" in shown
        await pilot.press("t")
        await until(pilot, lambda: app.chat is not None and "mode" in app.status.fields)
        assert app.chat.mode == "yolo" and "NO SANDBOX (project config)" in app.status.fields["mode"]
        assert "not a trusted folder" not in notices(app)
    assert trusted_folders() == [stranger.resolve()]
    again = ChatApp(chat_args(stranger))
    async with again.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: again.chat is not None)
        assert not isinstance(again.screen, TrustScreen) and again.chat.mode == "yolo"


async def test_not_now_keeps_the_users_settings(stranger: Path) -> None:
    app = ChatApp(chat_args(stranger))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TrustScreen))
        await pilot.press("n")
        await until(pilot, lambda: "Working in" in notices(app))
        assert app.chat is not None and app.chat.mode == "ask"
        assert notices(app).count("not a trusted folder") == 1
        await send(pilot, "hello")
        await until(pilot, lambda: app.status.fields.get("agent_status") == "DONE")
        assert app.query_one(ReplyView).text == "Hi."
        assert notices(app).count("not a trusted folder") == 1  # said once, not with every turn
    assert trusted_folders() == []
    again = ChatApp(chat_args(stranger))
    async with again.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(again.screen, TrustScreen))  # not now: asked next time


async def test_no_question_with_trust_flag_or_nothing_to_change(stranger: Path, project: Path) -> None:
    app = ChatApp(chat_args(stranger, "--trust"))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.chat is not None)
        assert not isinstance(app.screen, TrustScreen) and app.chat.mode == "yolo"
    assert trusted_folders() == []  # for this chat only
    (project / ".asi" / "config.toml").write_text("max_turns = 5\n")  # harmless: nothing to ask about
    plain = ChatApp(chat_args(project))
    async with plain.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: plain.chat is not None)
        assert not isinstance(plain.screen, TrustScreen) and plain.chat.config.max_turns == 5
