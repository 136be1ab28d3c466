"""`asi-agent acp` driven as an editor drives it: the SDK's client side against a real subprocess and the
scripted model."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from acp import RequestError, text_block
from acp.schema import (
    EmbeddedResourceContentBlock,
    FileEditToolCallContent,
    ResourceContentBlock,
    TextResourceContents,
)
from asi_cli import asi
from editor import Editor, agent_process, call, script

GREET = "def greet():\n    return 'hi'\n"
TIMEOUT = 60


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "greet.py").write_text(GREET)
    return root


def _diffs(editor: Editor, call_id: str) -> list[FileEditToolCallContent]:
    return [
        c
        for u in editor.tool_updates(call_id)
        for c in (u.content or [])
        if isinstance(c, FileEditToolCallContent)
    ]


def _finished(editor: Editor, call_id: str) -> str | None:
    return next((u.status for u in reversed(editor.tool_updates(call_id)) if u.status), None)


async def test_prompts_permissions_edit_cancel_undo_and_load(project: Path, tmp_path: Path) -> None:
    """A read, an edit allowed with a diff, one rejected, a prompt cancelled at its question, /undo; then a
    new process loads the session and goes on with it."""
    model = script(
        tmp_path / "first.json",
        [
            call("r1", "read_file", path="greet.py"),
            call("e1", "replace_text", path="greet.py", oldText="'hi'", newText="'hello'"),
            "Changed the greeting.\nAGENT_STATUS: DONE",
            call("e2", "replace_text", path="greet.py", oldText="'hello'", newText="'hey'"),
            "You said no, so I left it.\nAGENT_STATUS: DONE",
            call("r2", "read_file", path="greet.py"),
            call("c1", "create_file", path="new.py", content="x = 1\n"),
            "never sent: the prompt is cancelled before",
        ],
    )
    editor = Editor()
    editor.answers = ["yes", "no", "cancel"]
    async with agent_process(editor, model, project) as conn:
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        session_id = new.session_id
        assert new.modes is not None
        assert [m.id for m in new.modes.available_modes] == ["ask", "auto-edit", "plan", "yolo"]
        assert new.modes.current_mode_id == "ask"

        assert await editor.prompt(session_id, text_block("say hello")) == "end_turn"
        assert (project / "greet.py").read_text() == "def greet():\n    return 'hello'\n"
        read = next(u for u in editor.of_kind("tool_call") if u.tool_call_id == "r1")
        assert read.kind == "read" and read.title == "read_file greet.py"
        assert [loc.path for loc in read.locations] == [str(project / "greet.py")]
        assert _finished(editor, "r1") == "completed"
        asked, options = editor.permissions[0]
        assert asked.tool_call_id == "e1" and asked.kind == "edit"
        assert [(o.option_id, o.kind) for o in options] == [
            ("yes", "allow_once"),
            ("always", "allow_always"),
            ("no", "reject_once"),
        ]
        planned = [c for c in asked.content if isinstance(c, FileEditToolCallContent)]
        assert planned and planned[0].new_text.endswith("return 'hello'\n")
        [diff] = _diffs(editor, "e1")[-1:]
        assert diff.path == str(project / "greet.py")
        assert (diff.old_text, diff.new_text) == (GREET, "def greet():\n    return 'hello'\n")
        assert "Changed the greeting." in editor.message_text()
        assert "AGENT_STATUS" not in editor.message_text()

        assert await editor.prompt(session_id, text_block("now say hey")) == "end_turn"
        assert _finished(editor, "e2") == "failed"
        assert "return 'hello'" in (project / "greet.py").read_text()

        assert await editor.prompt(session_id, text_block("make new.py")) == "cancelled"
        assert not (project / "new.py").exists()
        assert _finished(editor, "r2") == "completed"
        assert _finished(editor, "c1") == "failed"

        assert await editor.prompt(session_id, text_block("/undo")) == "end_turn"
        assert (project / "greet.py").read_text() == GREET
        assert "reverted" in editor.message_text()
        commands = editor.of_kind("available_commands_update")
        assert {"undo", "diff", "compact"} <= {c.name for c in commands[-1].available_commands}

    records = [json.loads(line) for line in (project / ".asi" / "sessions" / f"{session_id}.jsonl").open()]
    assert any(r["type"] == "interrupted" for r in records)
    assert any(r["type"] == "result" and r["call"]["id"] == "r2" for r in records)
    assert session_id in asi("sessions", cwd=project).stdout

    later = Editor()
    model = script(tmp_path / "second.json", ["Still here.\nAGENT_STATUS: DONE"])
    async with agent_process(later, model, project) as conn:
        await asyncio.wait_for(
            conn.load_session(cwd=str(project), session_id=session_id, mcp_servers=[]), TIMEOUT
        )
        said = [u.content.text for u in later.of_kind("user_message_chunk")]
        assert said[:3] == ["say hello", "now say hey", "make new.py"]
        assert "e1" in {u.tool_call_id for u in later.of_kind("tool_call")}
        await later.settled()
        assert await later.prompt(session_id, text_block("still there?")) == "end_turn"
        assert "Still here." in later.message_text()


async def test_reads_and_writes_go_through_the_editor_buffers(project: Path, tmp_path: Path) -> None:
    """With file-system capabilities the agent reads the unsaved buffer, its edit lands in the buffer (and
    is journaled: `asi-agent undo` brings the buffer's text back), and the cursor the editor sends is
    the one get_cursor_context starts from."""
    greet = str(project / "greet.py")
    unsaved = "def greet():\n    return 'unsaved'\n"
    model = script(
        tmp_path / "buffers.json",
        [
            call("r1", "read_file", path="greet.py"),
            call("e1", "replace_text", path="greet.py", oldText="'unsaved'", newText="'saved'"),
            call("k1", "get_cursor_context"),
            "<think>the cursor line says saved</think>Done.\nAGENT_STATUS: DONE",
        ],
    )
    editor = Editor(buffers={greet: unsaved})
    async with agent_process(editor, model, project, "--approval", "auto-edit") as conn:
        session = await conn.new_session(cwd=str(project), mcp_servers=[])
        link = ResourceContentBlock(type="resource_link", name="greet.py", uri=f"file://{greet}#L2")
        notes = EmbeddedResourceContentBlock(
            type="resource", resource=TextResourceContents(uri=f"file://{project}/NOTES.md", text="be kind")
        )
        prompt = (text_block("fix"), link, text_block("as"), notes, text_block("says"))
        assert await editor.prompt(session.session_id, *prompt) == "end_turn"
    output = "".join(
        c.content.text for u in editor.tool_updates("r1") for c in (u.content or []) if c.type == "content"
    )
    assert "return 'unsaved'" in output
    assert greet in editor.reads
    assert editor.writes == [(greet, "def greet():\n    return 'saved'\n")]
    assert editor.buffers is not None and "'saved'" in editor.buffers[greet]
    [diff] = _diffs(editor, "e1")
    assert diff.old_text == unsaved
    cursor = "".join(
        c.content.text for u in editor.tool_updates("k1") for c in (u.content or []) if c.type == "content"
    )
    assert "greet.py:2" in cursor and "return 'saved'" in cursor
    assert "the cursor line says saved" in "".join(
        u.content.text for u in editor.of_kind("agent_thought_chunk")
    )
    assert "think" not in editor.message_text() and "Done." in editor.message_text()
    assert (project / "greet.py").read_text() == "def greet():\n    return 'saved'\n"
    records = [
        json.loads(line) for line in (project / ".asi" / "sessions" / f"{session.session_id}.jsonl").open()
    ]
    task = next(r["message"]["content"] for r in records if r["type"] == "message")
    assert task.startswith("fix @greet.py:2 as @NOTES.md says\n\nNOTES.md (as open in the editor):")
    assert "be kind" in task
    assert asi("undo", cwd=project).returncode == 0
    assert (project / "greet.py").read_text() == unsaved


async def test_modes_commands_listing_and_errors(project: Path, tmp_path: Path) -> None:
    """The approval modes are session modes (plan refuses a write without asking), `/mode` switches and
    tells the editor, session/list lists the project's sessions, and bad requests get errors saying why."""
    model = script(
        tmp_path / "modes.json",
        [
            call("x1", "run_terminal_cmd", command="git reset --hard"),
            "Not run.\nAGENT_STATUS: STOP",
            call("c1", "create_file", path="new.py", content="x = 1\n"),
            "Plan mode: not written.\nAGENT_STATUS: STOP",
            call("c2", "create_file", path="new.py", content="x = 1\n"),
            "Written.\nAGENT_STATUS: DONE",
        ],
    )
    editor = Editor()
    async with agent_process(editor, model, project) as conn:
        session = await conn.new_session(cwd=str(project), mcp_servers=[])
        editor.answers = ["always"]  # not offered: taken as no
        assert await editor.prompt(session.session_id, text_block("throw my changes away")) == "end_turn"
        asked, options = editor.permissions.pop()
        assert asked.kind == "execute" and asked.title == "run_terminal_cmd git reset --hard"
        assert [o.option_id for o in options] == ["yes", "no"]  # a destructive command asks every time
        assert _finished(editor, "x1") == "failed"

        await conn.set_session_mode(session_id=session.session_id, mode_id="plan")
        assert await editor.prompt(session.session_id, text_block("make new.py")) == "end_turn"
        assert not (project / "new.py").exists() and not editor.permissions
        assert _finished(editor, "c1") == "failed"
        assert "[asi-agent: the agent stopped]" in editor.message_text()

        assert await editor.prompt(session.session_id, text_block("/mode yolo")) == "end_turn"
        assert editor.of_kind("current_mode_update")[-1].current_mode_id == "yolo"
        assert await editor.prompt(session.session_id, text_block("now make it")) == "end_turn"
        assert (project / "new.py").read_text() == "x = 1\n" and not editor.permissions
        assert await editor.prompt(session.session_id, text_block("/diff")) == "end_turn"
        assert "+x = 1" in editor.message_text()

        listed = await conn.list_sessions(cwd=str(project))
        assert session.session_id in [s.session_id for s in listed.sessions]
        with pytest.raises(RequestError, match="unknown mode") as bad_mode:
            await conn.set_session_mode(session_id=session.session_id, mode_id="reckless")
        assert "ask, auto-edit, plan, yolo" in str(bad_mode.value.data)
        with pytest.raises(RequestError) as unknown:
            await conn.load_session(cwd=str(project), session_id="20200101-000000-000000", mcp_servers=[])
        assert "asi-agent sessions" in str(unknown.value.data)
        with pytest.raises(RequestError) as relative:
            await conn.new_session(cwd="proj", mcp_servers=[])
        assert "absolute path" in str(relative.value.data)


def test_bad_options_are_reported_before_serving(project: Path) -> None:
    """A usage error exits 1 with a message, before any protocol is spoken."""
    proc = subprocess.run(
        [sys.executable, "-m", "asi_agent", "acp", "--yes", "--approval", "plan"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 1
    assert "--yes means --approval yolo" in proc.stderr
    assert proc.stdout == ""
