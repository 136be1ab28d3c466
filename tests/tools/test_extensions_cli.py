"""`asi-agent tools` marks the extension tools, and `tools = "asi"` leaves them out (the real CLI)."""

from __future__ import annotations

import json
from pathlib import Path

from asi_cli import asi

EXTENSIONS = ["todo_write", "save_memory", "web_fetch", "web_search", "task"]


def test_the_listing_marks_the_extensions_after_the_24(tmp_path: Path) -> None:
    listed = asi("tools", "--json", cwd=tmp_path)

    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert [row["name"] for row in rows[24:]] == EXTENSIONS
    assert {row["source"] for row in rows[:24]} == {"builtin"}
    assert {row["source"] for row in rows[24:]} == {"extension"}
    todos = next(row for row in rows if row["name"] == "todo_write")["schema"]["function"]["parameters"]
    assert todos["properties"]["todos"]["items"]["required"] == ["id", "content", "status"]
    text = asi("tools", cwd=tmp_path).stdout
    assert any(line.split() == ["web_fetch", "network", "extension"] for line in text.splitlines())
    assert any(line.split() == ["task", "execute", "extension"] for line in text.splitlines())
    task = next(row for row in rows if row["name"] == "task")["schema"]["function"]
    assert "explore:" in task["description"] and task["parameters"]["required"] == ["description", "prompt"]


def test_the_task_listing_names_the_folders_agents(tmp_path: Path) -> None:
    (tmp_path / ".user-config" / "agents").mkdir(parents=True)
    (tmp_path / ".user-config" / "agents" / "reviewer.md").write_text(
        "---\nname: reviewer\ndescription: Reviews a diff for bugs\ntools: read_file, grep_search\n---\n"
        "Review the changes.\n"
    )

    rows = json.loads(asi("tools", "--json", cwd=tmp_path).stdout)

    task = next(row for row in rows if row["name"] == "task")
    assert "reviewer: Reviews a diff for bugs" in task["schema"]["function"]["description"]


def test_tools_asi_lists_exactly_the_24(tmp_path: Path) -> None:
    (tmp_path / ".user-config").mkdir()
    (tmp_path / ".user-config" / "config.toml").write_text('tools = "asi"\n')

    rows = json.loads(asi("tools", "--json", cwd=tmp_path).stdout)

    assert len(rows) == 24 and not set(EXTENSIONS) & {row["name"] for row in rows}
