"""`asi-agent chat --plain`: the line-mode chat, as a subprocess with piped input (the fallback when stdout is
not a terminal) and in-process with prompt-toolkit reading a pipe as its terminal (approvals, history)."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from asi_cli import model_free_env, run_cli, write_script
from blocking_tool import slow_project
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.session import SessionStore
from asi_agent.ui.chatsession import ChatSession
from asi_agent.ui.cli import build_parser
from asi_agent.ui.plain import PlainChat
from asi_agent.ui.plain_setup import setup_in_terminal

BUGGY = "def add(a, b):\n    return a - b\n"
FIX = [
    {"text": "I will read calc.py.", "tool_calls": [{"name": "read_file", "arguments": {"path": "calc.py"}}]},
    {
        "text": "",
        "tool_calls": [
            {"name": "replace_text", "arguments": {"path": "calc.py", "oldText": "a - b", "newText": "a + b"}}
        ],
    },
    "Fixed add.\nAGENT_STATUS: DONE",
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "calc"
    root.mkdir()
    (root / "calc.py").write_text(BUGGY)
    return root


def test_plain_chat_fixes_undoes_and_quits(project, tmp_path):
    model = write_script(tmp_path, FIX)
    run = run_cli(
        "chat",
        "--plain",
        "--provider",
        "scripted",
        "--model",
        str(model),
        "--approval",
        "auto-edit",
        cwd=project,
        stdin="fix add in calc.py\n/diff\n/undo\n/quit\n",
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "I will read calc.py." in out and "Fixed add." in out
    assert "✓ read_file" in out and "✓ replace_text" in out
    assert "+    return a + b" in out
    assert "── DONE" in out
    assert "AGENT_STATUS" not in out, "the status is the closing line's, never the reply's"
    assert "reverted" in out and "calc.py" in out
    assert (project / "calc.py").read_text() == BUGGY
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("command", [["chat"], []], ids=["chat", "bare"])
def test_chat_falls_back_to_plain_without_a_terminal(project, tmp_path, command):
    model = write_script(tmp_path, ["Hello.\nAGENT_STATUS: DONE"])
    run = run_cli(*command, "--provider", "scripted", "--model", str(model), cwd=project, stdin="hi\n")
    assert run.returncode == 0, run.stderr
    assert "Hello." in run.stdout and "── DONE" in run.stdout


def test_status_written_inline_is_not_shown(project, tmp_path):
    """Small models end a line of text with the status; only the text is streamed, then the closing line."""
    model = write_script(
        tmp_path, ["Step one is done. **AGENT_STATUS: CONTINUE**", "All done. AGENT_STATUS: DONE"]
    )
    run = run_cli("chat", "--provider", "scripted", "--model", str(model), cwd=project, stdin="hi\n")
    assert run.returncode == 0, run.stderr
    assert "AGENT_STATUS" not in run.stdout
    lines = run.stdout.splitlines()
    assert "Step one is done." in lines and "All done." in [line.rstrip() for line in lines]
    assert any(line.startswith("── DONE · 2 turns") for line in lines), run.stdout


def test_bare_command_reads_the_user_config(project, tmp_path):
    model = write_script(tmp_path, ["From the config.\nAGENT_STATUS: DONE"])
    (tmp_path / "user-config").mkdir()
    (tmp_path / "user-config" / "config.toml").write_text(f'provider = "scripted"\nmodel = "{model}"\n')
    run = run_cli(cwd=project, stdin="hi\n")
    assert run.returncode == 0, run.stderr
    assert "From the config." in run.stdout


def test_without_a_terminal_an_ask_is_a_refusal(project, tmp_path):
    model = write_script(tmp_path, [*FIX[1:], "unused"])
    run = run_cli("chat", "--provider", "scripted", "--model", str(model), cwd=project, stdin="fix\n")
    assert run.returncode == 0, run.stderr
    assert "✗ replace_text" in run.stdout and "nobody can answer" in run.stdout
    assert (project / "calc.py").read_text() == BUGGY


def call(name: str, **arguments) -> ScriptedCall:
    return ScriptedCall(name=name, arguments=arguments)


async def run_interactive(project: Path, replies: list, typed: str, *flags: str) -> ChatSession:
    """The plain chat with prompt-toolkit reading `typed` as if from the keyboard."""
    args = build_parser().parse_args(["chat", "--plain", "--cwd", str(project), *flags])
    chat = ChatSession.open(args, backend=ScriptedBackend(replies))
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        keys.send_text(typed)
        await PlainChat(chat, interactive=True).run()
    return chat


FIX_REPLIES = [
    ScriptedReply(text="", calls=[call("replace_text", path="calc.py", oldText="a - b", newText="a + b")]),
    ScriptedReply(text="Fixed.\nAGENT_STATUS: DONE"),
]


async def test_inline_approval_yes(project, capsys):
    await run_interactive(project, FIX_REPLIES, "fix add\ry/quit\r")  # one key answers: no Enter
    assert (project / "calc.py").read_text() == BUGGY.replace("a - b", "a + b")
    assert "Fixed." in capsys.readouterr().out


async def test_inline_refusal_with_a_reason(project):
    replies = [FIX_REPLIES[0], ScriptedReply(text="Left it.\nAGENT_STATUS: DONE")]
    chat = await run_interactive(project, replies, "fix add\resubtraction is intended\r/quit\r")
    assert (project / "calc.py").read_text() == BUGGY
    sent = chat.agent.backend.requests[1][0][-1].content  # the request after the refused call
    assert "the person answered no" in sent and "they said: subtraction is intended" in sent


async def test_always_is_refused_for_destructive_commands(project):
    replies = [
        ScriptedReply(text="", calls=[call("run_terminal_cmd", command="git reset --hard")]),
        ScriptedReply(text="ok\nAGENT_STATUS: DONE"),
    ]
    chat = await run_interactive(project, replies, "reset\ra\rn\r/quit\r", "--approval", "auto-edit")
    assert "run_terminal_cmd" not in chat.agent.gate._always
    records = [r for r in chat.agent.session.records() if r["type"] == "decision"]
    assert records[-1]["action"] == "deny" and records[-1]["rule"] == "destructive-command classifier"


async def test_history_is_shared_with_the_full_screen_chat(project):
    await run_interactive(project, [ScriptedReply(text="Hi.\nAGENT_STATUS: DONE")], "hello there\r/quit\r")
    lines = (project / ".asi" / "chat_history").read_text().splitlines()
    assert [json.loads(line) for line in lines] == ["hello there", "/quit"]


async def test_resume_in_plain(project):
    first = await run_interactive(project, FIX_REPLIES, "fix add\ry\r/quit\r")
    replies = [ScriptedReply(text="Yes, fixed.\nAGENT_STATUS: DONE")]
    chat = await run_interactive(project, replies, f"/resume {first.session_id}\ris it fixed?\r/quit\r")
    assert chat.session_id == first.session_id
    messages = SessionStore(project / ".asi").open(first.session_id).messages()
    assert [m.content for m in messages if m.role == "user"] == ["fix add", "is it fixed?"]


async def typed_setup(typed: str) -> dict:
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        keys.send_text(typed)
        return await setup_in_terminal()


async def test_first_run_in_plain_picks_ollama(ollama_server, monkeypatch, tmp_path):
    monkeypatch.setenv("ASI_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("OLLAMA_HOST", ollama_server.host)
    assert await typed_setup("1\r") == {
        "provider": "ollama",
        "model": "test-model",
        "base_url": ollama_server.host,
    }
    assert 'model = "test-model"' in (tmp_path / "cfg" / "config.toml").read_text()


async def test_first_run_in_plain_checks_the_openai_server(openai_server, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("ASI_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    openai_server.api_key = "sk-right"
    url = openai_server.base_url
    values = await typed_setup(f"u\r{url}\rsk-wrong\r\ru\r{url}\rsk-right\r\r")
    assert "refused the key" in capsys.readouterr().out
    assert values == {"provider": "openai", "base_url": url, "api_key": "sk-right", "model": "test-model"}


async def test_first_run_in_plain_embedded(monkeypatch, tmp_path):
    monkeypatch.setenv("ASI_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    assert await typed_setup("x\re\r") == {"provider": "local"}


async def test_compact_in_plain(project, capsys):
    replies = [
        ScriptedReply(text="I will read it.", calls=[call("read_file", path="calc.py")]),
        *FIX_REPLIES,
        ScriptedReply(text="Summary: add fixed."),
    ]
    await run_interactive(project, replies, "fix add\r/compact\r/quit\r", "--approval", "yolo")
    out = capsys.readouterr().out
    assert "compacting the conversation" in out and "2 messages summarised" in out


async def test_resume_without_id_skips_sessions_where_nothing_was_said(project):
    """Quit, start again and leave at once, start a third time: /resume goes back to the conversation."""
    first = await run_interactive(project, FIX_REPLIES, "fix add\ry\r/quit\r")
    await asyncio.sleep(1.1)  # session ids sort by the second they were opened in
    idle = await run_interactive(project, [], "/quit\r")
    assert SessionStore(project / ".asi").list()[0].id == idle.session_id, "the idle visit is the newest"
    replies = [ScriptedReply(text="Yes, fixed.\nAGENT_STATUS: DONE")]
    chat = await run_interactive(project, replies, "/resume\ris it fixed?\r/quit\r")
    assert chat.session_id == first.session_id
    messages = SessionStore(project / ".asi").open(first.session_id).messages()
    assert [m.content for m in messages if m.role == "user"] == ["fix add", "is it fixed?"]


def test_quitting_does_not_wait_for_a_blocking_call_still_running(project, tmp_path):
    """Ctrl-C interrupts a turn whose tool blocks a thread for two minutes; the chat then ends at once."""
    model = slow_project(project, tmp_path)
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(tmp_path / "user-config")
    command = [
        sys.executable,
        "-m",
        "asi_agent",
        "chat",
        "--plain",
        "--trust",  # the project's own plugin tool is the one that blocks
        "--provider",
        "scripted",
        "--model",
        str(model),
        "--yes",
    ]
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    proc = subprocess.Popen(command, cwd=project, env=env, text=True, **pipes)
    try:
        proc.stdin.write("wait\n")
        proc.stdin.flush()
        while "· wait_a_while" not in (line := proc.stdout.readline()):
            assert line, proc.stderr.read()
        time.sleep(0.5)  # the tool's thread is sleeping now
        proc.send_signal(signal.SIGINT)
        proc.stdin.close()
        started = time.monotonic()
        rest = proc.stdout.read()
        proc.wait(timeout=60)
    finally:
        proc.kill()
    assert time.monotonic() - started < 20, "the chat waited for the blocked thread"
    assert proc.returncode == 0, (rest, proc.stderr.read())
    assert "interrupted" in rest


def test_resume_shows_the_conversation_so_far(project, tmp_path):
    """After a restart, /resume prints what was asked, each call with how it ended, and the replies."""
    first = run_cli(
        "chat",
        "--provider",
        "scripted",
        "--model",
        str(write_script(tmp_path, FIX)),
        "--approval",
        "auto-edit",
        cwd=project,
        stdin="fix add in calc.py\n",
    )
    assert first.returncode == 0, first.stderr
    again = run_cli(
        "chat",
        "--provider",
        "scripted",
        "--model",
        str(write_script(tmp_path, [])),
        cwd=project,
        stdin="/resume\n",
    )
    assert again.returncode == 0, again.stderr
    lines = again.stdout.splitlines()
    shown = lines[lines.index("› fix add in calc.py") :]
    assert shown[:7] == [
        "› fix add in calc.py",
        "I will read calc.py.",
        "· read_file calc.py",
        "✓ read_file: calc.py (2 lines)",
        "· replace_text calc.py",
        shown[5],
        "Fixed add.",
    ], again.stdout
    assert shown[5].startswith("✓ replace_text: ") and "AGENT_STATUS" not in again.stdout
    assert shown[7].startswith("resumed ")


def test_a_huge_attachment_is_cut_to_what_the_context_window_has_room_for(project, tmp_path):
    """`@big.log` (5 MB) in a model with a 2048-token window: a bounded slice is attached, saying how to read
    the rest, so the message fits and the next one still works (it used to overflow every later turn)."""
    line = "2024-01-01 12:00:00 INFO request served in 12 ms by worker 7\n"
    (project / "big.log").write_text(line * (5_000_000 // len(line)))
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text("context_window = 2048\n")
    replies = ["It is a request log.\nAGENT_STATUS: DONE", "Yes.\nAGENT_STATUS: DONE"]
    path = write_script(tmp_path, replies)
    proc = run_cli(
        "chat", "--plain", "--provider", "scripted", "--model", str(path), cwd=project,
        stdin="what is in @big.log?\nanything else?\n",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("── DONE") == 2
    sessions = list((project / ".asi" / "sessions").glob("*.jsonl"))
    records = [json.loads(line) for line in sessions[0].read_text().splitlines()]
    typed = [
        r["message"]["content"] for r in records if r["type"] == "message" and r["message"]["role"] == "user"
    ]
    assert typed[0].startswith('what is in @big.log?\n\n<file path="big.log">\n2024-01-01')
    assert len(typed[0]) < 2048 * 3 / 3 + 600  # a third of the window, about three characters a token
    assert (
        "bytes are attached; the rest does not fit the model's context window: read it with read_file"
        in typed[0]
    )
    assert not [r for r in records if r["type"] == "compacted"]
