"""Switching an editor session to yolo re-checks the sandbox, as starting in yolo does: `session/set_mode`
and the `/mode` command are refused, with the reason, where the session has none and the person did not
turn it off (`--no-sandbox`). A real `asi-agent acp` subprocess on a machine where no sandbox can start."""

from __future__ import annotations

from pathlib import Path

import pytest
from acp import RequestError, text_block
from editor import Editor, agent_process, call, script
from nosandbox import no_sandbox_env

REFUSAL = "yolo runs commands without asking only inside the sandbox, and this session has none"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, value in no_sandbox_env(tmp_path).items():
        monkeypatch.setenv(name, value)  # the agent process inherits them
    root = tmp_path / "proj"
    root.mkdir()
    return root


async def test_set_mode_and_the_mode_command_refuse_yolo_without_a_sandbox(project: Path, tmp_path: Path):
    model = script(
        tmp_path / "model.json",
        [call("c1", "create_file", path="new.py", content="x = 1\n"), "Not written.\nAGENT_STATUS: STOP"],
    )
    editor = Editor()
    async with agent_process(editor, model, project) as conn:
        session = await conn.new_session(cwd=str(project), mcp_servers=[])
        with pytest.raises(RequestError) as refused:
            await conn.set_session_mode(session_id=session.session_id, mode_id="yolo")
        assert REFUSAL in str(refused.value.data) and "--no-sandbox" in str(refused.value.data)

        assert await editor.prompt(session.session_id, text_block("/mode yolo")) == "end_turn"
        assert f"/mode: {REFUSAL}" in editor.message_text()
        assert not editor.of_kind("current_mode_update")

        editor.answers = ["no"]
        assert await editor.prompt(session.session_id, text_block("make new.py")) == "end_turn"
        assert len(editor.permissions) == 1, "still in ask mode: the write asked"
        assert not (project / "new.py").exists()


async def test_with_no_sandbox_chosen_explicitly_yolo_is_allowed(project: Path, tmp_path: Path):
    model = script(tmp_path / "model.json", ["Fine.\nAGENT_STATUS: DONE"])
    editor = Editor()
    async with agent_process(editor, model, project, "--no-sandbox") as conn:
        session = await conn.new_session(cwd=str(project), mcp_servers=[])
        await conn.set_session_mode(session_id=session.session_id, mode_id="yolo")
        assert await editor.prompt(session.session_id, text_block("/mode")) == "end_turn"
        assert "mode: yolo" in editor.message_text()
