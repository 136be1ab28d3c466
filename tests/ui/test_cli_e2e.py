"""The command line a newcomer meets, run as a subprocess: honest exit codes, runs that always end,
the JSON result on every exit, `resume`, `--version`, instruction files, and progress kept off stdout."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from asi_cli import cli_env, last_json, run_cli, run_with_terminal_stderr
from servers.openai_server import Call, Reply

from asi_agent.prompts import MAX_INSTRUCTION_CHARS

BUGGY = "def add(a, b):\n    return a - b\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "calc"
    root.mkdir()
    (root / "calc.py").write_text(BUGGY)
    return root


def server_flags(server) -> list[str]:
    return ["--provider", "openai", "--base-url", server.base_url, "--model", "test-model"]


def assert_error_json(proc: subprocess.CompletedProcess[str], fragment: str) -> dict[str, Any]:
    """The JSON contract of an error exit: exit 1, the result object last on stdout, one line on stderr."""
    assert proc.returncode == 1, proc.stderr
    result = last_json(proc.stdout)
    assert result["status"] == "ERROR" and fragment in result["error"], result
    assert {"result", "turns", "session_id", "tool_calls", "changed_files", "usage"} <= set(result)
    assert fragment in proc.stderr and "Traceback" not in proc.stderr
    return result


# --- runs always end -------------------------------------------------------------------------------


def test_the_same_call_three_times_in_a_row_ends_the_run_with_stop(openai_server, project):
    openai_server.reply(*(Reply(calls=[Call("read_file", {"path": "calc.py"})]) for _ in range(6)))
    proc = run_cli(
        "run", *server_flags(openai_server), "--output-format", "json", "what is in calc.py?", cwd=project
    )
    assert proc.returncode == 2, proc.stderr
    result = last_json(proc.stdout)
    assert result["status"] == "STOP" and result["turns"] == 3
    assert "same call 3 times in a row" in result["result"] and "read_file" in result["result"]
    assert [c["ok"] for c in result["tool_calls"]] == [True, True, False]
    assert len(openai_server.chat_bodies) == 3  # ended instead of asking the model again


def test_timeout_ends_the_run_with_its_partial_result_and_exit_4(openai_server, project):
    openai_server.reply(
        Reply(text="Plan: read calc.py first.", calls=[Call("read_file", {"path": "calc.py"})]),
        Reply(text="still thinking", delay=60),
    )
    begun = time.monotonic()
    proc = run_cli(
        "run",
        *server_flags(openai_server),
        "--timeout",
        "3",
        "--output-format",
        "json",
        "fix it",
        cwd=project,
    )
    took = time.monotonic() - begun
    assert proc.returncode == 4, proc.stderr
    result = last_json(proc.stdout)
    assert result["status"] == "TIMEOUT" and result["result"] == "Plan: read calc.py first."
    assert result["turns"] == 1 and result["tool_calls"][0]["name"] == "read_file"
    assert "time limit of 3 s" in result["error"] and "time limit of 3 s" in proc.stderr
    assert took < 30, took
    transcript = project / ".asi" / "sessions" / f"{result['session_id']}.jsonl"
    ends = [json.loads(line) for line in transcript.read_text().splitlines() if '"finished"' in line]
    assert ends[-1]["status"] == "TIMEOUT"


def test_timeout_keeps_the_reply_being_written_as_the_result(openai_server, project):
    """The model stalls in the middle of its answer: the result holds what it had written."""
    openai_server.reply(Reply(text="The bug is in add: it subtracts", fault="stall", fault_after=3))
    proc = run_cli(
        "run", *server_flags(openai_server), "--timeout", "2", "--output-format", "json", "why?", cwd=project
    )
    assert proc.returncode == 4, proc.stderr
    result = last_json(proc.stdout)
    assert result["status"] == "TIMEOUT" and "The bug is in add" in result["result"], result


def test_timeout_from_the_config_file(openai_server, project):
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text("timeout = 2\n")
    openai_server.reply(Reply(text="…", delay=60))
    proc = run_cli("run", *server_flags(openai_server), "--output-format", "json", "wait", cwd=project)
    assert proc.returncode == 4, proc.stderr
    assert last_json(proc.stdout)["status"] == "TIMEOUT"


# --- exit codes ------------------------------------------------------------------------------------


def test_done_exits_0_and_text_output_is_clean(openai_server, project):
    openai_server.reply(
        Reply(calls=[Call("read_file", {"path": "calc.py"})]),
        Reply(calls=[Call("list_directory", {"path": "."})]),
        Reply(text="calc.py defines add.\nAGENT_STATUS: DONE"),
    )
    proc = run_cli("run", *server_flags(openai_server), "what is in calc.py?", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "calc.py defines add.\n"  # no blank line per tool-only turn, no status line
    assert "[DONE]" in proc.stderr


def test_result_carries_no_status_line(openai_server, project):
    openai_server.reply(Reply(text="All good.\n\nAGENT_STATUS: DONE"))
    proc = run_cli("run", *server_flags(openai_server), "--output-format", "json", "check", cwd=project)
    assert last_json(proc.stdout)["result"] == "All good."


def test_stop_exits_2(openai_server, project):
    openai_server.reply(Reply(text="I must not do that.\nAGENT_STATUS: STOP"))
    proc = run_cli("run", *server_flags(openai_server), "delete everything", cwd=project)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "I must not do that.\n"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["run", "--max-turns", "0", "task"], "--max-turns: must be at least 1"),
        (["run", "--no-such-flag", "task"], "unrecognized arguments: --no-such-flag"),
        (["run"], "required: task"),
        (["run", "--timeout", "soon", "task"], "expected a number of seconds, got 'soon'"),
        (["undo", "abc"], "expected a whole number, got 'abc'"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_usage_errors_exit_1(project, args, fragment):
    proc = run_cli(*args, cwd=project)
    assert proc.returncode == 1, proc.stderr
    assert fragment in proc.stderr and "usage:" in proc.stderr
    assert proc.stdout == ""


def test_version(project):
    proc = run_cli("--version", cwd=project)
    assert proc.returncode == 0
    assert proc.stdout == f"asi-agent {version('asi-agent')}\n"


# --- the JSON contract on every exit ----------------------------------------------------------------


@pytest.mark.parametrize("output_format", ["json", "stream-json"])
def test_usage_error_still_ends_stdout_with_the_result(project, output_format):
    proc = run_cli("run", "--output-format", output_format, "--max-turns", "0", "task", cwd=project)
    result = assert_error_json(proc, "--max-turns: must be at least 1")
    assert result["error"].startswith("usage: ")


@pytest.mark.parametrize("output_format", ["json", "stream-json"])
def test_bad_config_ends_stdout_with_the_result(project, output_format):
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text('tool_mode = "telepathy"\n')
    proc = run_cli(
        "run", "--output-format", output_format, "--provider", "scripted", "--model", "x", "hi", cwd=project
    )
    result = assert_error_json(proc, "config.toml: key 'tool_mode'")
    assert proc.stderr.count("\n") == 1
    if output_format == "stream-json":
        assert result["type"] == "result"


def test_bad_policy_ends_stdout_with_the_result(openai_server, project):
    proc = run_cli(
        "run",
        *server_flags(openai_server),
        "--policy",
        "nope.toml",
        "--output-format",
        "json",
        "hi",
        cwd=project,
    )
    assert_error_json(proc, "--policy nope.toml: no such file")


def test_unknown_model_ends_stdout_with_the_result(openai_server, project):
    openai_server.reject_unknown_models = True
    proc = run_cli(
        "run",
        "--provider",
        "openai",
        "--base-url",
        openai_server.base_url,
        "--model",
        "no-such-model",
        "--output-format",
        "json",
        "hi",
        cwd=project,
    )
    assert_error_json(proc, "no-such-model")


def test_unreachable_server_with_no_model_ends_stdout_with_the_result(project):
    proc = run_cli(
        "run",
        "--provider",
        "openai",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--output-format",
        "json",
        "hi",
        cwd=project,
    )
    assert_error_json(proc, "cannot reach the model server")


def test_bad_cwd_of_resume_ends_stdout_with_the_result(project):
    proc = run_cli("resume", "X", "--cwd", "no/such/dir", "--output-format", "json", cwd=project)
    assert_error_json(proc, "not a directory")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("output_format", ["json", "stream-json"])
def test_interrupt_ends_stdout_with_the_result_and_exits_130(openai_server, project, output_format, stop):
    """Ctrl-C, and SIGTERM (`kill`, a CI timeout), end a run the same way: the result line, exit 130."""
    openai_server.reply(
        Reply(text="Reading.", calls=[Call("read_file", {"path": "calc.py"})]), Reply(text="…", delay=60)
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "asi_agent",
            "run",
            *server_flags(openai_server),
            "--output-format",
            output_format,
            "go",
        ],
        cwd=project,
        env=cli_env(project),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while len(openai_server.chat_bodies) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(stop)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    result = last_json(out)
    assert result["status"] == "ERROR" and result["error"] == "interrupted"
    assert result["turns"] == 1 and result["result"] == "Reading." and result["session_id"]
    assert "interrupted" in err and "Traceback" not in err


# --- resume ----------------------------------------------------------------------------------------


def _first_run(server, project: Path, *extra: str) -> str:
    server.reply(Reply(text="Noted: the bug is in add.\nAGENT_STATUS: DONE"))
    proc = run_cli(
        "run", *server_flags(server), *extra, "--output-format", "json", "find the bug", cwd=project
    )
    assert proc.returncode == 0, proc.stderr
    return str(last_json(proc.stdout)["session_id"])


def test_resume_with_options_after_the_task(openai_server, project):
    session = _first_run(openai_server, project)
    openai_server.reply(Reply(text="Continued.\nAGENT_STATUS: DONE"))
    proc = run_cli(
        "resume", session, "now fix it", *server_flags(openai_server), "--output-format", "json", cwd=project
    )
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc.stdout)["session_id"] == session
    sent = openai_server.chat_bodies[-1]["messages"]
    assert [m["content"] for m in sent if m["role"] == "user"] == ["find the bug", "now fix it"]


def test_resume_with_options_between_id_and_task(openai_server, project):
    session = _first_run(openai_server, project)
    openai_server.reply(Reply(text="Continued.\nAGENT_STATUS: DONE"))
    # --trust: the session's provider and server, kept in the project's .asi/, are reused in a trusted folder
    proc = run_cli("resume", session, "--trust", "--output-format", "json", "now fix it", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert openai_server.chat_bodies[-1]["messages"][-1]["content"] == "now fix it"


def test_resume_without_options_reuses_the_sessions_provider_model_and_tool_mode(openai_server, project):
    session = _first_run(openai_server, project, "--tool-mode", "text")
    openai_server.reply(Reply(text="Went on.\nAGENT_STATUS: DONE"))
    # no provider, model or server in flags or environment; the folder trusted (the transcript is its file)
    proc = run_cli("resume", session, "--trust", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "Went on.\n"
    body = openai_server.chat_bodies[-1]
    assert body["model"] == "test-model" and "tools" not in body  # text mode, as the session was
    assert body["messages"][-1]["content"] == "Continue the task where you left off."


def test_resume_flags_override_the_session(openai_server, project):
    session = _first_run(openai_server, project, "--tool-mode", "text")
    openai_server.reply(Reply(text="Native now.\nAGENT_STATUS: DONE"))
    proc = run_cli("resume", session, "--trust", "--tool-mode", "native", cwd=project)  # the session's server
    assert proc.returncode == 0, proc.stderr
    assert "tools" in openai_server.chat_bodies[-1]


# --- instruction files -----------------------------------------------------------------------------


def test_instruction_files_of_other_agents_are_read_in_order_once_and_listed(openai_server, project):
    (project / "AGENTS.md").write_text("Rule from AGENTS.")
    (project / "CLAUDE.md").symlink_to(project / "AGENTS.md")  # the same file again: read once
    (project / "GEMINI.md").write_text("Rule from GEMINI.")
    (project / "QWEN.md").write_text("Rule from AGENTS.")  # a copy: read once
    (project / ".cursorrules").write_text("x" * (MAX_INSTRUCTION_CHARS + 5000))
    (project / ".github").mkdir()
    (project / ".github" / "copilot-instructions.md").write_text("Rule from copilot.")
    openai_server.reply(Reply(text="ok\nAGENT_STATUS: DONE"))
    proc = run_cli("run", *server_flags(openai_server), "--output-format", "json", "hi", cwd=project)
    assert proc.returncode == 0, proc.stderr
    system = openai_server.chat_bodies[0]["messages"][0]["content"]
    assert system.count("Rule from AGENTS.") == 1
    order = [
        system.index(text)
        for text in ("Rule from AGENTS.", "Rule from GEMINI.", "xxxx", "Rule from copilot.")
    ]
    assert order == sorted(order)
    assert "x" * MAX_INSTRUCTION_CHARS in system and "x" * (MAX_INSTRUCTION_CHARS + 1) not in system
    session = last_json(proc.stdout)["session_id"]
    records = [json.loads(line) for line in (project / ".asi" / "sessions" / f"{session}.jsonl").open()]
    listed = next(r["files"] for r in records if r["type"] == "instructions")
    assert listed == ["AGENTS.md", "GEMINI.md", ".cursorrules", ".github/copilot-instructions.md"]


# --- progress --------------------------------------------------------------------------------------


def _run_with_terminal_stderr(server, project: Path, *args: str) -> tuple[int, str, str]:
    """Run with stdout a pipe and stderr a real pseudo-terminal, as `asi-agent run … > file` does."""
    command = [sys.executable, "-m", "asi_agent", "run", *server_flags(server), *args]
    return run_with_terminal_stderr(command, cwd=project, env={**cli_env(project), "TERM": "xterm"})


def test_progress_shows_on_a_terminal_and_never_on_stdout(openai_server, project):
    openai_server.reply(
        Reply(calls=[Call("read_file", {"path": "calc.py"})], delay=1.5),
        Reply(text="Done reading.\nAGENT_STATUS: DONE", delay=1.5),
    )
    code, out, err = _run_with_terminal_stderr(openai_server, project, "read calc.py")
    assert code == 0, err
    assert out == "Done reading.\n"
    assert "waiting for the model" in err and "\x1b[K" in err
    assert "→ read_file" in err


@pytest.mark.parametrize("output_format", ["json", "stream-json"])
def test_no_progress_with_machine_output_even_on_a_terminal(openai_server, project, output_format):
    openai_server.reply(Reply(text="Hello.\nAGENT_STATUS: DONE", delay=1.5))
    code, out, err = _run_with_terminal_stderr(openai_server, project, "--output-format", output_format, "hi")
    assert code == 0, err
    assert "waiting for the model" not in err and "\x1b[K" not in err
    assert all(json.loads(line) for line in out.splitlines())
    assert last_json(out)["status"] == "DONE"


def test_no_progress_when_stderr_is_not_a_terminal(openai_server, project):
    openai_server.reply(Reply(text="Hello.\nAGENT_STATUS: DONE", delay=1.5))
    proc = run_cli("run", *server_flags(openai_server), "hi", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "waiting for the model" not in proc.stderr and "\x1b[K" not in proc.stderr


SLEEPY_PLUGIN = """
import time

