"""Every front end exports the same OpenTelemetry spans — `agent.run` around a run, a `model.request`
per request and a `tool.call` per call, children of the run — to an OTLP/HTTP collector named by the
standard `OTEL_*` variables: `asi-agent run`, the plain chat (`chat --plain`) and the full-screen chat
(on a pseudo-terminal)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asi_cli import model_free_env
from pty_chat import PtyChat
from servers.otlp_collector import OtlpCollector

SCRIPT = {
    "native": True,
    "replies": [
        {"text": "", "tool_calls": [{"name": "read_file", "arguments": {"path": "a.py"}, "id": "call_1"}]},
        "a.py prints a marker.\nAGENT_STATUS: DONE",
    ],
}
TASK = "What does a.py print?"


@pytest.fixture
def collector() -> Any:
    """A started OTLP collector."""
    with OtlpCollector() as started:
        yield started


def _setup(tmp_path: Path, collector: OtlpCollector) -> tuple[Path, list[str], dict[str, str]]:
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.py").write_text("print('marker')\n", encoding="utf-8")
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT), encoding="utf-8")
    env = {k: v for k, v in model_free_env().items() if not k.startswith("OTEL_")}
    env |= {
        "ASI_CONFIG_DIR": str(tmp_path / "user-config"),
        "OTEL_EXPORTER_OTLP_ENDPOINT": collector.url,
        "OTEL_SERVICE_NAME": "asi-chat-test",
    }
    model = ["--provider", "scripted", "--model", str(script), "--no-sandbox", "--trust"]
    return project, model, env


def _run(project: Path, model: list[str], env: dict[str, str]) -> None:
    command = [sys.executable, "-m", "asi_agent", "run", *model, "--yes", TASK]
    done = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr


def _plain(project: Path, model: list[str], env: dict[str, str]) -> None:
    command = [sys.executable, "-m", "asi_agent", "chat", "--plain", *model]
    done = subprocess.run(
        command,
        cwd=project,
        env=env,
        input=f"{TASK}\n/quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "a.py prints a marker." in done.stdout


def _tui(project: Path, model: list[str], env: dict[str, str], collector: OtlpCollector) -> None:
    chat = PtyChat(model, project, env)
    try:
        deadline = chat.ready()
        chat.type(f"{TASK}\r".encode())
        chat.wait_until(lambda: bool(collector.named("agent.run")), deadline)  # exported when the run ends
        chat.type(b"\x11")  # Ctrl+Q
        assert chat.proc.wait(timeout=60) == 0
    finally:
        chat.close()


@pytest.mark.parametrize("front_end", ["run", "plain", "tui"])
def test_every_front_end_exports_the_same_spans(
    tmp_path: Path, collector: OtlpCollector, front_end: str
) -> None:
    project, model, env = _setup(tmp_path, collector)
    if front_end == "run":
        _run(project, model, env)
    elif front_end == "plain":
        _plain(project, model, env)
    else:
        _tui(project, model, env, collector)
    (run,) = collector.named("agent.run")
    requests, (tool,) = collector.named("model.request"), collector.named("tool.call")
    assert len(requests) == 2
    assert all(span.parent_span_id == run.span_id for span in [*requests, tool])
    attributes = {a.key: a.value.string_value for a in tool.attributes}
    assert attributes == {"tool.name": "read_file", "tool.call_id": "call_1", "tool.result": "ok"}
    status = {a.key: a.value.string_value for a in run.attributes}["run.status"]
    assert status == "DONE"
    assert set(collector.services) == {"asi-chat-test"}


def test_a_chat_without_the_variables_exports_nothing(tmp_path: Path, collector: OtlpCollector) -> None:
    project, model, env = _setup(tmp_path, collector)
    env = {k: v for k, v in env.items() if not k.startswith("OTEL_")}
    _plain(project, model, env)
    assert collector.spans == []
