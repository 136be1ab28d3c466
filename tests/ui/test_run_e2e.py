"""`asi-agent run` as a person runs it: a subprocess against real local OpenAI and Ollama protocol servers."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from asi_cli import model_free_env, run_cli
from servers.openai_server import Call, Reply

BUGGY = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "calc"
    root.mkdir()
    (root / "calc.py").write_text(BUGGY)
    return root


def run_openai(server, *args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`asi-agent run` against the local OpenAI-protocol test server."""
    return run_cli(
        "run",
        "--provider",
        "openai",
        "--base-url",
        server.base_url,
        "--model",
        "test-model",
        *args,
        cwd=cwd,
        stdin=stdin,
    )


def last_json(stdout: str) -> dict[str, Any]:
    return json.loads(stdout.strip().splitlines()[-1])


def native_fix_script(server) -> None:
    """read_file → replace_text → summary; each step checks the previous result came back as role tool."""

    def after_read(body: dict[str, Any]) -> Reply:
        last = body["messages"][-1]
        assert last["role"] == "tool" and "return a - b" in last["content"], last
        return Reply(
            calls=[
                Call(
                    "replace_text", {"path": "calc.py", "oldText": "return a - b", "newText": "return a + b"}
                )
            ]
        )

    def after_edit(body: dict[str, Any]) -> Reply:
        last = body["messages"][-1]
        assert last["role"] == "tool" and not last["content"].startswith("ERROR"), last
        return Reply(text="Fixed `add`: it subtracted instead of adding.\nAGENT_STATUS: DONE")

    server.reply(
        Reply(text="Plan: read calc.py, fix add.", calls=[Call("read_file", {"path": "calc.py"})]),
        after_read,
        after_edit,
    )


def text_fix_script(server) -> None:
    """The same fix, written as text-mode calls; results must come back framed as user messages."""

    def after_read(body: dict[str, Any]) -> Reply:
        assert "tools" not in body
        last = body["messages"][-1]
        assert (
            last["role"] == "user" and "[TOOL_RESULT" in last["content"] and "return a - b" in last["content"]
        )
        args = json.dumps({"path": "calc.py", "oldText": "return a - b", "newText": "return a + b"})
        return Reply(text=f"[TOOL_CALL]replace_text[ARGS]{args}")

    def after_edit(body: dict[str, Any]) -> Reply:
        assert "[TOOL_CALL]replace_text[ARGS]" in body["messages"][-2]["content"]
        return Reply(text="Fixed add.\nAGENT_STATUS: DONE")

    server.reply(
        Reply(text='Plan: read it.\n[TOOL_CALL]read_file[ARGS]{"path": "calc.py"}'), after_read, after_edit
    )


def assert_fixed(proc: subprocess.CompletedProcess[str], project: Path) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stderr
    result = last_json(proc.stdout)
    assert result["status"] == "DONE"
    assert result["changed_files"] == ["calc.py"]
    assert [c["name"] for c in result["tool_calls"]] == ["read_file", "replace_text"]
    assert all(c["ok"] and c["error"] is None for c in result["tool_calls"])
    assert result["turns"] == 3
    assert result["usage"]["prompt_tokens"] > 0 and result["usage"]["completion_tokens"] > 0
    assert "Fixed" in result["result"] and "AGENT_STATUS" not in result["result"]
    assert (project / "calc.py").read_text() == BUGGY.replace("a - b", "a + b")
    assert (project / ".asi" / "sessions" / f"{result['session_id']}.jsonl").is_file()
    return result


@pytest.mark.parametrize("mode", ["native", "text"])
def test_openai_server_fixes_bug(openai_server, project, mode):
    (native_fix_script if mode == "native" else text_fix_script)(openai_server)
    proc = run_openai(
        openai_server,
        "--tool-mode",
        mode,
        "--yes",
        "--output-format",
        "json",
        "Fix the bug in calc.py",
        cwd=project,
    )
    assert_fixed(proc, project)
    first = openai_server.chat_bodies[0]
    assert first["messages"][0]["role"] == "system"
    assert first["messages"][-1] == {"role": "user", "content": "Fix the bug in calc.py"}
    if mode == "native":
        names = {tool["function"]["name"] for tool in first["tools"]}
        assert {"read_file", "replace_text"} <= names
    else:
        assert "[TOOL_CALL]" in first["messages"][0]["content"]


@pytest.mark.parametrize("mode", ["native", "text"])
def test_ollama_server_fixes_bug(ollama_server, project, mode):
    if mode == "text":
        text_fix_script(ollama_server)
    else:

        def after_read(body: dict[str, Any]) -> Reply:
            last = body["messages"][-1]
            assert last["role"] == "tool" and last["tool_name"] == "read_file" and "a - b" in last["content"]
            return Reply(
                calls=[
                    Call(
                        "replace_text",
                        {"path": "calc.py", "oldText": "return a - b", "newText": "return a + b"},
                    )
                ]
            )

        ollama_server.reply(
            Reply(calls=[Call("read_file", {"path": "calc.py"})]),
            after_read,
            Reply(text="Fixed add.\nAGENT_STATUS: DONE"),
        )
    proc = run_cli(
        "run",
        "--provider",
        "ollama",
        "--base-url",
        ollama_server.host,
        "--model",
        "test-model",
        "--tool-mode",
        mode,
        "--yes",
        "--output-format",
        "json",
        "Fix the bug in calc.py",
        cwd=project,
    )
    assert_fixed(proc, project)
    assert ollama_server.chat_bodies[0]["options"]["num_ctx"] == 8192


