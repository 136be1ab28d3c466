"""fix_tests: for each failing test, show the model the test and the code it calls, apply the
search/replace edits it answers with (exactly as replace_text would), re-run, and report before/after.

Edits go through replace_text, hence through `commit_change`: journaled and undoable. An edit whose
SEARCH text is not found (not even ignoring whitespace) or is ambiguous is skipped and reported.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import FixTestsArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.code.index import query as q
from asi_agent.tools.exec.junit import TestFailure
from asi_agent.tools.exec.testing import TestReport, render, run_test_suite
from asi_agent.tools.files.ops import read_existing
from asi_agent.tools.quality.modelio import (
    AppliedEdit,
    SearchReplace,
    apply_edit,
    index_query,
    parse_search_replace,
    require_model,
)

__all__ = ["failures_from_results", "fix_tests"]

MAX_FAILURES = 5
"""Failures handled per call: each costs one model request."""
_SNIPPET_LINES = 60
_CALLEES = 4
_AROUND = 12
_ID_KEYS = ("test_id", "testId", "id", "nodeid", "nodeId", "name", "test", "title")
_MESSAGE_KEYS = ("message", "error", "msg", "failure", "traceback", "longrepr", "details")
_FILE_KEYS = ("file", "path", "filePath", "filename", "location")
_LINE_KEYS = ("line", "lineno", "lineNumber")
_LIST_KEYS = ("failures", "failed", "errors", "failedTests", "tests", "results")
_PASSING = frozenset({"passed", "pass", "ok", "success", "skipped", "skip", "pending"})
_FAILED_LINE = re.compile(r"^FAILED (\S+)(?: \(([^()]+?)(?::(\d+))?\))?\s*$")
_SYSTEM = "You fix failing tests by proposing minimal, exact search/replace edits."
_FORMAT = """Reply with one or more edits in exactly this format (the file path alone on the line above):

