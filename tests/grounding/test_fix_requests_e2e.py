"""Requests a new user types about a failing test or a docstring, through the real `asi-agent run` with the
planner (grounding) the embedded model gets, on the scripted backend: the planner's steps leave one possible
reply each, so the script needs no reply of its own; the runtime's own test run decides `verified`."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from asi_agent.backends.local import find_embedded_model
from tests.asi_cli import asi

CALC = (
    "def add(a, b):\n    return a + b\n\n\n"
    "def subtract(a, b):\n    return a + b\n\n\n"
    "def average(xs):\n    return sum(xs) / len(xs)\n"
)
TESTS = (
    "from calc import add, subtract\n\n\n"
    "def test_add():\n    assert add(2, 3) == 5\n\n\n"
    "def test_subtract():\n    assert subtract(5, 3) == 2\n"
)
FIXED = CALC.replace("def subtract(a, b):\n    return a + b", "def subtract(a, b):\n    return a - b")


def _project(root: Path, calc: str = CALC) -> Path:
    """A project like the README's example: calc.py and its tests, one of them failing, in git."""
    (root / "tests").mkdir()
    (root / "calc.py").write_text(calc)
    (root / "tests" / "test_calc.py").write_text(TESTS)
    (root / "s.json").write_text(json.dumps({"native": True, "planner": True, "replies": []}))
    subprocess.run(["git", "init", "-q", "."], cwd=root, check=True)
    return root


def _run(root: Path, task: str) -> dict:
    done = asi(
        "run",
        "--provider",
        "scripted",
        "--model",
        "s.json",
        "--yes",
        "--output-format",
        "json",
        task,
        cwd=root,
    )
    return {"code": done.returncode, **json.loads(done.stdout.splitlines()[-1])}


def _check(end: dict, name: str) -> dict:
    return next(check for check in end["checks"] if check["name"] == name)


@pytest.mark.parametrize(
    "task",
    [
        "Fix the failing test in calc.py",
        "test_subtract fails; fix subtract",
        "subtract should return a - b",
        "subtract should return a - b.",
        "subtract() should return a - b, not a + b",
        "The subtract function should return `a - b`",
        "run the tests and fix whatever is failing",
    ],
)
def test_a_failing_test_is_fixed_and_the_runtime_runs_the_tests(tmp_path: Path, task: str) -> None:
    root = _project(tmp_path)
    end = _run(root, task)
    assert (end["code"], end["status"], end["verified"]) == (0, "DONE", True), end
    assert (root / "calc.py").read_text() == FIXED
    tests = _check(end, "tests_pass")
    assert tests["ok"] and "2 passed, 0 failed" in tests["detail"], tests
    assert end["tool_calls"][-1]["name"] == "run_tests"  # the runtime's own run, after the edit


def test_the_operator_the_assertions_settle_is_the_fix_not_the_name(tmp_path: Path) -> None:
    """`add` asserted as `add(2, 3) == 6`: the tests want a product, whatever the name says."""
    root = _project(tmp_path)
    (root / "tests" / "test_calc.py").write_text(
        "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 6\n    assert add(4, 5) == 20\n"
    )
    end = _run(root, "Fix the failing test in calc.py")
    assert end["status"] == "DONE" and end["verified"], end
    assert "def add(a, b):\n    return a * b\n" in (root / "calc.py").read_text()


def test_assertions_that_settle_nothing_leave_the_file_alone_and_stop(tmp_path: Path) -> None:
    """`subtract(2, 2) == 0`… and `== 4`: no operator makes both hold, so no edit is invented."""
    root = _project(tmp_path)
    (root / "tests" / "test_calc.py").write_text(
        "from calc import subtract\n\n\n"
        "def test_subtract():\n    assert subtract(2, 2) == 0\n    assert subtract(2, 2) == 4\n"
    )
    stop = {"native": True, "planner": True, "replies": ["No change fits both.\nAGENT_STATUS: STOP"]}
    (root / "s.json").write_text(json.dumps(stop))  # no planned step: the turn goes to the model
    end = _run(root, "Fix the failing test in calc.py")
    assert (end["code"], end["status"], end["verified"]) == (2, "STOP", False), end
    assert end["tool_calls"] == []
    assert (root / "calc.py").read_text() == CALC


