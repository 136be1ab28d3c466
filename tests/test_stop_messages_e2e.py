"""Honest STOP messages (`asi-agent run --provider local` as a subprocess): an answer the files do not
hold exactly quotes the closest line, one line cut at a word's end; a run whose calls all failed names
the error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from asi_cli import last_json, run_cli

from asi_agent.backends.local import find_embedded_model

pytestmark = pytest.mark.skipif(find_embedded_model() is None, reason="the embedded model is not installed")

REASON = " ".join(
    ["seconds before a request to the upstream service is abandoned and retried with backoff"] * 4
)
QUESTION = "what is the timeout of the cache in settings.py?"
SETTINGS = f'"""Settings."""\n\nREQUEST_TIMEOUT = 30  # {REASON}\nRETRIES = 3\n'


def _local_run(project: Path, *args: str) -> dict[str, Any]:
    """`asi-agent run --provider local --output-format json ARGS` in `project`: the final JSON object."""
    proc = run_cli("run", "--provider", "local", "--output-format", "json", *args, cwd=project, timeout=600)
    return last_json(proc.stdout)


def test_the_closest_line_is_one_line_cut_at_a_word(tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    (project / "settings.py").write_text(SETTINGS, encoding="utf-8")
    result = _local_run(project, QUESTION)
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
    result = _local_run(project, "--yes", "run the tests")
    assert result["status"] == "STOP"
    assert "run_tests failed: no tests found in the project" in result["result"]
