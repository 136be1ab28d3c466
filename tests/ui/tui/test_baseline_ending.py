"""The chat's ending names the tests that failed before the run's change as well (README: How a run ends)."""

from __future__ import annotations

from pathlib import Path

from chat_helpers import call, make_app, reply, send, until

from asi_agent.ui.tui.widgets import Notice

TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


async def test_an_unrelated_edit_ends_done_with_the_failure_that_was_there_shown(project: Path) -> None:
    (project / "test_calc.py").write_text(TEST)  # fails before the run: add subtracts
    docstring = call(
        "replace_text", path="calc.py", oldText="def add(a, b):\n", newText='def add(a, b):\n    """Add."""\n'
    )
    script = [reply("", docstring), reply("Added the docstring.\nAGENT_STATUS: DONE")]
    app = make_app(project, script, "--approval", "yolo")
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "add a docstring to add in calc.py")
        await until(pilot, lambda: app.turn_worker is not None and not app.turn_worker.is_running)
        assert app.status.fields["agent_status"] == "DONE"
        shown = [str(notice.render()) for notice in app.query(Notice)]
        assert "1 test failed before the change as well: test_calc.py::test_add" in shown
