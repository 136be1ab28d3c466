"""OpenTelemetry spans of an agent run (`agent.run`, `model.request`, `tool.call`), exported when the
standard `OTEL_*` variables ask for them, through the real `asi-agent run`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from asi_cli import model_free_env

SCRIPT = {
    "native": True,
    "replies": [
        {"text": "", "tool_calls": [{"name": "read_file", "arguments": {"path": "a.py"}, "id": "call_1"}]},
        "a.py prints a marker.\nAGENT_STATUS: DONE",
    ],
}


def run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`asi-agent run` on a scripted model that reads a file, then answers."""
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    (project / "a.py").write_text("print('marker')\n", encoding="utf-8")
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT), encoding="utf-8")
    environ = model_free_env() | {"ASI_CONFIG_DIR": str(tmp_path / "user-config")} | env
    environ = {k: v for k, v in environ.items() if not k.startswith("OTEL_") or k in env}
    command = [sys.executable, "-m", "asi_agent", "run", "--provider", "scripted", "--model", str(script)]
    command += ["--yes", "--no-sandbox", "What does a.py print?"]
    return subprocess.run(
        command, cwd=project, env=environ, capture_output=True, text=True, timeout=120, check=False
    )


def spans(stderr: str) -> list[dict[str, object]]:
    """The console exporter's span objects in standard error."""
    found, depth, start = [], 0, 0
    for index, char in enumerate(stderr):
        if char == "{":
            depth, start = depth + 1, index if depth == 0 else start
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                try:
                    value = json.loads(stderr[start : index + 1])
                except ValueError:
                    continue
                if isinstance(value, dict) and "context" in value:
                    found.append(value)
    return found


def test_a_run_exports_its_spans(tmp_path: Path) -> None:
    done = run(tmp_path, OTEL_TRACES_EXPORTER="console", OTEL_SERVICE_NAME="asi-test")
    assert done.returncode == 0, done.stderr
    by_name = {}
    for span in spans(done.stderr):
        by_name.setdefault(span["name"], []).append(span)
    assert len(by_name["agent.run"]) == 1 and len(by_name["model.request"]) == 2
    (tool,) = by_name["tool.call"]
    assert tool["attributes"] == {"tool.name": "read_file", "tool.call_id": "call_1", "tool.result": "ok"}
    run_id = by_name["agent.run"][0]["context"]["span_id"]  # type: ignore[index]
    assert all(s["parent_id"] == run_id for s in [*by_name["model.request"], tool])
    assert by_name["agent.run"][0]["attributes"]["run.status"] == "DONE"  # type: ignore[index]


def test_no_spans_when_not_asked(tmp_path: Path) -> None:
    done = run(tmp_path)
    assert done.returncode == 0, done.stderr
    assert not spans(done.stderr) and "agent.run" not in done.stderr
