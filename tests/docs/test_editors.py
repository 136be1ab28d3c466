"""The editor snippets of README.md and docs/editors.md start a working ACP agent.

Each JSON snippet that registers asi-agent (Zed's settings, JetBrains' acp.json) is parsed as written; its
`args` are given to the real `asi-agent` (as `python -m asi_agent`, the test's interpreter) and the SDK's
client side checks that the agent answers `initialize` and opens a session. The Neovim snippet must start the
same command.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from acp import PROTOCOL_VERSION, spawn_agent_process
from acp.schema import ClientCapabilities
from asi_cli import model_free_env

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", REPO / "docs" / "editors.md"]
JSON_BLOCK = re.compile(r"```json\n(.*?)```", re.S)


def _registrations() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for page in PAGES:
        for block in JSON_BLOCK.findall(page.read_text(encoding="utf-8")):
            servers = json.loads(block).get("agent_servers", {})
            found.extend((page.name, entry) for name, entry in servers.items() if name == "asi-agent")
    return found


class _Quiet:
    """A client that only takes notifications."""

    async def session_update(self, **_: Any) -> None:
        """Updates are not looked at here."""


def test_every_page_registers_asi_agent_acp() -> None:
    """README shows Zed's snippet; the editors page Zed's and JetBrains'; all of them run `asi-agent acp`."""
    found = _registrations()
    assert [page for page, _ in found].count("README.md") == 1
    assert [page for page, _ in found].count("editors.md") == 2
    for _, entry in found:
        assert Path(entry["command"]).name == "asi-agent" and entry["args"] == ["acp"]
    lua = (REPO / "docs" / "editors.md").read_text(encoding="utf-8")
    assert 'default = { "asi-agent", "acp" }' in lua


@pytest.mark.parametrize(("page", "entry"), _registrations(), ids=lambda v: v if isinstance(v, str) else "")
async def test_the_snippet_starts_an_agent(page: str, entry: dict[str, Any], tmp_path: Path) -> None:
    env = model_free_env() | entry.get("env", {})
    env["ASI_CONFIG_DIR"] = str(tmp_path / "user-config")
    model = tmp_path / "model.json"
    model.write_text('{"replies": ["Hello.\\nAGENT_STATUS: DONE"]}', encoding="utf-8")
    options = ["--provider", "scripted", "--model", str(model)]
    async with spawn_agent_process(
        _Quiet(), sys.executable, "-m", "asi_agent", *entry["args"], *options, env=env
    ) as (conn, _):
        hello = await asyncio.wait_for(
            conn.initialize(protocol_version=PROTOCOL_VERSION, client_capabilities=ClientCapabilities()), 60
        )
        assert hello.agent_info is not None and hello.agent_info.name == "asi-agent"
        assert hello.agent_capabilities is not None and hello.agent_capabilities.load_session
        session = await asyncio.wait_for(conn.new_session(cwd=str(tmp_path), mcp_servers=[]), 60)
        assert (tmp_path / ".asi" / "sessions" / f"{session.session_id}.jsonl").is_file()
