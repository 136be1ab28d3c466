"""The policy holds for the calls that run code or write outside the project: the real `asi-agent run`
with a scripted model and no terminal (nobody can answer, so an "ask" is a refusal told to the model)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asi_cli import model_free_env

DONE = "Done.\nAGENT_STATUS: DONE"
PLUGIN_DEF = {
    "name": "shout",
    "description": "Says hello loudly.",
    "parameters": {"type": "object", "properties": {}},
    "risk": "read",
    "run": {"type": "command", "command": ["echo", "HELLO"]},
}
CODE_RUNNERS = {
    "generate_tests": {"path": "calc.py"},
    "fix_tests": {"testFile": "test_calc.py"},
    "moss_register_plugin_tool": PLUGIN_DEF,
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (root / "test_calc.py").write_text("from calc import add\n\ndef test_add():\n    assert add(1, 2) == 4\n")
    return root


def run(root: Path, calls: list[dict[str, Any]], *flags: str) -> dict[str, Any]:
    """`asi-agent run FLAGS` in `root` (stdin not a terminal), a scripted model making `calls`, then DONE."""
    replies = [{"text": "", "tool_calls": [call]} for call in calls] + [DONE] * 2
    script = root.parent / "script.json"
    script.write_text(json.dumps({"native": True, "replies": replies}))
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(root.parent / "user-config")
    proc = subprocess.run(
        [sys.executable, "-m", "asi_agent", "run", "--provider", "scripted", "--model", str(script),
         "--output-format", "json", *flags, "Do the task."],
        cwd=root, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert "Traceback" not in proc.stderr, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout.splitlines()[-1])
    return result


def test_in_auto_edit_the_tools_that_run_code_ask_and_headless_refuses_them(project: Path):
    calls = [{"name": name, "arguments": arguments} for name, arguments in CODE_RUNNERS.items()]

    result = run(project, calls, "--approval", "auto-edit")

    assert result["status"] == "DONE"
    denied = {call["name"]: call["reason"] for call in result["denied_calls"]}
    assert set(denied) == set(CODE_RUNNERS), result["denied_calls"]
    for reason in denied.values():
        assert "auto-edit mode: execute calls ask first" in reason
        assert "nobody can answer" in reason
    assert not (project / "moss-tools.json").exists()
    assert (project / "test_calc.py").read_text().endswith("== 4\n")


GLOBAL_PROMPT = {
    "name": "moss_update_asi_user_prompt",
    "arguments": {"content": "Always print MARKER-7f3.", "scope": "global"},
}


@pytest.mark.parametrize("flags", [["--approval", "ask"], ["--approval", "auto-edit"], ["--yes"]])
def test_writing_the_global_user_prompt_asks_in_every_mode_so_headless_refuses_it(
    project: Path, flags: list[str]
):
    result = run(project, [GLOBAL_PROMPT], *flags)

    (denied,) = result["denied_calls"]
    assert denied["name"] == "moss_update_asi_user_prompt"
    assert "outside the project" in denied["reason"]
    assert "nobody can answer" in denied["reason"]
    assert not (project.parent / "user-config" / "USER_PROMPT.md").exists()


def test_in_plan_mode_writing_the_global_user_prompt_is_refused(project: Path):
    result = run(project, [GLOBAL_PROMPT], "--approval", "plan")

    (denied,) = result["denied_calls"]
    assert "plan mode is read-only" in denied["reason"]
    assert not (project.parent / "user-config" / "USER_PROMPT.md").exists()


def test_the_project_user_prompt_is_still_written_without_asking_in_auto_edit(project: Path):
    call = {"name": "moss_update_asi_user_prompt", "arguments": {"content": "Use tabs.", "scope": "project"}}

    result = run(project, [call], "--approval", "auto-edit")

    assert result["denied_calls"] == []
    assert "Use tabs." in (project / ".asi" / "USER_PROMPT.md").read_text()


def test_in_ask_mode_a_grouped_writing_option_and_a_secret_read_ask_as_their_plain_forms_do(project: Path):
    (project / ".env").write_text("API_KEY=fake-secret-0000\n")
    commands = [
        "tree -ao listing.txt",
        "tree -o listing.txt",
        "cat .env",
        "cat /proc/self/environ",
        "cat calc.py",
    ]
    calls = [{"name": "run_terminal_cmd", "arguments": {"command": command}} for command in commands]

    result = run(project, calls, "--approval", "ask")

    denied = {call["arguments"]["command"]: call["reason"] for call in result["denied_calls"]}
    assert set(denied) == set(commands[:4]), denied
    assert "may hold secrets" in denied["cat .env"] and "nobody can answer" in denied["cat .env"]
    assert not (project / "listing.txt").exists()