def test_auto_mode_falls_back_to_text_when_tools_are_rejected(openai_server, project):
    openai_server.reject_tools = True
    text_fix_script(openai_server)
    proc = run_openai(
        openai_server,
        "--yes",
        "--output-format",
        "json",
        "Fix the bug in calc.py",
        cwd=project,
    )
    assert_fixed(proc, project)


def test_no_tty_refuses_writes_in_ask_mode(openai_server, project):
    def after_refusal(body: dict[str, Any]) -> Reply:
        last = body["messages"][-1]
        assert last["role"] == "tool" and "permission denied" in last["content"]
        return Reply(text="I was not allowed to edit.\nAGENT_STATUS: STOP")

    openai_server.reply(
        Reply(calls=[Call("replace_text", {"path": "calc.py", "oldText": "a - b", "newText": "a + b"})]),
        after_refusal,
    )
    proc = run_openai(
        openai_server,
        "--output-format",
        "json",
        "Fix it",
        cwd=project,
    )
    assert proc.returncode == 2, proc.stderr
    result = last_json(proc.stdout)
    assert result["status"] == "STOP"
    assert result["tool_calls"][0]["ok"] is False and "permission denied" in result["tool_calls"][0]["error"]
    assert result["denied_calls"][0]["name"] == "replace_text"
    assert (project / "calc.py").read_text() == BUGGY


def test_unreachable_server_exits_1_with_clear_error(project):
    proc = run_cli(
        "run",
        "--provider",
        "openai",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--model",
        "m",
        "--output-format",
        "json",
        "hello",
        cwd=project,
        env={"ASI_CONFIG_DIR": str(project)},
    )
    assert proc.returncode == 1
    assert "cannot reach" in proc.stderr.lower() and "Traceback" not in proc.stderr
    assert last_json(proc.stdout)["status"] == "ERROR"


def test_stream_json_events(openai_server, project):
    native_fix_script(openai_server)
    proc = run_openai(
        openai_server,
        "--yes",
        "--output-format",
        "stream-json",
        "-",
        cwd=project,
        stdin="Fix the bug in calc.py\n",
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    types = [line["type"] for line in lines]
    assert types[0] == "session_start" and types[-1] == "result"
    assert {"assistant", "tool_call", "tool_result", "status"} <= set(types)
    calls = [line for line in lines if line["type"] == "tool_call"]
    results = [line for line in lines if line["type"] == "tool_result"]
    assert [c["name"] for c in calls] == ["read_file", "replace_text"]
    assert [r["id"] for r in results] == [c["id"] for c in calls]
    assert calls[0]["arguments"] == {"path": "calc.py"}
    assert lines[-1]["status"] == "DONE" and lines[-1]["changed_files"] == ["calc.py"]


def test_undo_reverts_the_fix(openai_server, project):
    native_fix_script(openai_server)
    assert (
        run_openai(
            openai_server,
            "--yes",
            "--output-format",
            "json",
            "Fix",
            cwd=project,
        ).returncode
        == 0
    )
    proc = run_cli("undo", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "calc.py" in proc.stdout
    assert (project / "calc.py").read_text() == BUGGY


def test_turn_limit_exits_3(openai_server, project):
    openai_server.reply(
        *(Reply(calls=[Call("read_file", {"path": "calc.py", "startLine": n})]) for n in (1, 2))
    )
    proc = run_openai(
        openai_server,
        "--max-turns",
        "2",
        "--output-format",
        "json",
        "Look around",
        cwd=project,
    )
    assert proc.returncode == 3, proc.stderr
    assert last_json(proc.stdout)["status"] == "MAX_TURNS"


def test_bad_config_exits_1_with_one_line(project):
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text('tool_mode = "telepathy"\n')
    proc = run_cli("run", "--provider", "scripted", "--model", "x.json", "hi", cwd=project)
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "config.toml: key 'tool_mode'" in proc.stderr


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("inherited", ["default", "ignored"])
def test_interrupt_exits_130(openai_server, project, inherited):
    """Also when started with SIGINT ignored (`nohup … &`, some CI runners): the program installs its own
    handler whatever it inherited."""
    openai_server.reply(Reply(text="thinking…", delay=30))
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(project.parent / "user-config")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "asi_agent",
            "run",
            "--provider",
            "openai",
            "--base-url",
            openai_server.base_url,
            "--model",
            "test-model",
            "wait",
        ],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ignore_sigint if inherited == "ignored" else None,  # noqa: PLW1509 - no threads started
    )
    deadline = time.monotonic() + 20
    while not openai_server.chat_bodies and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
