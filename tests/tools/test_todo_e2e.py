"""`todo_write` through the real `asi-agent run`: the list replaces the previous one, is checked, printed in
line mode and carried in the JSON result."""

from __future__ import annotations

from pathlib import Path

from asi_cli import tool_results
from ext_run import json_run, scripted_run

FIRST = [
    {"id": "1", "content": "Read calc.py", "status": "in_progress"},
    {"id": "2", "content": "Fix the sum", "status": "pending"},
]
SECOND = [
    {"id": 1, "content": "Read calc.py", "status": "completed"},
    {"id": 2, "content": "Fix the sum", "status": "in_progress"},
    {"id": 3, "content": "Run the tests", "status": "pending"},
]


def _todo(todos: list[dict[str, object]]) -> dict[str, object]:
    return {"name": "todo_write", "arguments": {"todos": todos}}


def test_the_last_list_replaces_the_first_and_is_the_json_results_todos(tmp_path: Path) -> None:
    result = json_run(tmp_path, [_todo(FIRST), _todo(SECOND)])

    assert result["status"] == "DONE"
    assert [call["ok"] for call in result["tool_calls"]] == [True, True]
    assert result["todos"] == [  # numbered ids become strings; the first list is gone
        {"id": "1", "content": "Read calc.py", "status": "completed"},
        {"id": "2", "content": "Fix the sum", "status": "in_progress"},
        {"id": "3", "content": "Run the tests", "status": "pending"},
    ]
    seen = tool_results(tmp_path, result["session_id"])
    assert seen[1].splitlines() == [
        "Todo list (1/3 completed):",
        "[x] Read calc.py",
        "[>] Fix the sum",
        "[ ] Run the tests",
    ]


def test_two_tasks_in_progress_are_refused_and_the_previous_list_stays(tmp_path: Path) -> None:
    busy = [{**item, "status": "in_progress"} for item in FIRST]
    twice = [FIRST[0], {**FIRST[1], "id": "1"}]

    result = json_run(tmp_path, [_todo(FIRST), _todo(busy), _todo(twice)])

    assert [call["ok"] for call in result["tool_calls"]] == [True, False, False]
    assert "only one task may be in_progress at a time, but 1, 2 are" in result["tool_calls"][1]["error"]
    assert "task ids must be unique, and 1 is used twice" in result["tool_calls"][2]["error"]
    assert result["todos"] == FIRST


def test_a_bad_status_is_an_error_naming_the_field(tmp_path: Path) -> None:
    result = json_run(tmp_path, [_todo([{"id": "1", "content": "x", "status": "doing"}])])

    assert result["tool_calls"][0]["ok"] is False
    assert "todo_write: invalid parameter 'todos'" in result["tool_calls"][0]["error"]
    assert result["todos"] == []


def test_line_mode_prints_the_whole_list(tmp_path: Path) -> None:
    proc = scripted_run(tmp_path, [_todo(SECOND)])

    assert proc.returncode == 0, proc.stderr
    shown = "✓ todo_write: Todo list (1/3 completed):\n[x] Read calc.py\n[>] Fix the sum\n[ ] Run the tests"
    assert shown in proc.stderr


def test_tools_asi_offers_no_todo_write(tmp_path: Path) -> None:
    (tmp_path / ".asi").mkdir()
    (tmp_path / ".asi" / "config.toml").write_text('tools = "asi"\n')

    result = json_run(tmp_path, [_todo(FIRST)], "--trust")

    assert result["tool_calls"][0]["ok"] is False
    assert "unknown tool 'todo_write'" in result["tool_calls"][0]["error"]


def test_tools_asi_offers_no_task_either(tmp_path: Path) -> None:
    # `task` is registered by the session, not the catalog: `tools = "asi"` leaves it out too
    (tmp_path / ".asi").mkdir()
    (tmp_path / ".asi" / "config.toml").write_text('tools = "asi"\n')
    task = {"name": "task", "arguments": {"description": "Look around", "prompt": "List the files."}}

    result = json_run(tmp_path, [task], "--trust")

    assert result["tool_calls"][0]["ok"] is False
    assert "unknown tool 'task'" in result["tool_calls"][0]["error"]
