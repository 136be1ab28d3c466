"""The progress bar and the tables of `asi-agent eval`."""

from __future__ import annotations

import io
import re

from asi_agent.eval.metrics import summarize
from asi_agent.eval.report import Progress, compare_table, results_table


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _result(
    task_id: str, passed: bool, calls: int = 2, ok: int = 2, violations: int = 0, verified: bool = True
) -> dict:
    return {
        "id": task_id,
        "repeat": 0,
        "passed": passed and verified,
        "verifier_passed": passed,
        "status": "DONE",
        "verified": verified,
        "calls": calls,
        "calls_ok": ok,
        "legal_before": calls,
        "legal_after": calls,
        "violations": violations,
        "turns": 3,
        "prompt_tokens": 100,
        "completion_tokens": 10,
        "seconds": 1.5,
    }


def test_progress_bar_draws_on_a_terminal_only():
    screen = Terminal()
    bar = Progress(2, screen)
    bar.advance(_result("a", True))
    bar.advance(_result("b", False))
    assert "1/2  passed 1" in screen.getvalue() and "2/2  passed 1" in screen.getvalue()
    assert screen.getvalue().endswith("\n")
    pipe = io.StringIO()
    quiet = Progress(1, pipe)
    quiet.advance(_result("a", True))
    assert pipe.getvalue() == "" and len(quiet.results) == 1


def test_table_and_compare():
    a = [_result("a", True), _result("b", True)]
    b = [_result("a", True), _result("b", False, ok=1, violations=1)]
    run_a = {"model": "m1", "tasks": a, "metrics": summarize(a)}
    run_b = {"model": "m2", "tasks": b, "metrics": summarize(b)}
    table = results_table(run_b)
    assert "b  " in table and "fail" in table and "50.0%" in table
    diff = compare_table(run_a, run_b, ("A", "B"))
    assert "-50.0 pt" in diff  # completion 100% → 50%
    assert "b     PASS  fail  2 → 1     0 → 1" in diff
    same = compare_table(run_a, run_a, ("A", "A2"))
    assert "every task has the same verdict" in same


def test_an_unverified_done_is_counted_and_shown_apart():
    results = [_result("a", True), _result("b", True, calls=0, ok=0, verified=False), _result("c", False)]
    results[2]["status"] = "STOP"  # not DONE at all: failed, but no unverified DONE
    results[2]["verified"] = False
    answer = _result("d", True, calls=0, ok=0, verified=False)  # a plain answer: its unverified DONE is due
    results.append({**answer, "passed": True, "expect": "answer"})
    metrics = summarize(results)
    assert (metrics["runs"], metrics["passed"], metrics["unverified_done"]) == (4, 2, 1)
    assert metrics["task_completion_rate"] == 0.5
    table = results_table({"model": "m", "tasks": results, "metrics": metrics})
    cells = [re.split(r"\s{2,}", line)[:4] for line in table.splitlines()[1:5]]
    assert cells == [
        ["a", "PASS", "DONE", "verified"],  # a result with no `expect` expected a verified DONE
        ["b", "fail", "DONE (unverified)", "verified"],
        ["c", "fail", "STOP", "verified"],
        ["d", "PASS", "DONE (unverified)", "answer"],
    ]
    assert "passed: 2   unverified DONE: 1" in table
    assert re.search(r"^  runs ended DONE unverified, verified expected\s+1$", table, re.MULTILINE)
