"""The embedded model through `asi-agent run`: no server, no key; its calls validate and execute."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from asi_cli import model_free_env

from asi_agent.tools.registry import default_registry

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "hello"
pytestmark = pytest.mark.slow


def _run(project: Path, tmp_path: Path, task: str) -> subprocess.CompletedProcess[str]:
    return _asi(project, tmp_path, "run", "--approval", "auto-edit", "--max-turns", "3", task)


def _asi(project: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`asi-agent ARGS --output-format json` in `project`, where only the embedded model can answer."""
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(tmp_path / "user-config")
    env["OLLAMA_HOST"] = "127.0.0.1:9"  # nothing answers there: the embedded model is chosen
    return subprocess.run(
        [sys.executable, "-m", "asi_agent", *args, "--output-format", "json"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_embedded_model_makes_valid_calls_that_run(tmp_path):
    project = tmp_path / "hello"
    shutil.copytree(EXAMPLE, project)
    proc = _run(project, tmp_path, "What does the greet function in greet.py return?")
    assert proc.returncode == 0, proc.stderr
    assert "using the embedded SmolLM2-135M-Instruct" in proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["tool_calls"], "the first turn must be a tool call"
    first = result["tool_calls"][0]
    assert first["ok"], first
    registry = default_registry()
    transcript = project / ".asi" / "sessions" / f"{result['session_id']}.jsonl"
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    calls = [c for r in records if r["type"] == "message" for c in r["message"].get("tool_calls", [])]
    assert calls
    for call in calls:
        registry.validate(call["name"], call["arguments"])  # raises if a call was not schema-valid
    ran = [r for r in records if r["type"] == "result"]
    assert ran and ran[0]["ok"]
    assert result["status"] == "DONE"
    assert (
        result["result"] and result["result"] in (project / "greet.py").read_text()
    )  # a quote of what was read
    assert result["result"] == 'return "Hello, " + name + "!"'  # the line that answers, not the whole file


def test_without_a_tool_result_the_run_ends_stop_not_done(tmp_path):
    project = tmp_path / "empty"
    project.mkdir()
    proc = _run(project, tmp_path, "Show me the contents of greet.py.")
    assert proc.returncode == 2, proc.stdout + proc.stderr  # STOP: nothing to read, so nothing to answer from
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["status"] == "STOP"
    assert result["result"].startswith("The model could not complete the task")


def test_a_second_task_in_the_same_session_is_not_compacted(tmp_path):
    """After one task, the next one in the same session goes on at once: what the grounded model is
    really sent (a few tools, not the agent's whole tool list) fits its 4k window, so nothing is
    summarised — summarising with the 135M model took minutes a turn and made the history longer."""
    project = tmp_path / "hello"
    shutil.copytree(EXAMPLE, project)
    first = _run(project, tmp_path, "What does the greet function in greet.py return?")
    assert first.returncode == 0, first.stderr
    session = json.loads(first.stdout.strip().splitlines()[-1])["session_id"]
    second = _asi(project, tmp_path, "resume", session, "Show me the contents of greet.py.")
    assert second.returncode == 0, second.stdout + second.stderr
    result = json.loads(second.stdout.strip().splitlines()[-1])
    assert result["status"] == "DONE" and 'return "Hello, " + name' in result["result"]
    transcript = project / ".asi" / "sessions" / f"{session}.jsonl"
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert [r for r in records if r["type"] == "compacted"] == []
