"""The commands of docs/getting-started.md, run as written against the scripted model.

Every line of the page's ```sh blocks is an `asi-agent` command (or `echo "TASK" | asi-agent …`): they are run
in order, in one temporary copy of examples/hello, as real `asi-agent` subprocesses. The model is the scripted
backend, set as `provider = "scripted"` in a private user config, so the commands run exactly as the page
shows them; each run's task picks its script from SCRIPTS. A command that stops working (an unknown option,
a renamed subcommand, a failed run) fails the test, and so does a new run task nobody wrote a script for.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from asi_cli import model_free_env

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "getting-started.md"
HELLO = REPO / "examples" / "hello"

QUESTION = "What does the greet function in greet.py return?"
EDIT = "Make greet say Hi instead of Hello"
ANSWER = 'return "Hello, " + name + "!"'

# The scripted model's replies for each task the page runs (native tool calls).
SCRIPTS: dict[str, list[object]] = {
    QUESTION: [
        {
            "tool_calls": [
                {"name": "read_file", "arguments": {"path": "greet.py", "startLine": 5, "endLine": 6}}
            ]
        },
        f"{ANSWER}\nAGENT_STATUS: DONE",
    ],
    EDIT: [
        {
            "tool_calls": [
                {
                    "name": "replace_text",
                    "arguments": {"path": "greet.py", "oldText": '"Hello, "', "newText": '"Hi, "'},
                }
            ]
        },
        "greet now says Hi.\nAGENT_STATUS: DONE",
    ],
}
# What the chat (a command without a task) is sent on its standard input.
CHAT_INPUT = QUESTION


@dataclass(frozen=True)
class Command:
    """One documented command: its line, its arguments after `asi-agent`, and its standard input."""

    line: str
    args: list[str]
    stdin: str | None


def sh_commands(markdown: str) -> list[Command]:
    """The commands of the ```sh blocks of `markdown`, in order; a line that is not an asi-agent command
    raises, so the page cannot show a command this test does not run."""
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", markdown, flags=re.MULTILINE | re.DOTALL):
        for line in block.splitlines():
            if not line.strip():
                continue
            stdin = None
            shell = line
            if " | " in line:
                feeder, shell = line.split(" | ", 1)
                words = shlex.split(feeder)
                assert words[0] == "echo", f"only `echo TEXT | asi-agent …` is run: {line!r}"
                stdin = " ".join(words[1:]) + "\n"
            words = shlex.split(shell, comments=True)
            assert words and words[0] == "asi-agent", f"not an asi-agent command: {line!r}"
            commands.append(Command(line, words[1:], stdin))
    return commands


def task_of(command: Command) -> str | None:
    """The task a `run` command gives (its last argument, or stdin for `-`); None for other commands."""
    if not command.args or command.args[0] != "run":
        return None
    task = command.args[-1]
    return command.stdin.strip() if task == "-" and command.stdin else task


def run_documented(command: Command, project: Path, config_dir: Path) -> subprocess.CompletedProcess[str]:
    """Run `command` in `project` with the scripted model its task calls for."""
    task = task_of(command) or QUESTION
    assert task in SCRIPTS, f"no script for the task of {command.line!r}: add one to SCRIPTS"
    script = config_dir.parent / "script.json"
    script.write_text(json.dumps({"native": True, "replies": SCRIPTS[task]}), encoding="utf-8")
    config_dir.mkdir(exist_ok=True)
    (config_dir / "config.toml").write_text(
        f'provider = "scripted"\nmodel = {json.dumps(str(script))}\n', encoding="utf-8"
    )
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(config_dir)
    stdin = command.stdin if command.stdin is not None else (CHAT_INPUT + "\n" if not command.args else "")
    return subprocess.run(
        [sys.executable, "-m", "asi_agent", *command.args],
        cwd=project,
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def check_output(command: Command, proc: subprocess.CompletedProcess[str], project: Path) -> None:
    """What each kind of documented command must have done, beyond exiting 0."""
    greet = (project / "greet.py").read_text(encoding="utf-8")
    args = command.args
    if task_of(command) == QUESTION:
        if "json" in args:
            result = json.loads(proc.stdout.strip().splitlines()[-1])
            assert result["status"] == "DONE" and result["verified"], result
            assert result["result"] == ANSWER
        else:
            assert proc.stdout.strip() == ANSWER
    elif task_of(command) == EDIT:
        assert '"Hi, "' in greet and proc.stdout.strip() == "greet now says Hi."
    elif args[:1] == ["diff"]:
        assert '+    return "Hi, "' in proc.stdout
    elif args[:1] == ["undo"]:
        assert "reverted" in proc.stdout and '"Hello, "' in greet
    elif args[:1] == ["sessions"]:
        assert EDIT in proc.stdout and QUESTION in proc.stdout
    elif args[:1] == ["tools"]:
        assert "read_file" in proc.stdout and "replace_text" in proc.stdout
    elif args == ["--version"]:
        assert proc.stdout.startswith("asi-agent ")
    elif not args:
        assert ANSWER in proc.stdout and "── DONE" in proc.stdout
    else:
        pytest.fail(f"no expectation for {command.line!r}: add one to check_output")


def run_page(markdown: str, tmp_path: Path) -> list[Command]:
    """Run every command of `markdown` in order in a fresh copy of examples/hello; the commands run."""
    project = tmp_path / "hello"
    shutil.copytree(HELLO, project)
    commands = sh_commands(markdown)
    for command in commands:
        proc = run_documented(command, project, tmp_path / "user-config")
        assert proc.returncode == 0, f"{command.line!r} exited {proc.returncode}:\n{proc.stderr}"
        check_output(command, proc, project)
    return commands


def test_every_getting_started_command_runs_as_shown(tmp_path: Path) -> None:
    commands = run_page(PAGE.read_text(encoding="utf-8"), tmp_path)
    kinds = {(c.args[:1] or ["(chat)"])[0] for c in commands}
    assert kinds >= {"run", "diff", "undo", "sessions", "tools", "--version", "(chat)"}, kinds
    assert any(c.stdin for c in commands), "the stdin form `echo … | asi-agent run -` is on the page"


def test_a_command_with_an_unknown_option_fails_the_run(tmp_path: Path) -> None:
    """The runner above does catch a broken command: the page with one option misspelled fails."""
    page = PAGE.read_text(encoding="utf-8")
    page = page.replace("asi-agent run --output-format", "asi-agent run --output-fmt", 1)
    with pytest.raises(AssertionError, match="exited 1"):
        run_page(page, tmp_path)


def test_a_line_that_is_not_an_asi_agent_command_is_refused() -> None:
    with pytest.raises(AssertionError, match="not an asi-agent command"):
        sh_commands("```sh\npip install asi-agent\n```\n")


def test_a_run_with_a_task_nobody_scripted_is_refused(tmp_path: Path) -> None:
    [command] = sh_commands('```sh\nasi-agent run "Write a poem"\n```\n')
    with pytest.raises(AssertionError, match="no script for the task"):
        run_documented(command, tmp_path, tmp_path / "user-config")
