"""Slash commands of `chat --plain` that ask first, and its own /help: a subprocess without a terminal
(nobody can say yes) and in-process with prompt-toolkit reading the keys from a pipe."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from asi_cli import run_cli, write_script
from nosandbox import no_sandbox_env
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.ui.chatsession import ChatSession
from asi_agent.ui.cli import build_parser
from asi_agent.ui.plain import PlainChat

BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = BUGGY.replace("a - b", "a + b")
WRITE = {"name": "replace_text", "arguments": {"path": "calc.py", "oldText": "a - b", "newText": "a + b"}}
FIX = [{"text": "", "tool_calls": [WRITE]}, "Fixed add.\nAGENT_STATUS: DONE"]


def project(tmp_path: Path) -> Path:
    root = tmp_path / "calc"
    root.mkdir()
    (root / "calc.py").write_text(BUGGY)
    return root


def plain_chat(
    root: Path, replies: list, stdin: str, *flags: str, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    model = write_script(root.parent, replies)
    command = ["chat", "--plain", "--provider", "scripted", "--model", str(model), *flags]
    return run_cli(*command, cwd=root, stdin=stdin, env=extra)


def test_undo_of_another_sessions_change_is_not_done_without_a_terminal(tmp_path):
    root = project(tmp_path)
    proc = plain_chat(root, FIX, "fix add\n/clear\n/undo\n/undo 1\n/quit\n", "--approval", "yolo")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "nothing to undo in this session" in out
    assert "Revert these 1 changes? 1 of them are not this session's" in out
    assert "not done: this needs a yes, and nobody can answer without a terminal" in out
    assert (root / "calc.py").read_text() == FIXED


def test_export_outside_the_project_is_not_written_without_a_terminal(tmp_path):
    root = project(tmp_path)
    proc = plain_chat(root, [], "/export ../out.md\n/export here.md\n/quit\n")
    assert proc.returncode == 0, proc.stderr
    assert "It is outside the project." in proc.stdout and "not done" in proc.stdout
    assert not (tmp_path / "out.md").exists() and (root / "here.md").is_file()


def test_plain_help_lists_its_own_keys(tmp_path):
    proc = plain_chat(project(tmp_path), [], "/help\n/quit\n")
    assert proc.returncode == 0, proc.stderr
    assert "Ctrl-D" in proc.stdout and "Esc then Enter" in proc.stdout
    assert "Ctrl+B" not in proc.stdout and "Ctrl+Q" not in proc.stdout


async def test_undo_asks_in_the_terminal_and_reverts_on_yes(tmp_path):
    root = project(tmp_path)
    first = await typed_chat(root, [ScriptedReply(text="", calls=[ScriptedCall(**WRITE)]), FIX[1]], "fix\n")
    assert (root / "calc.py").read_text() == FIXED
    second = await typed_chat(root, [], "/undo 1\ny\n")
    assert second.session_id != first.session_id
    assert (root / "calc.py").read_text() == BUGGY


async def typed_chat(root: Path, replies: list, typed: str) -> ChatSession:
    """The plain chat with prompt-toolkit reading `typed` (then Ctrl-D) as if from the keyboard."""
    args = build_parser().parse_args(["chat", "--plain", "--cwd", str(root), "--approval", "yolo"])
    chat = ChatSession.open(args, backend=ScriptedBackend(replies))
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        keys.send_text(typed + "\x04")
        await PlainChat(chat, interactive=True).run()
    return chat


def test_mode_yolo_is_refused_where_the_session_has_no_sandbox_unless_it_was_turned_off(tmp_path):
    """Switching to yolo re-checks the sandbox, as starting in yolo does: refused with the reason, the
    mode stays; with --no-sandbox (the person's explicit choice) it switches."""
    root = project(tmp_path)
    refused = plain_chat(root, FIX, "/mode yolo\n/mode\n/quit\n", extra=no_sandbox_env(tmp_path))
    assert refused.returncode == 0, refused.stderr
    assert "/mode: yolo runs commands without asking only inside the sandbox, and this session has none" in (
        refused.stdout
    )
    assert "--no-sandbox" in refused.stdout
    assert "mode: ask " in refused.stdout and "mode: yolo (from" not in refused.stdout

    chosen = plain_chat(root, FIX, "/mode yolo\n/quit\n", "--no-sandbox", extra=no_sandbox_env(tmp_path))
    assert "mode: yolo (from the next call on)" in chosen.stdout


def test_plain_help_lists_custom_commands_and_skills_and_sends_a_command(tmp_path):
    root = project(tmp_path)
    (root / ".agents" / "commands").mkdir(parents=True)
    (root / ".agents" / "commands" / "explain.md").write_text(
        "---\ndescription: Explain a file\n---\nExplain $1.\n"
    )
    skill = root / ".agents" / "skills" / "pdf-forms"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: pdf-forms\ndescription: Fill in PDF forms.\n---\nSteps.\n")
    proc = plain_chat(root, ["It adds.\nAGENT_STATUS: DONE"], "/help\n/explain calc.py\n/quit\n")
    assert proc.returncode == 0, proc.stderr
    assert "/explain" in proc.stdout and "Explain a file" in proc.stdout
    assert "/pdf-forms" in proc.stdout and "Fill in PDF forms." in proc.stdout  # the skills beside them
    session = next((root / ".asi" / "sessions").glob("*.jsonl"))
    messages = [json.loads(line) for line in session.read_text().splitlines()]
    users = [
        r["message"]["content"]
        for r in messages
        if r.get("type") == "message" and r["message"]["role"] == "user"
    ]
    assert users == ["Explain calc.py."]
