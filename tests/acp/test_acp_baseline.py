"""An editor sees the tests that failed before the run's change under its ending, as the chats show them:
`asi-agent acp` as a subprocess, the SDK's client side, a scripted model, a real pytest project whose
suite already fails."""

from __future__ import annotations

from pathlib import Path

from acp import text_block
from editor import Editor, agent_process, call, script

STATS = "def average(xs):\n    return sum(xs) / len(xs)\n"
TESTS = (
    "from stats import average\n\n\n"
    "def test_average():\n    assert average([1, 2, 3]) == 2\n\n\n"
    'def test_legacy_format():\n    assert f"{1.0}" == "1"\n'
)


async def test_the_editor_is_told_which_tests_failed_before_the_change(tmp_path: Path) -> None:
    project = tmp_path / "stats"
    (project / "tests").mkdir(parents=True)
    (project / "stats.py").write_text(STATS, encoding="utf-8")
    (project / "tests" / "test_stats.py").write_text(TESTS, encoding="utf-8")
    docstring = 'def average(xs):\n    """The mean of xs."""\n'
    model = script(
        tmp_path / "docstring.json",
        [
            call("e1", "replace_text", path="stats.py", oldText="def average(xs):\n", newText=docstring),
            "Added the docstring.\nAGENT_STATUS: DONE",
        ],
    )
    editor = Editor()
    async with agent_process(editor, model, project, "--approval", "yolo") as conn:
        session = await conn.new_session(cwd=str(project), mcp_servers=[])
        prompt = text_block("add a docstring to average in stats.py")
        assert await editor.prompt(session.session_id, prompt) == "end_turn"
    said = editor.message_text()
    assert "Added the docstring." in said
    assert (
        "[asi-agent: 1 test failed before the change as well: tests/test_stats.py::test_legacy_format]"
        in said
    ), said
    assert '"""The mean of xs."""' in (project / "stats.py").read_text(encoding="utf-8")