path/to/file.py
<<<<<<< SEARCH
lines copied exactly from the file, enough to be unique
=======
the new lines
>>>>>>> REPLACE"""


@dataclass(frozen=True, slots=True)
class _Snippet:
    """Lines of a project file shown to the model."""

    path: str
    start: int
    end: int
    title: str
    text: str


async def fix_tests(args: FixTestsArgs, ctx: ToolContext) -> str:
    """Ask the model for a fix of each failing test (at most MAX_FAILURES), apply it, re-run, report."""
    model = require_model(ctx, "fix_tests")
    before: TestReport | None = None
    if args.testResults:
        failures = failures_from_results(args.testResults)
    else:
        before = await run_test_suite(ctx, test_file=args.testFile)
        if before.timed_out or not before.structured:
            raise ToolError(
                f"the tests did not run to the end, so there is nothing to fix yet:\n{render(before)}"
            )
        failures = before.failures
    failures = _in_file(failures, args.testFile)
    if not failures:
        summary = before.summary() if before else "the given testResults list no failure"
        return f"Nothing to fix: {summary}."
    outcomes: list[AppliedEdit] = []
    silent: list[str] = []
    for failure in failures[:MAX_FAILURES]:
        snippets = await _context(ctx, failure)
        reply = await model.ask(_prompt(failure, snippets), system=_SYSTEM)
        edits = parse_search_replace(reply)
        if not edits:
            silent.append(failure.test_id)
        for edit in edits:
            outcomes.append(await apply_edit(ctx, _with_path(ctx, edit, snippets)))
    lines = _edits_report(failures, outcomes, silent)
    lines += await _rerun_report(ctx, args, before, len(failures), changed=any(o.applied for o in outcomes))
    return "\n".join(lines)


def failures_from_results(results: Mapping[str, Any]) -> list[TestFailure]:
    """Failures from a testResults object, read leniently.

    Accepted: `{"failures": [{"test_id", "message", "file", "line"}, ...]}` (also `failed`, `errors`,
    `tests`, `results`; ids as `testId`, `nodeid`, `name`; entries with a passing `status` are dropped;
    plain strings are ids), or the text run_tests prints (its `FAILED id (file:line)` lines).
    """
    found: list[TestFailure] = []
    for key in _LIST_KEYS:
        items = results.get(key)
        if isinstance(items, list):
            found += [f for f in (_failure_of(item) for item in items) if f is not None]
    for value in results.values():
        if isinstance(value, str):
            found += _failures_in_text(value)
    return list({failure.test_id: failure for failure in found}.values())


def _failure_of(item: object) -> TestFailure | None:
    """One entry of a failures list, or None when it is not a failure."""
    if isinstance(item, str):
        return TestFailure(item.strip(), "") if item.strip() else None
    if not isinstance(item, Mapping):
        return None
    status = str(item.get("status") or item.get("outcome") or "").lower()
    if status in _PASSING:
        return None
    test_id = _first(item, _ID_KEYS)
    if not test_id:
        return None
    file = _first(item, _FILE_KEYS)
    line_text = _first(item, _LINE_KEYS)
    if file and ":" in file and not line_text:
        file, _, line_text = file.partition(":")
    line = int(line_text) if line_text.isdigit() else None
    return TestFailure(test_id, _first(item, _MESSAGE_KEYS), file or None, line)


def _first(item: Mapping[str, Any], keys: tuple[str, ...]) -> str:
    """The first of `keys` holding a value, as text ("" when none does)."""
    for key in keys:
        value = item.get(key)
        if value is not None and str(value).strip():
            return str(value).strip()
    return ""


def _failures_in_text(text: str) -> list[TestFailure]:
    """The failures of a rendered run_tests report: `FAILED id (file:line)` and its indented message."""
    found: list[TestFailure] = []
    lines = text.splitlines()
    for index, line in enumerate(lines):
        match = _FAILED_LINE.match(line.strip())
        if match is None:
            continue
        message: list[str] = []
        for following in lines[index + 1 :]:
            if not following.startswith("  "):
                break
            message.append(following.strip())
        line_number = int(match[3]) if match[3] else None
        found.append(TestFailure(match[1], "\n".join(message), match[2], line_number))
    return found


def _in_file(failures: list[TestFailure], test_file: str | None) -> list[TestFailure]:
    """The failures of `test_file` when it is given and any match it; all of them otherwise."""
    if not test_file or not test_file.strip():
        return failures
    wanted = test_file.strip().removeprefix("./")
    kept = [f for f in failures if wanted in (f.file or "") or f.test_id.startswith(wanted)]
    return kept or failures


async def _context(ctx: ToolContext, failure: TestFailure) -> list[_Snippet]:
    """The failing test's code and the project functions it calls (from the code index)."""
    rel = _test_file(failure)
    if rel is None or not ctx.resolve(rel, write=False).is_file():
        return []
    name = re.sub(r"\[.*\]$", "", failure.test_id.split("::")[-1]).split(".")[-1].strip()
    found = await index_query(ctx, lambda conn: _locate(conn, rel, name, failure.line))
    if found is None:
        line = failure.line or 1
        return [_snippet(ctx, rel, max(1, line - _AROUND), line + _AROUND, "around the failure")]
    test, callees = found
    snippets = [_snippet(ctx, rel, test.start, test.end, f"the failing test {test.qualname}")]
    for callee in callees:
        snippets.append(
            _snippet(ctx, callee.path, callee.start, callee.end, f"{callee.qualname}, called by it")
        )
    return snippets


def _test_file(failure: TestFailure) -> str | None:
    """The project-relative test file of a failure."""
    if failure.file:
        return failure.file
    head = failure.test_id.split("::")[0]
    return head if "::" in failure.test_id and "." in head else None


