"""An MCP tool's progress notifications through the real `asi-agent run` and `chat --plain` with the
scripted model: a stdio server made with the `mcp` SDK (`tests/servers/mcp_progress.py`) reports
`40/100 · indexing`; `run`'s progress line on a terminal shows it beside the running call (with no
terminal nothing is drawn), and the plain chat prints it under the call's line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.asi_cli import model_free_env, run_with_terminal_stderr, write_script
from tests.mcp_helpers import write_mcp_json

pytest.importorskip("mcp")
SERVER = Path(__file__).resolve().parents[1] / "servers" / "mcp_progress.py"


def _setup(tmp_path: Path) -> tuple[list[str], dict[str, str], Path]:
    """The command, environment and project of a run whose model calls `progress__index` once."""
    project, config = tmp_path / "proj", tmp_path / "config"
    project.mkdir()
    config.mkdir()
    server = {"command": sys.executable, "args": [str(SERVER)]}
    write_mcp_json(config, "progress", server)
    call = {"id": "c1", "name": "progress__index", "arguments": {"pause": 1.5}}
    replies = [{"text": "", "tool_calls": [call]}, "Indexed.\nAGENT_STATUS: DONE"]
    model = write_script(tmp_path, replies)
    env = {**model_free_env(), "ASI_CONFIG_DIR": str(config), "TERM": "xterm"}
    command = [sys.executable, "-m", "asi_agent", "run", "--provider", "scripted", "--model", str(model)]
    return [*command, "index the project"], env, project


def test_progress_shows_on_the_progress_line_beside_the_running_call(tmp_path: Path) -> None:
    command, env, project = _setup(tmp_path)
    code, out, err = run_with_terminal_stderr(command, cwd=project, env=env, timeout=120)
    assert code == 0, err
    assert out == "Indexed.\n"
    assert "running progress__index (40/100 · indexing) · " in err
    assert "✓ progress__index: indexed" in err
    assert err.index("(40/100 · indexing)") < err.index("✓ progress__index")


def test_no_progress_is_drawn_without_a_terminal(tmp_path: Path) -> None:
    command, env, project = _setup(tmp_path)
    done = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "✓ progress__index: indexed" in done.stderr
    assert "40/100" not in done.stderr and "\x1b[K" not in done.stderr


def _plain_chat(
    command: list[str], env: dict[str, str], project: Path, message: str, *flags: str
) -> list[str]:
    """`chat --plain` on the run's model (no task: `message` is typed, then /quit); its output lines."""
    chat = [*command[:3], "chat", "--plain", *command[4:-1], *flags]
    done = subprocess.run(
        chat,
        cwd=project,
        env=env,
        input=f"{message}\n/quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [line.strip() for line in done.stdout.splitlines()]


def test_the_plain_chat_prints_the_progress_under_the_running_call(tmp_path: Path) -> None:
    command, env, project = _setup(tmp_path)
    lines = _plain_chat(command, env, project, "index the project")
    started = next(i for i, line in enumerate(lines) if line.startswith("· progress__index"))
    assert lines[started + 1 : started + 3] == [
        "… progress__index 40/100 · indexing",
        "… progress__index 100/100 · done",
    ]
    assert lines[started + 3].startswith("✓ progress__index") and lines[started + 3].endswith("indexed")


def test_the_plain_chat_prints_a_child_agents_progress_under_its_call(tmp_path: Path) -> None:
    command, env, project = _setup(tmp_path)
    task = {"name": "task", "arguments": {"description": "i", "prompt": "Index", "subagent_type": "general"}}
    child = {"name": "progress__index", "arguments": {"pause": 0.5}}
    replies = [{"text": "", "tool_calls": [task]}, {"text": "", "tool_calls": [child]}]
    replies += ["Indexed.\nAGENT_STATUS: DONE", "Done.\nAGENT_STATUS: DONE"]
    write_script(tmp_path, replies)
    lines = _plain_chat(command, env, project, "index", "--approval", "yolo")
    started = next(i for i, line in enumerate(lines) if line.startswith("↳ general · progress__index"))
    assert lines[started + 1 : started + 3] == [
        "↳ general … progress__index 40/100 · indexing",
        "↳ general … progress__index 100/100 · done",
    ]
    assert lines[started + 3] == "↳ general ✓ progress__index indexed"
