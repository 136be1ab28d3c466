"""An MCP tool's progress on its card in the Textual chat: a stdio server made with the `mcp` SDK reports
`40/100 · indexing` and the running call's card says so (a child agent's call's too, on its nested card);
when the call ends its result replaces it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from chat_helpers import call, make_app, reply, send, until

from asi_agent.ui.tui.widgets import ToolCard
from tests.mcp_helpers import write_mcp_json

pytest.importorskip("mcp")
SERVER = Path(__file__).resolve().parents[2] / "servers" / "mcp_progress.py"


@pytest.fixture
def server(user_config: Path) -> None:
    server = {"command": sys.executable, "args": [str(SERVER)]}
    write_mcp_json(user_config, "progress", server)


async def test_the_card_shows_the_progress_then_the_result(project: Path, server: None) -> None:
    replies = [reply("", call("progress__index", pause=3)), reply("Indexed.\nAGENT_STATUS: DONE")]
    app = make_app(project, replies)
    async with app.run_test() as pilot:
        await send(pilot, "index the project")
        await until(pilot, lambda: any("40/100" in card.heading for card in app.query(ToolCard)))
        card = app.query_one(ToolCard)
        assert card.heading.startswith("… progress__index")
        assert card.heading.endswith("· running · 40/100 · indexing")
        await until(pilot, lambda: app.turn_worker is not None and not app.turn_worker.is_running)
        assert card.heading.startswith("✓ progress__index")
        assert "indexing" not in card.heading and card.output == "indexed"


async def test_a_child_agents_call_shows_its_progress_on_its_nested_card(project: Path, server: None) -> None:
    replies = [
        reply("", call("task", description="index", prompt="Index the project", subagent_type="general")),
        reply("", call("progress__index", pause=3)),
        reply("Indexed.\nAGENT_STATUS: DONE"),
        reply("The project is indexed.\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, replies, "--approval", "yolo")
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "index the project")
        await until(pilot, lambda: any("40/100" in card.heading for card in app.query(ToolCard)))
        task, child = list(app.query(ToolCard))
        assert task.heading.startswith("… task") and "40/100" not in task.heading
        assert child.heading.startswith("… ↳ general › progress__index")
        assert child.heading.endswith("· running · 40/100 · indexing")
        await until(pilot, lambda: app.turn_worker is not None and not app.turn_worker.is_running)
        assert child.heading.startswith("✓ ↳ general › progress__index") and child.output == "indexed"