def _locate(
    conn: sqlite3.Connection, rel: str, name: str, line: int | None
) -> tuple[q.SymbolRow, list[q.SymbolRow]] | None:
    """The test's definition and the definitions (outside it) of what it calls."""
    kinds = ("function", "method")
    matches = q.find_symbols(conn, q.Scope(file=rel), match="exact", value=name, kinds=kinds)
    test = matches[0] if matches else None
    if test is None and line is not None:
        test = q.enclosing_symbol(conn, rel, line, kinds)
    if test is None:
        return None
    callees: list[q.SymbolRow] = []
    for _ref, targets in q.callees_in(conn, rel, test.start, test.end):
        target = targets[0]
        if target != test and target.kind != "class" and len(callees) < _CALLEES:
            callees.append(target)
    return test, callees


def _snippet(ctx: ToolContext, rel: str, start: int, end: int, title: str) -> _Snippet:
    """Lines start..end of a file (bounded), as they are on disk now."""
    lines = read_existing(ctx, ctx.resolve(rel, write=False)).lines
    end = min(end, len(lines), start + _SNIPPET_LINES - 1)
    return _Snippet(rel, start, end, title, "\n".join(lines[start - 1 : end]))


def _prompt(failure: TestFailure, snippets: list[_Snippet]) -> str:
    """The request for one failure: what failed, where, the code involved, and the edit format."""
    where = f" at {failure.file}:{failure.line}" if failure.file and failure.line else ""
    parts = [f"The test {failure.test_id} fails{where}:\n```\n{failure.message or '(no message)'}\n```"]
    for snippet in snippets:
        parts.append(
            f"{snippet.path} lines {snippet.start}-{snippet.end} ({snippet.title}):\n```\n{snippet.text}\n```"
        )
    parts.append(
        "Fix the cause of the failure with the smallest change. Usually the code under test is wrong; "
        "change the test only if its expectation is clearly wrong. Keep the indentation.\n" + _FORMAT
    )
    return "\n\n".join(parts)


def _with_path(ctx: ToolContext, edit: SearchReplace, snippets: list[_Snippet]) -> SearchReplace:
    """An edit without a path gets the one shown file whose text holds its SEARCH part."""
    if edit.path is not None or not edit.search.strip():
        return edit
    wanted = " ".join(edit.search.split())
    holders = []
    for rel in dict.fromkeys(snippet.path for snippet in snippets):
        text = read_existing(ctx, ctx.resolve(rel, write=False)).text
        if wanted in " ".join(text.split()):
            holders.append(rel)
    return replace(edit, path=holders[0]) if len(holders) == 1 else edit


def _edits_report(failures: list[TestFailure], outcomes: list[AppliedEdit], silent: list[str]) -> list[str]:
    """What was asked and what became of every proposed edit."""
    handled = min(len(failures), MAX_FAILURES)
    applied = sum(outcome.applied for outcome in outcomes)
    lines = [
        f"fix_tests: looked at {handled} of {len(failures)} failing test(s); "
        f"{applied} edit(s) applied, {len(outcomes) - applied} skipped."
    ]
    for outcome in outcomes:
        label = "applied" if outcome.applied else f"SKIPPED edit of {outcome.edit.path or '(no path)'}"
        lines.append(f"{label}: {outcome.detail}")
    lines.extend(f"the model proposed no edit for {test_id}" for test_id in silent)
    return lines


async def _rerun_report(
    ctx: ToolContext, args: FixTestsArgs, before: TestReport | None, failing: int, *, changed: bool
) -> list[str]:
    """Before/after counts (re-running when asked and something changed) and what still fails."""
    lines = [f"before: {before.summary() if before else f'{failing} failing test(s) in testResults'}"]
    if not changed:
        return [*lines, "nothing was changed, so the tests were not run again."]
    if not args.autoRun:
        return [*lines, "autoRun is off: call run_tests to see the effect."]
    after = await run_test_suite(ctx, test_file=args.testFile)
    lines.append(f"after: {after.summary()}")
    if after.ok:
        return [*lines, "all tests pass now."]
    remaining = [f"  {f.test_id} ({f.file}:{f.line})" if f.line else f"  {f.test_id}" for f in after.failures]
    return [*lines, "still failing:", *remaining] if remaining else [*lines, render(after)]
