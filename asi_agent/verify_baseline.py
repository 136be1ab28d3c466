"""The tests before the change: a baseline, so that failures already there are not blamed on the run.

Right before the run's first change of a source file through the edit tools, the runtime runs the project's
tests once on the unchanged tree (the whole suite, with the same plan as its own test run after the edit,
through the same gate, policy and sandbox) and keeps which tests failed. Taken then, and not lazily when the
test run after the edit fails, because only then is the tree the run found still there to test: rebuilding
it afterwards would mean undoing and redoing the run's changes on disk, and what its commands changed
cannot be undone. A run that edits nothing pays nothing.

When the policy would ask before the test run and nobody can answer (a headless run) and no `PreToolUse`
hook could answer for them, no baseline is taken and nothing is refused: the run goes on as without one.
With a baseline, `tests_pass` holds when every test failing after the change failed before it as well, nothing
failed newly, and no test the request is about (a test it names; for "fix the failing test", the failures it
points at, else all of them) still fails.
A suite that failed both times without naming its failures cannot be compared: the check says so and fails.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from asi_agent.events import AgentEvent, Baseline, Check, ToolFinished
from asi_agent.exceptions import ModelFixableError
from asi_agent.gate import Gate
from asi_agent.messages import ToolCall
from asi_agent.toolrun import Outcome, Prepared, ToolRunner
from asi_agent.tools.exec.testcmd import SOURCE_SUFFIXES, TestPlan, TestRun, named
from asi_agent.verify_tests import OwnRun, own_test_run

__all__ = [
    "after_check", "agent_baseline", "compared", "take_baseline", "targeted", "whole_suite", "writes_source",
]  # fmt: skip

_NOT_SOURCE_WRITES = frozenset(("save_memory", "moss_update_asi_user_prompt"))
"""Write-class tools without a `path` that write the person's notes, never the project's sources."""
_TEST_NAMED = re.compile(r"\b(test_\w+|Test[A-Z]\w*)\b")
_FIX_VERB = re.compile(r"\b(?:fix|repair|correct)\b|修复|修好|修一下|改好", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z_]\w+")
_SHOWN = 10
_REPORT_HEAD = re.compile(
    r"^[\w .-]+: (?P<passed>\d+) passed, (?P<failed>\d+) failed(?:, (?P<errors>\d+) errors?)?, "
)
"""The first line of a `run_tests` report that has results (`tools.exec.testing.TestReport.summary`)."""
_REPORT_FAILED = re.compile(r"^FAILED (?P<id>.+?)(?: \([^()]*\))?$")
"""A failure's line in that report: its id, then where it failed."""
_COMMON = frozenset(
    ("the", "in", "on", "of", "to", "and", "or", "an", "is", "it", "fix", "make", "test", "tests")
)
"""Words of a request that name no function or file."""


def writes_source(item: Prepared | Outcome) -> bool:
    """Whether a call about to run may change a source file through the edit tools."""
    if not isinstance(item, Prepared) or item.spec.risk != "write":
        return False
    path = getattr(item.args, "path", None)
    if isinstance(path, str):
        return PurePosixPath(path).suffix in SOURCE_SUFFIXES
    return item.spec.name not in _NOT_SOURCE_WRITES


async def take_baseline(
    plan: TestPlan, gate: Gate, runner: ToolRunner, timeout: float
) -> AsyncIterator[AgentEvent | Baseline]:
    """Run the whole suite of `plan` before the change (see the module docstring); yields the call's events,
    then the `Baseline`."""
    plan = replace(plan, affected=())
    try:
        prepared = runner.prepare(ToolCall("baseline", plan.tool, plan.arguments))
    except ModelFixableError as exc:  # the tool is not in this registry (a narrowed tool set)
        yield Baseline(plan.label, taken=False, reason=str(exc))
        return
    if gate.cannot_ask(prepared):
        yield Baseline(plan.label, taken=False, reason="the policy asks before running the tests, and nobody "
                       "can answer (no terminal)")  # fmt: skip
        return
    async for item in own_test_run(plan, gate, runner, timeout):
        if not isinstance(item, OwnRun):
            yield item
        elif item.run is None:
            yield Baseline(plan.label, taken=False, reason=f"not allowed: {item.not_run}")
        else:
            gate.forget(prepared)  # the model may run the same tests itself: not a repetition of this
            yield _baseline(plan.label, item.run)


def whole_suite(event: ToolFinished) -> bool:
    """Whether a finished call was the agent's run of the whole suite `run_tests` knows."""
    arguments = event.call.arguments
    return event.call.name == "run_tests" and not (arguments.get("testFile") or arguments.get("testPattern"))


