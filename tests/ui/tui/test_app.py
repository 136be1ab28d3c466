"""The Textual chat driven with `App.run_test()` pilots, on the scripted model and a real project folder."""

from __future__ import annotations

from chat_helpers import FIX_SCRIPT, make_app, send, until

from asi_agent.ui.tui.screens import ApprovalScreen
from asi_agent.ui.tui.widgets import ReplyView, ToolCard


async def test_fix_approved_in_the_modal(project):
    app = make_app(project, FIX_SCRIPT)
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "fix add in calc.py")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await pilot.press("y")
        await until(pilot, lambda: not app.turn_worker.is_running)
        cards = app.query(ToolCard)
        assert [c.call.name for c in cards] == ["read_file", "replace_text"]
        assert "a + b" in (project / "calc.py").read_text()
        replies = [r.text for r in app.query(ReplyView)]
        assert replies[-1].startswith("Fixed `add`")
        assert "DONE" in str(app.status.fields)
