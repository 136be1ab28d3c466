"""'What does F do?' through the real `asi-agent run`: an answer is backed only when it states something F's
body shows (what it returns, what it calls), never by F's signature line alone; the planner of the embedded
model answers from the body."""

from __future__ import annotations

import json
from pathlib import Path

from tests.asi_cli import asi

CALC = "def add(a, b):\n    return a + b\n\n\ndef subtract(a, b):\n    return a - b\n"
GREP = {"name": "grep_search", "arguments": {"pattern": "def subtract"}}
READ = {"name": "read_file", "arguments": {"path": "calc.py", "startLine": 5, "endLine": 6}}


def _run(tmp_path: Path, replies: list, *, planner: bool = False) -> dict:
    root = tmp_path / "project"  # the script lies outside: a search must not find the answer in it
    root.mkdir()
    (root / "calc.py").write_text(CALC)
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"native": True, "planner": planner, "replies": replies}))
    task = "What does subtract do?"
    done = asi(
        "run", "--provider", "scripted", "--model", str(script), "--output-format", "json", task, cwd=root
    )
    return json.loads(done.stdout.splitlines()[-1])


def _backed(end: dict) -> dict:
    return next(check for check in end["checks"] if check["name"] == "answer_backed")


def test_the_signature_line_alone_is_not_a_backed_answer(tmp_path: Path) -> None:
    end = _run(tmp_path, [{"tool_calls": [GREP]}, "calc.py:5: def subtract(a, b):\nAGENT_STATUS: DONE"])
    assert end["status"] == "DONE" and not end["verified"], end
    backed = _backed(end)
    assert not backed["ok"] and "only subtract's name and parameters" in backed["detail"], backed


def test_the_signature_alone_is_not_backed_even_when_the_body_was_read(tmp_path: Path) -> None:
    end = _run(tmp_path, [{"tool_calls": [READ]}, "`subtract(a, b)`\nAGENT_STATUS: DONE"])
    assert end["status"] == "DONE" and not end["verified"], end
    assert not _backed(end)["ok"]


def test_an_answer_stating_what_the_body_returns_is_backed(tmp_path: Path) -> None:
    end = _run(tmp_path, [{"tool_calls": [READ]}, "It returns `a - b`.\nAGENT_STATUS: DONE"])
    assert (end["status"], end["verified"]) == ("DONE", True), end
    assert _backed(end)["ok"]


def test_a_body_the_run_never_read_backs_nothing(tmp_path: Path) -> None:
    """The grep shows the def line only: "it returns a - b" is then a guess the results do not show."""
    end = _run(tmp_path, [{"tool_calls": [GREP]}, "It returns `a - b`.\nAGENT_STATUS: DONE"])
    assert end["status"] == "DONE" and not end["verified"], end


def test_the_planner_answers_from_the_body(tmp_path: Path) -> None:
    end = _run(tmp_path, [], planner=True)
    assert (end["status"], end["verified"], end["result"]) == ("DONE", True, "`subtract` returns `a - b`"), (
        end
    )
    assert [call["name"] for call in end["tool_calls"]] == ["read_file"]