def test_a_docstring_whose_text_is_quoted_is_inserted_under_the_def(tmp_path: Path) -> None:
    root = _project(tmp_path, FIXED)
    end = _run(root, 'Add the docstring "Return the mean of xs." to average')
    assert (end["code"], end["status"], end["verified"]) == (0, "DONE", True), end
    expected = FIXED.replace("def average(xs):\n", 'def average(xs):\n    """Return the mean of xs."""\n')
    assert (root / "calc.py").read_text() == expected


def test_a_docstring_quoted_for_a_method_keeps_the_method_indentation(tmp_path: Path) -> None:
    root = _project(
        tmp_path, FIXED + "\n\nclass Stats:\n    def mean(self, xs):\n        return average(xs)\n"
    )
    end = _run(root, "put 'The mean of xs.' as the docstring of mean")
    assert end["status"] == "DONE" and end["verified"], end
    assert (
        '    def mean(self, xs):\n        """The mean of xs."""\n        return'
        in (root / "calc.py").read_text()
    )


def test_a_docstring_without_text_is_the_models_sentence_framed_under_the_def(tmp_path: Path) -> None:
    """'Add a docstring to average' states no text: the planner leaves the words to the model (here a
    scripted one) and puts the quotes and indentation around them; it invents none itself."""
    root = _project(tmp_path, FIXED)
    call = {
        "name": "insert_line",
        "arguments": {"path": "calc.py", "line": 10, "text": "Return the mean of xs."},
    }
    script = {"native": True, "planner": True, "replies": [{"text": "", "tool_calls": [call]}]}
    (root / "s.json").write_text(json.dumps(script))
    end = _run(root, "Add a docstring to average")
    assert (end["code"], end["status"], end["verified"]) == (0, "DONE", True), end
    assert (
        'def average(xs):\n    """Return the mean of xs."""\n    return sum' in (root / "calc.py").read_text()
    )
    (transcript,) = (root / ".asi" / "sessions").glob("*.jsonl")
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    replies = [
        r["message"] for r in records if r["type"] == "message" and r["message"]["role"] == "assistant"
    ]
    framed = next(m for m in replies if m.get("tool_calls"))
    assert framed["tool_calls"][0]["arguments"]["text"] == '    """Return the mean of xs."""'
    assert framed["origin"] == "runtime"  # the runtime framed the model's words: never a training target


@pytest.mark.slow
@pytest.mark.skipif(find_embedded_model() is None, reason="the embedded model is not installed")
def test_the_embedded_model_writes_a_docstring_it_was_given_no_text_for(tmp_path: Path) -> None:
    root = _project(tmp_path, FIXED)
    done = asi(
        "run",
        "--provider",
        "local",
        "--yes",
        "--output-format",
        "json",
        "Add a docstring to average",
        cwd=root,
    )
    end = json.loads(done.stdout.splitlines()[-1])
    assert end["status"] == "DONE" and end["usage"]["completion_tokens"] > 0, end  # decoded, not planned
    lines = (root / "calc.py").read_text().splitlines()
    docstring = lines[lines.index("def average(xs):") + 1]
    assert re.fullmatch(r'    """[A-Z][a-z]+( [a-z_]+)+\."""', docstring), docstring
    assert docstring != '    """Average."""'  # the name-derived text the planner once invented


@pytest.mark.slow
@pytest.mark.skipif(find_embedded_model() is None, reason="the embedded model is not installed")
@pytest.mark.parametrize(
    "task",
    ["Fix the failing test in calc.py", "subtract should return a - b", "test_subtract fails; fix subtract"],
)
def test_the_embedded_default_fixes_the_readme_example(tmp_path: Path, task: str) -> None:
    root = _project(tmp_path)
    done = asi("run", "--provider", "local", "--yes", "--output-format", "json", task, cwd=root)
    end = json.loads(done.stdout.splitlines()[-1])
    assert (done.returncode, end["status"], end["verified"]) == (0, "DONE", True), end
    assert (root / "calc.py").read_text() == FIXED
