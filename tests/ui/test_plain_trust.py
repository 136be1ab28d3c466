"""`chat --plain` asks the trust question as a line: what the folder would change, then t or n."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from asi_agent.backends.scripted import ScriptedBackend
from asi_agent.trust import trusted_folders
from asi_agent.ui.chatsession import ChatSession, trust_question
from asi_agent.ui.cli import build_parser
from asi_agent.ui.plain_setup import ask_trust_in_terminal


@pytest.fixture
def stranger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ASI_CONFIG_DIR", str(tmp_path / "cfg"))
    root = tmp_path / "repo"
    (root / ".asi").mkdir(parents=True)
    (root / ".asi" / "config.toml").write_text('approval = "yolo"\n[sandbox]\nnetwork = true\n')
    return root


async def typed(root: Path, changes: list[str], answer: str) -> bool:
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        keys.send_text(answer)
        return await ask_trust_in_terminal(root, changes)


@pytest.mark.parametrize(("answer", "trusted"), [("t\r", True), ("n\r", False), ("\r", False)])
async def test_the_question_and_its_answers(stranger: Path, capsys, answer: str, trusted: bool) -> None:
    args = build_parser().parse_args(["chat", "--plain", "--cwd", str(stranger), "--provider", "scripted"])
    changes = trust_question(args)
    assert changes == [".asi/config.toml: sandbox.network = true", ".asi/config.toml: approval = 'yolo'"]
    assert await typed(stranger, changes, answer) is trusted
    shown = capsys.readouterr().out
    assert "• .asi/config.toml: approval = 'yolo'" in shown
    assert (f"trusted {stranger}" in shown) is trusted
    assert trusted_folders() == ([stranger] if trusted else [])
    assert (trust_question(args) == []) is trusted  # trusted: never asked again
    if trusted:
        chat = ChatSession.open(args, backend=ScriptedBackend(["Hi.\nAGENT_STATUS: DONE"]))
        assert chat.mode == "yolo"
        await chat.close()