def agent_baseline(label: str, event: ToolFinished) -> Baseline | None:
    """The agent's own run of the whole suite, made right before the change, as the baseline (no second
    run of the same tests on the same tree); None when its report cannot serve (it broke, timed out, found
    no tests)."""
    lines = event.output.splitlines()
    head = _REPORT_HEAD.match(lines[0]) if event.ok and lines else None
    if head is None or int(head["passed"]) + int(head["failed"]) + int(head["errors"] or 0) == 0:
        return None
    failed = int(head["failed"]) + int(head["errors"] or 0)
    ids = tuple(dict.fromkeys(found["id"] for line in lines if (found := _REPORT_FAILED.match(line))))
    return Baseline(label, True, failed == 0, ids, len(ids) == failed, lines[0], by_agent=True)


def _baseline(label: str, run: TestRun) -> Baseline:
    if run.empty:
        return Baseline(label, taken=False, reason="no tests were collected")
    return Baseline(label, True, run.passed, run.failing, run.per_test, run.summary)


def compared(baseline: Baseline, run: TestRun) -> Baseline:
    """The baseline, with which of its failures failed in the test run after the change as well."""
    return replace(baseline, still_failing=tuple(test for test in baseline.failing if test in run.failing))


def after_check(run: TestRun, baseline: Baseline | None, task: str) -> Check:
    """The `tests_pass` check of the runtime's test run after the change, against the baseline."""
    head = f"the runtime ran the tests after the last edit: {run.summary}"
    if run.passed:
        return Check("tests_pass", True, head)
    failing = f"; failing: {named(run)}" if run.failing else ""
    if baseline is None or not baseline.taken or baseline.passed:
        before = "" if baseline is None else _before(baseline)
        return Check("tests_pass", False, f"{head}{failing}{before}")
    if not (baseline.per_test and run.per_test and run.failing):
        detail = (
            f"{head}{failing}; the tests failed before the change as well ({baseline.summary}), but without "
            "a result per test the runtime cannot tell whether the change broke anything more"
        )
        return Check("tests_pass", False, detail)
    new = [test for test in run.failing if test not in baseline.failing]
    old = [test for test in run.failing if test in baseline.failing]
    if new:
        also = f"; failed before the change as well: {_names(old)}" if old else ""
        return Check("tests_pass", False, f"{head}; newly failing: {_names(new)}{also}")
    still = [test for test in old if test in targeted(task, baseline.failing)]
    if still:
        verb = "was" if len(still) == 1 else "were"
        detail = f"{head}; {_names(still)} {verb} to be fixed and still fail{'s' if len(still) == 1 else ''}"
        return Check("tests_pass", False, detail)
    count = f"{len(old)} test{'s' if len(old) != 1 else ''}"
    return Check("tests_pass", True, f"{count} failed before the change as well: {_names(old)}; {head}")


def _before(baseline: Baseline) -> str:
    if not baseline.taken:
        return f"; no baseline before the change ({baseline.reason})"
    return "; the tests passed before the change"


def targeted(task: str, failing: Sequence[str]) -> list[str]:
    """The failures a request is about, which a failure before the change does not excuse: the tests it
    names; for a request to fix a failure (`grounding.repair`), the ones its words point at (a test of a
    function or file it names), else all of them; for another request to fix something, the ones its
    words point at; none for other requests."""
    from asi_agent.grounding.repair import asks_to_fix_failure  # noqa: PLC0415  (only when a run ends)

    names = set(_TEST_NAMED.findall(task))
    if names:
        return [test for test in failing if names & set(_WORD.findall(test))]
    words = {word.lower() for word in _WORD.findall(task)} - _COMMON
    # a test of a function the request names first (`test_sub` for "fix sub"), else of a file it names
    related = [test for test in failing if _about(test, words, files=False)]
    related = related or [test for test in failing if _about(test, words, files=True)]
    if asks_to_fix_failure(task):
        return related or list(failing)
    return related if _FIX_VERB.search(task) else []


def _about(test: str, words: set[str], *, files: bool) -> bool:
    """Whether a test id is about one of the words: by its function (`test_sub`, `test_sub_zero`,
    `TestSub` for `sub`), or by its file (`tests/test_calc.py` for `calc`)."""
    where, sep, function = test.partition("::")
    if files:
        parts = _WORD.findall(PurePosixPath(where).stem) if sep else []
    else:
        parts = _WORD.findall(function if sep else test)
    for part in parts:
        stem = _tested(part)
        if stem and (stem in words or any(stem.startswith(f"{word}_") for word in words)):
            return True
    return False


def _tested(part: str) -> str:
    """What a test's or test file's name says it tests: `test_sub` → `sub`, `calc_test` → `calc`,
    `TestSub` → `sub`; empty for other names."""
    if part.startswith("test_"):
        return part[5:].lower()
    if part.endswith("_test"):
        return part[:-5].lower()
    return part[4:].lower() if re.fullmatch(r"Test[A-Z]\w*", part) else ""


def _names(tests: Sequence[str]) -> str:
    more = f" and {len(tests) - _SHOWN} more" if len(tests) > _SHOWN else ""
    return ", ".join(tests[:_SHOWN]) + more
