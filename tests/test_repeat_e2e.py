"""A call already made is not made again: the sequence `eval --provider local` once produced (the same
`grep_search` three times in one task), replayed by the scripted backend through `asi-agent run` and
`asi-agent eval`. A planned (guided) run makes a call once until a change; any other run at most twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.asi_cli import asi

CALC = "def add(a, b):\n    return a + b\n\n\ndef subtract(a, b):\n    return a - b\n"
GREP = {"name": "grep_search", "arguments": {"pattern": "subtract"}}
FAILED_EDIT = {"name": "replace_text", "arguments": {"path": "calc.py", "oldText": "nowhere", "newText": "x"}}
TASK = "which lines mention subtract"


def _script(planner: bool, *calls: dict) -> dict:
    replies = [{"text": "", "tool_calls": [call]} for call in calls]
    return {"native": True, "planner": planner, "replies": [*replies, "calc.py:5\nAGENT_STATUS: DONE"]}


def _run(tmp_path: Path, script: dict) -> dict:
    root = tmp_path / "project"
    root.mkdir()
    (root / "calc.py").write_text(CALC)
    (tmp_path / "s.json").write_text(json.dumps(script))
    model = str(tmp_path / "s.json")
    done = asi(
        "run", "--provider", "scripted", "--model", model, "--yes", "--output-format", "json", TASK, cwd=root
    )
    return json.loads(done.stdout.splitlines()[-1])


def _greps(calls: list[dict]) -> list[bool]:
    return [call["ok"] for call in calls if call["name"] == "grep_search"]


@pytest.mark.parametrize(
    "calls",
    [(GREP, GREP, GREP), (GREP, FAILED_EDIT, GREP, FAILED_EDIT, GREP)],
    ids=["in-a-row", "a-failed-edit-between"],
)
def test_a_planned_run_makes_a_call_once_until_a_change(tmp_path: Path, calls: tuple[dict, ...]) -> None:
    end = _run(tmp_path, _script(True, *calls))
    assert _greps(end["tool_calls"]) == [True, False, False], end["tool_calls"]
    refused = [c for c in end["tool_calls"] if c["name"] == "grep_search" and not c["ok"]]
    assert all("already made this exact call since the last change" in c["error"] for c in refused)


def test_an_unplanned_run_makes_it_at_most_twice(tmp_path: Path) -> None:
    end = _run(tmp_path, _script(False, GREP, GREP, GREP))
    assert _greps(end["tool_calls"]) == [True, True, False], end["tool_calls"]


def test_a_change_lets_a_read_be_made_again(tmp_path: Path) -> None:
    edit = {"name": "replace_text", "arguments": {"path": "calc.py", "oldText": "a - b", "newText": "b - a"}}
    end = _run(tmp_path, _script(True, GREP, edit, GREP))
    assert _greps(end["tool_calls"]) == [True, True], end["tool_calls"]


def test_eval_refuses_the_repeat_too(tmp_path: Path) -> None:
    """`asi-agent eval` builds its runs through the same assembly: the repeat is refused there as well."""
    suite = tmp_path / "suite" / "repeat-grep"
    (suite / "project").mkdir(parents=True)
    (suite / "project" / "calc.py").write_text(CALC)
    verify = 'verify = ["{python}", "-c", "pass"]'
    (suite / "task.toml").write_text(f'instruction = "{TASK}"\n{verify}\nexpect = "answer"\n')
    (suite / "script.json").write_text(json.dumps(_script(True, GREP, GREP, GREP)))
    done = asi("eval", "--suite", "suite", "--provider", "scripted", "--output", "r.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (task,) = json.loads((tmp_path / "r.json").read_text())["tasks"]
    assert task["tools"] == ["grep_search"] * 3
    results = [r for r in task["transcript"] if r["type"] == "result" and r["call"]["name"] == "grep_search"]
    assert [r["ok"] for r in results] == [True, False, False]
