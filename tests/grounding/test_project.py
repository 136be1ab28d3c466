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


def test_small_text_never_reads_through_a_link_leading_out_of_the_project(tmp_path: Path) -> None:
    """A link committed in the repository (or swapped in) must not bring an outside file into the prompt;
    a link that stays inside is read as its target."""
    root, outside = tmp_path / "project", tmp_path / "outside"
    (root / "src").mkdir(parents=True)
    outside.mkdir()
    (outside / "id_rsa").write_text("FAKE-KEY-FOR-A-TEST\n", encoding="utf-8")
    (root / "src" / "a.py").write_text("x = 1\n", encoding="utf-8")
    (root / "notes.md").symlink_to(outside / "id_rsa")
    (root / "docs").symlink_to(outside)
    (root / "alias.py").symlink_to(root / "src" / "a.py")
    view = ProjectView(root, ("notes.md", "docs/id_rsa", "alias.py", "src/a.py"), ("src",))
    assert view.small_text("notes.md", 1000) is None
    assert view.small_text("docs/id_rsa", 1000) is None
    assert view.small_text("alias.py", 1000) == "x = 1\n"
    assert view.small_text("src/a.py", 3) is None  # over the size limit
    assert view.small_text("../outside/id_rsa", 1000) is None
