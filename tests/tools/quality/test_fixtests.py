"""fix_tests on a real temporary project with a failing test: scripted model edits, real pytest runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from calc_project import CALC, FIXED_SUB, calc_project

from asi_agent.backends.scripted import ScriptedBackend
from asi_agent.exceptions import ToolError
from asi_agent.toolrun import BackendModel
from asi_agent.tools.args import FixTestsArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.exec.junit import TestFailure
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.quality.fixtests import failures_from_results, fix_tests

GOOD_EDIT = """The bug is in sub.

calc.py
<<<<<<< SEARCH
def sub(a, b):
    return a + b
=======
def sub(a, b):
    return a - b
>>>>>>> REPLACE
"""


def _project(tmp_path: Path) -> Path:
    return calc_project(tmp_path / "proj")


def _ctx(root: Path, *replies: str) -> tuple[ToolContext, ScriptedBackend]:
    backend = ScriptedBackend(list(replies))
    ctx = ToolContext(root=root, journal=Journal(root / ".asi"), session_id="t", model=BackendModel(backend))
    return ctx, backend


async def test_a_correct_edit_makes_the_tests_green(tmp_path: Path) -> None:
    root = _project(tmp_path)
    ctx, backend = _ctx(root, GOOD_EDIT)
    out = await fix_tests(FixTestsArgs(), ctx)
    assert "return a - b" in (root / "calc.py").read_text(encoding="utf-8")
    lines = out.splitlines()
    assert lines[0] == "fix_tests: looked at 1 of 1 failing test(s); 1 edit(s) applied, 0 skipped."
    assert any(line.startswith("before: pytest: 1 passed, 1 failed") for line in lines)
    assert any(line.startswith("after: pytest: 2 passed, 0 failed") for line in lines)
    assert lines[-1] == "all tests pass now."
    prompt = backend.requests[0][0][-1].content
    # The model saw the failing test and the function it calls, found through the code index.
    assert "tests/test_calc.py lines 8-9 (the failing test test_sub)" in prompt
    assert "calc.py lines 5-6 (sub, called by it)" in prompt
    assert "assert 5 == 1" in prompt and "<<<<<<< SEARCH" in prompt
    assert [(e.path, e.kind) for e in ctx.journal.entries()] == [("calc.py", "modified")]


async def test_an_edit_whose_search_text_does_not_match_is_skipped_and_reported(tmp_path: Path) -> None:
    root = _project(tmp_path)
    reply = "calc.py\n<<<<<<< SEARCH\ndef subtract(a, b):\n=======\ndef sub(a, b):\n>>>>>>> REPLACE\n"
    ctx, _ = _ctx(root, reply)
    out = await fix_tests(FixTestsArgs(), ctx)
    assert (root / "calc.py").read_text(encoding="utf-8") == CALC
    assert "0 edit(s) applied, 1 skipped" in out
    assert "SKIPPED edit of calc.py: oldText was not found in calc.py" in out
    assert out.splitlines()[-1] == "nothing was changed, so the tests were not run again."
    assert ctx.journal.entries() == []


async def test_an_edit_that_would_break_the_syntax_is_skipped_by_the_edit_guard(tmp_path: Path) -> None:
    root = _project(tmp_path)
    reply = GOOD_EDIT.replace("def sub(a, b):\n    return a - b", "def sub(a, b)\n    return a - b")
    ctx, _ = _ctx(root, reply)
    out = await fix_tests(FixTestsArgs(), ctx)
    assert (root / "calc.py").read_text(encoding="utf-8") == CALC
    assert "0 edit(s) applied, 1 skipped" in out
    assert "SKIPPED edit of calc.py: edit refused: after this change calc.py would not parse (line 5: " in out
    assert ctx.guarded_edits == 1 and ctx.journal.entries() == []


async def test_given_results_are_used_and_an_edit_without_path_finds_its_file(tmp_path: Path) -> None:
    root = _project(tmp_path)
    broken = "```\n<<<<<<< SEARCH\n    return a + b\n\n\ndef sub\n=======\n```"
    fixed = "<<<<<<< SEARCH\ndef sub(a, b):  \n    return a  +  b\n=======\n" + FIXED_SUB + "\n```"
    ctx, backend = _ctx(root, broken + "\n" + fixed)
    results = {"failures": [{"test_id": "tests/test_calc.py::test_sub", "message": "assert 5 == 1"}]}
    out = await fix_tests(FixTestsArgs(testResults=results, autoRun=False), ctx)
    # The first block is cut off by the next one: skipped. The second, cut off by the end of the reply,
    # applies to the only shown file holding its SEARCH text, matched ignoring its extra spaces.
    assert (root / "calc.py").read_text(encoding="utf-8") == CALC.replace("a + b\n", "a - b\n").replace(
        "a - b\n", "a + b\n", 1
    )
    assert "1 edit(s) applied, 1 skipped" in out
    assert "SKIPPED edit of calc.py: the block has no >>>>>>> REPLACE line before the next block" in out
    assert "before: 1 failing test(s) in testResults" in out
    assert out.splitlines()[-1] == "autoRun is off: call run_tests to see the effect."
    assert "assert 5 == 1" in backend.requests[0][0][-1].content


async def test_needs_a_model_and_skips_the_model_when_nothing_fails(tmp_path: Path) -> None:
    root = _project(tmp_path)
    with pytest.raises(ToolError, match="needs a model"):
        await fix_tests(FixTestsArgs(), ToolContext(root=root, journal=Journal(root / ".asi")))
    fixed = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
    (root / "calc.py").write_text(fixed, encoding="utf-8")
    ctx, backend = _ctx(root)
    out = await fix_tests(FixTestsArgs(testFile="tests/test_calc.py"), ctx)
    assert out.startswith("Nothing to fix: pytest: 2 passed, 0 failed")
    assert backend.requests == []


def test_test_results_are_read_leniently() -> None:
    rendered = (
        "pytest: 1 passed, 1 failed\nFAILED tests/t.py::test_b (tests/t.py:7)\n  assert 1 == 2\nnote: x"
    )
    results = {
        "failed": [
            "tests/t.py::test_a",
            {"nodeid": "tests/t.py::test_c", "error": "boom", "location": "tests/t.py:12"},
            {"name": "ok one", "status": "passed"},
            42,
        ],
        "output": rendered,
    }
    assert failures_from_results(results) == [
        TestFailure("tests/t.py::test_a", ""),
        TestFailure("tests/t.py::test_c", "boom", "tests/t.py", 12),
        TestFailure("tests/t.py::test_b", "assert 1 == 2", "tests/t.py", 7),
    ]
    assert failures_from_results({"summary": "all good"}) == []
