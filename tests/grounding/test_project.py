"""The project view grounding ranks files with: quick on a big folder, as every turn asks it."""

from __future__ import annotations

import time
from pathlib import Path

from asi_agent.grounding.project import ProjectView


def test_the_files_a_task_names_are_found_quickly_among_twenty_thousand():
    """20,000 paths (the scan's limit), asked five times as a run's turns do: it took about 75 s when a
    pattern was built for every path; a path not in the task's text now costs no pattern."""
    files = tuple(f"d{d}/f{f}.py" for d in range(40) for f in range(500))
    view = ProjectView(Path("project"), files, tuple(f"d{d}" for d in range(40)))
    began = time.monotonic()
    for _ in range(5):
        found = view.mentioned_files("what does d1/f1.py do?")
    assert found[0] == "d1/f1.py"
    assert time.monotonic() - began < 20