from asi_agent.sdk import BaseModel, PluginContext, tool


class NoArgs(BaseModel):
    pass


@tool(description="Block for a minute", risk="execute")
def sleepy(args: NoArgs, ctx: PluginContext) -> str:
    time.sleep(60)
    return "woke up"
"""


def test_timeout_does_not_wait_for_a_blocked_worker_thread(openai_server, project):
    (project / "plugins").mkdir()
    (project / "plugins" / "sleepy.py").write_text(SLEEPY_PLUGIN)
    manifest = {
        "version": 1,
        "tools": [
            {
                "name": "sleepy",
                "description": "Block for a minute",
                "parameters": {"type": "object", "properties": {}},
                "risk": "execute",
                "run": {"type": "python", "entry": "sleepy:sleepy", "timeout": 120},
            }
        ],
    }
    (project / "moss-tools.json").write_text(json.dumps(manifest))
    openai_server.reply(Reply(text="Sleeping.", calls=[Call("sleepy", {})]))
    begun = time.monotonic()
    proc = run_cli(
        "run", *server_flags(openai_server), "--trust", "--yes", "--timeout", "3", "--output-format", "json",
        "nap", cwd=project,
    )  # fmt: skip
    took = time.monotonic() - begun
    assert proc.returncode == 4, proc.stderr
    assert last_json(proc.stdout)["status"] == "TIMEOUT"
    assert took < 30, took  # the blocked thread (60 s) was abandoned, not waited for


def test_a_status_written_inline_is_neither_shown_nor_returned(openai_server, project):
    openai_server.reply(Reply(text="It prints a greeting. AGENT_STATUS: DONE"))
    proc = run_cli("run", *server_flags(openai_server), "what does it do?", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "It prints a greeting.\n"
    openai_server.reply(Reply(text="It prints a greeting. AGENT_STATUS: DONE"))
    proc = run_cli(
        "run", *server_flags(openai_server), "--output-format", "json", "what does it do?", cwd=project
    )
    assert last_json(proc.stdout)["result"] == "It prints a greeting."


def test_text_output_says_why_a_loop_was_stopped(openai_server, project):
    openai_server.reply(
        *(Reply(text="Looking.", calls=[Call("read_file", {"path": "calc.py"})]) for _ in range(4))
    )
    proc = run_cli("run", *server_flags(openai_server), "what is in calc.py?", cwd=project)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "Looking.\n" * 3
    assert (
        "[STOP]" in proc.stderr
        and "asi-agent: stopped a loop: the model made the same call 3 times" in proc.stderr
    )


# --- plugins a plain install runs --------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[2]


def test_tools_check_passes_on_a_copy_of_this_repositorys_plugins(tmp_path):
    shutil.copy(REPO / "moss-tools.json", tmp_path / "moss-tools.json")
    shutil.copytree(REPO / "plugins", tmp_path / "plugins")
    proc = run_cli("tools", "--check", "--trust", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    names = {line.split()[0] for line in proc.stdout.splitlines()}
    assert {"word_count", "find_todos", "demo__slugify", "demo__count_lines", "refactor"} <= names


def test_missing_mcp_package_is_named_at_once(tmp_path):
    """With `mcp` unimportable the check fails at once naming the package, instead of waiting 30 s."""
    shutil.copy(REPO / "moss-tools.json", tmp_path / "moss-tools.json")
    shutil.copytree(REPO / "plugins", tmp_path / "plugins")
    code = "import sys; sys.modules['mcp'] = None; from asi_agent.ui.cli import main; sys.exit(main())"
    begun = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", code, "tools", "--check", "--trust"],
        cwd=tmp_path,
        env=cli_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert "No module named 'mcp'" in proc.stderr and "pip install 'mcp>=2,<3'" in proc.stderr
    assert time.monotonic() - begun < 25  # the server's start timeout is 30 s
