"""Honest STOP messages (`asi-agent run --provider local` as a subprocess): an answer the files do not
hold exactly quotes the closest line, one line cut at a word's end; a run whose calls all failed names
the error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from asi_cli import model_free_env

from asi_agent.backends.local import find_embedded_model

pytestmark = pytest.mark.skipif(find_embedded_model() is None, reason="the embedded model is not installed")

REASON = " ".join(
    ["seconds before a request to the upstream service is abandoned and retried with backoff"] * 4
)
QUESTION = "what is the timeout of the cache in settings.py?"
SETTINGS = f'"""Settings."""\n\nREQUEST_TIMEOUT = 30  # {REASON}\nRETRIES = 3\n'


def test_the_closest_line_is_one_line_cut_at_a_word(tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    (project / "settings.py").write_text(SETTINGS, encoding="utf-8")
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(tmp_path / "user-config")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "asi_agent",
            "run",
            "--provider",
            "local",
            "--output-format",
            "json",
            QUESTION,
        ],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["status"] == "STOP"
    closest = result["result"].split("The closest line: ", 1)[1]
    assert closest.startswith("REQUEST_TIMEOUT = 30  # seconds before")
    assert "\n" not in closest and len(closest) <= 170
    quoted = closest.rstrip(".").removesuffix("…")
    assert SETTINGS.split("\n")[2].startswith(quoted)
    assert quoted.split()[-1] in REASON.split()  # a whole word, not cut in the middle


def test_a_stop_names_the_real_tool_error(tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    (project / "greet.py").write_text('def greet(name):\n    return f"Hello, {name}!"\n', encoding="utf-8")
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(tmp_path / "user-config")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "asi_agent",
            "run",
            "--provider",
            "local",
            "--yes",
            "--output-format",
            "json",
            "run the tests",
        ],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["status"] == "STOP"
    assert "run_tests failed: no tests found in the project" in result["result"]
