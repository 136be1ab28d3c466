"""A refusal is reported as a refusal, with the flag that allows it (`asi-agent run` as a subprocess, no TTY,
the default `--approval ask`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from asi_cli import last_json, run_cli, write_script

from asi_agent.backends.local import find_embedded_model

PYPROJECT = '[project]\nname = "demo"\nversion = "0.1.0"\n'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    root.mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "demo.py").write_text("def answer():\n    return 41\n", encoding="utf-8")
    return root


def _run(project: Path, *args: str) -> dict[str, Any]:
    quiet = {"OLLAMA_HOST": "127.0.0.1:9"}  # nothing answers there
    proc = run_cli("run", "--output-format", "json", *args, cwd=project, env=quiet, timeout=600)
    result = last_json(proc.stdout)
    result["exit_code"] = proc.returncode
    return result


@pytest.mark.skipif(find_embedded_model() is None, reason="the embedded model is not installed")
def test_a_refused_version_bump_is_reported_with_the_flag_that_allows_it(project: Path) -> None:
    result = _run(project, "--provider", "local", "bump the version to 0.2.0")
    assert result["status"] == "STOP" and result["exit_code"] == 2
    assert "Could not work out" not in result["result"]
    assert "was refused (ask mode" in result["result"] and "`--approval auto-edit`" in result["result"]
    assert result["denied_calls"][0]["arguments"]["path"] == "pyproject.toml"
    assert (project / "pyproject.toml").read_text(encoding="utf-8") == PYPROJECT


def test_any_models_refused_change_names_the_refusal_and_the_flag(project: Path) -> None:
    edit = {"path": "demo.py", "oldText": "return 41", "newText": "return 42"}
    replies = [
        {"text": "", "tool_calls": [{"name": "replace_text", "arguments": edit}]},
        "Done.\nAGENT_STATUS: DONE",
        "Done.\nAGENT_STATUS: DONE",
    ]
    script = write_script(project.parent, replies)
    result = _run(project, "--provider", "scripted", "--model", str(script), "make answer return 42")
    assert result["status"] == "STOP"
    change = next(check for check in result["checks"] if check["name"] == "change_made")
    assert change["detail"].startswith(
        "the request asks for a change and no file changed; replace_text was refused"
    )
    assert "`--approval auto-edit`" in result["result"]
