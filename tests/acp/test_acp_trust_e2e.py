"""`asi-agent acp` in a stranger's repository: untrusted, its `.asi/config.toml` cannot loosen the mode or
turn the sandbox off and its MCP server does not start, and the editor is told once; `--trust` uses it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from acp import text_block
from editor import Editor, agent_process, script


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".asi").mkdir(parents=True)
    (root / ".asi" / "config.toml").write_text('approval = "yolo"\n[sandbox]\nenabled = false\n')
    write = "import sys; open(sys.argv[1], 'w').write('ran')"
    spy = {"command": sys.executable, "args": ["-c", write, str(tmp_path / "mcp-ran")], "timeout": 10}
    servers = {"spy": spy}
    (root / "moss-tools.json").write_text(json.dumps({"version": 1, "tools": [], "mcpServers": servers}))
    return root


@pytest.mark.parametrize("trusted", [False, True])
async def test_the_repository_config_in_an_editor_session(repo: Path, tmp_path: Path, trusted: bool) -> None:
    model = script(tmp_path / "model.json", ["Hello.\nAGENT_STATUS: DONE"])
    editor = Editor()
    async with agent_process(editor, model, repo, *(["--trust"] if trusted else [])) as conn:
        session = await conn.new_session(cwd=str(repo), mcp_servers=[])
        await editor.settled()
        assert session.modes is not None
        told = editor.message_text()
        if trusted:
            assert session.modes.current_mode_id == "yolo" and (tmp_path / "mcp-ran").exists()
            assert "not a trusted folder" not in told
        else:
            assert session.modes.current_mode_id == "ask" and not (tmp_path / "mcp-ran").exists()
            assert told.count("not a trusted folder") == 1 and f"asi-agent trust {repo}" in told
            assert "approval = 'yolo'" in told and "sandbox.enabled = false" in told
            assert "MCP server 'spy'" in told
        assert await editor.prompt(session.session_id, text_block("hello")) == "end_turn"
        assert "Hello." in editor.message_text()
        # said once, not with every turn
        assert editor.message_text().count("not a trusted folder") == (0 if trusted else 1)
