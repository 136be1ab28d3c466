"""Reading the machine-readable results of test runners: JUnit XML, jest and mocha JSON, `go test -json`.

Every parser returns `ParsedResults`: counts plus one `TestFailure` per failed or broken test, with the
place in the project where it failed when the runner's text names one. `cargo test` has no stable
machine-readable format, so its summary lines are read instead.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "ParsedResults",
    "ResultsFormatError",
    "TestFailure",
    "locate",
    "parse_cargo_output",
    "parse_go_json",
    "parse_jest_json",
    "parse_junit_xml",
    "parse_mocha_json",
    "parse_unittest_json",
    "short_message",
]

_MESSAGE_LINES = 6
_MESSAGE_CHARS = 600
# pytest ends a failure with "path.py:LINE: ExceptionName"; the last such line is where it failed.
_PYTEST_WHERE = re.compile(r"^([^\s:]+\.py):(\d+): ", re.MULTILINE)
_PYTEST_RAISED = re.compile(r"^E +(\w+(?:Error|Exception)\b.*)$", re.MULTILINE)
_PY_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_JS_FRAME = re.compile(r"(?:\(|\bat |^|\s)((?:file://)?[^\s():]+\.(?:[cm]?[jt]sx?|go|rs)):(\d+)(?::\d+)?")
# Names of the outermost suites runners add on their own; they say nothing about the test.
_ROOT_SUITES = frozenset({"", "pytest", "root"})


class ResultsFormatError(ValueError):
    """A results file that is not in the format its runner documents."""


@dataclass(frozen=True, slots=True)
class TestFailure:
    """One failed or broken test: its id, the first lines of its message, and where it failed."""

    __test__ = False  # not a pytest test class, despite its name

    test_id: str
    message: str
    file: str | None = None
    line: int | None = None


@dataclass(slots=True)
class ParsedResults:
    """Counts and failures read from one results file."""

    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    failures: list[TestFailure] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Every test seen, whatever its outcome."""
        return self.passed + self.failed + self.errors + self.skipped


def short_message(text: str) -> str:
    """The first non-empty lines of a message, bounded."""
    lines = [line.rstrip() for line in text.strip().splitlines() if line.strip()]
    kept = "\n".join(lines[:_MESSAGE_LINES])
    return kept if len(kept) <= _MESSAGE_CHARS else kept[:_MESSAGE_CHARS] + "…"


def locate(text: str, root: Path) -> tuple[str | None, int | None]:
    """The project file and line a failure text points at: pytest's own line, else the innermost frame."""
    # pytest's "path:line: Error" lines and Python tracebacks list the innermost frame last.
    frames = [(p, int(n)) for p, n in _PYTEST_WHERE.findall(text)][::-1]
    frames += [(p, int(n)) for p, n in _PY_FRAME.findall(text)][::-1]
    frames += [(p.removeprefix("file://"), int(n)) for p, n in _JS_FRAME.findall(text)]
    for path, line in frames:
        rel = _relative(path, root)
        if rel is not None and "node_modules/" not in rel and "site-packages/" not in rel:
            return rel, line
    return None, None


def _relative(path: str, root: Path) -> str | None:
    """`path` relative to the project root; None when it lies outside (libraries, runtimes)."""
    if path.startswith("node:"):
        return None
    candidate = Path(path)
    if not candidate.is_absolute():
        return candidate.as_posix()
    for base in (root, root.resolve()):
        if candidate.is_relative_to(base):
            return candidate.relative_to(base).as_posix()
    return None


def parse_junit_xml(data: bytes | str, *, root: Path) -> ParsedResults:
    """Results from a JUnit XML report (pytest, node --test, vitest, jest-junit)."""
    try:
        top = ET.fromstring(data)
    except ET.ParseError as exc:
        raise ResultsFormatError(f"not a JUnit XML report: {exc}") from exc
    results = ParsedResults()
    _walk_suite(top, [], results, root)
    return results


def _walk_suite(element: ET.Element, suites: list[str], results: ParsedResults, root: Path) -> None:
    """Count the test cases under `element`, remembering the names of the enclosing suites."""
    for child in element:
        if child.tag in ("testsuite", "testsuites"):
            name = child.get("name", "")
            inner = suites if name in _ROOT_SUITES and not suites else [*suites, name]
            _walk_suite(child, inner, results, root)
        elif child.tag == "testcase":
            _add_case(child, suites, results, root)


def _add_case(case: ET.Element, suites: list[str], results: ParsedResults, root: Path) -> None:
    """Count one test case, and record it when it failed or errored."""
    problem = case.find("failure")
    kind = "failed"
    if problem is None:
        problem, kind = case.find("error"), "error"
    if problem is None:
        if case.find("skipped") is not None:
            results.skipped += 1
        else:
            results.passed += 1
        return
    if kind == "failed":
        results.failed += 1
    else:
        results.errors += 1
    text = problem.text or ""
    file, line = locate(text, root)
    if file is None and case.get("file"):
        # pytest's xunit1 `line` is 0-based: the line of the test's `def`.
        file, line = case.get("file"), (int(case.get("line", "-1")) + 1) or None
    message = problem.get("message") or text
    if problem.tag == "error" and (raised := _PYTEST_RAISED.findall(text)):
        message = raised[-1]  # pytest's generic "collection failure" hides the real exception
    results.failures.append(TestFailure(_case_id(case, suites), short_message(message), file, line))


def _case_id(case: ET.Element, suites: list[str]) -> str:
    """pytest's node id when the report has files (xunit1), else the suite path and the test name."""
    name = case.get("name", "?")
    file, classname = case.get("file"), case.get("classname", "")
    if file and file.endswith(".py"):
        module = file[:-3].replace("/", ".")
        inner = classname[len(module) + 1 :] if classname.startswith(module + ".") else ""
        if name == module:  # a module that failed to import
            return file
        return "::".join([file, *filter(None, inner.split(".")), name])
    return " > ".join([*suites, name])


def _load_json(data: bytes | str, what: str) -> Any:
    """Parse a JSON report, or say which runner's format it is not."""
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:
        raise ResultsFormatError(f"not a {what} JSON report: {exc}") from exc


def parse_jest_json(data: bytes | str, *, root: Path) -> ParsedResults:
    """Results from `jest --json --outputFile=...`."""
    report = _load_json(data, "jest")
    results = ParsedResults()
    for suite in report.get("testResults", []):
        file = _relative(str(suite.get("name", "")), root)
        cases = suite.get("assertionResults", [])
        if suite.get("status") == "failed" and not cases:
            # The file itself did not run (syntax error, failing import).
            results.errors += 1
            text = str(suite.get("message", ""))
            results.failures.append(
                TestFailure(file or "?", short_message(text), *_or_file(text, root, file))
            )
        for case in cases:
            _add_jest_case(case, file, results, root)
    return results


def _add_jest_case(case: dict[str, Any], file: str | None, results: ParsedResults, root: Path) -> None:
    """Count one jest assertion result."""
    status = case.get("status")
    if status == "passed":
        results.passed += 1
    elif status in ("pending", "skipped", "todo", "disabled"):
        results.skipped += 1
    elif status == "failed":
        results.failed += 1
        text = "\n".join(case.get("failureMessages") or [])
        test_id = " > ".join([*(case.get("ancestorTitles") or []), str(case.get("title", "?"))])
        if file:
            test_id = f"{file} > {test_id}"
        results.failures.append(TestFailure(test_id, short_message(text), *_or_file(text, root, file)))


def _or_file(text: str, root: Path, file: str | None) -> tuple[str | None, int | None]:
    """Where the text says it failed, else the test file without a line."""
    where = locate(text, root)
    return where if where[0] is not None else (file, None)


def parse_mocha_json(data: bytes | str, *, root: Path) -> ParsedResults:
    """Results from mocha's `json` reporter."""
    report = _load_json(data, "mocha")
    stats = report.get("stats", {})
    results = ParsedResults(
        passed=int(stats.get("passes", 0)),
        failed=int(stats.get("failures", 0)),
        skipped=int(stats.get("pending", 0)),
    )
    for test in report.get("failures", []):
        err = test.get("err") or {}
        text = f"{err.get('message', '')}\n{err.get('stack', '')}"
        file = _relative(str(test.get("file", "")), root) if test.get("file") else None
        test_id = str(test.get("fullTitle") or test.get("title") or "?")
        where = _or_file(str(err.get("stack", "")), root, file)
        results.failures.append(TestFailure(test_id, short_message(str(err.get("message", text))), *where))
    return results


def parse_go_json(text: str, *, root: Path) -> ParsedResults:
    """Results from `go test -json`: one event per line; a package that fails to build is an error."""
    results = ParsedResults()
    output: dict[tuple[str, str], list[str]] = {}
    for raw in text.splitlines():
        try:
            event = json.loads(raw)
        except json.JSONDecodeError:
            continue  # build errors are printed as plain text between the events
        key = (str(event.get("Package", "")), str(event.get("Test", "")))
        action = event.get("Action")
        if action == "output":
            output.setdefault(key, []).append(str(event.get("Output", "")))
        elif action in ("pass", "skip") and key[1]:
            results.passed += action == "pass"
            results.skipped += action == "skip"
        elif action == "fail":
            _add_go_failure(key, "".join(output.get(key, [])), results, root)
    return results


def _add_go_failure(key: tuple[str, str], text: str, results: ParsedResults, root: Path) -> None:
    """A failed test, or a failed package with no failed test of its own (a build error)."""
    package, test = key
    if not test:
        if any(f.test_id.startswith(f"{package}.") for f in results.failures):
            return
        results.errors += 1
    else:
        results.failed += 1
    where = re.search(r"(\S+\.go):(\d+):", text)
    file, line = (where.group(1), int(where.group(2))) if where else locate(text, root)
    name = f"{package}.{test}" if test else package
    results.failures.append(TestFailure(name, short_message(text), file, line))


_CARGO_CASE = re.compile(r"^test (\S+) \.\.\. (ok|FAILED|ignored)", re.MULTILINE)
_CARGO_PANIC = re.compile(
    r"^---- (\S+) stdout ----\n(?:.*\n)*?.*panicked at ([^:\n]+):(\d+):\d+:?\n(.*)",
    re.MULTILINE,
)


def parse_cargo_output(text: str) -> ParsedResults:
    """Results from `cargo test` console output (its only stable format)."""
    results = ParsedResults()
    for _name, outcome in _CARGO_CASE.findall(text):
        results.passed += outcome == "ok"
        results.failed += outcome == "FAILED"
        results.skipped += outcome == "ignored"
    panics = {name: (file, int(line), message) for name, file, line, message in _CARGO_PANIC.findall(text)}
    for name, outcome in _CARGO_CASE.findall(text):
        if outcome == "FAILED":
            file, line, message = panics.get(name, (None, None, "failed"))
            results.failures.append(TestFailure(name, short_message(message), file, line))
    return results


def parse_unittest_json(data: bytes | str, *, root: Path) -> ParsedResults:
    """Results written by run_tests' own unittest runner: counts and (id, traceback) pairs."""
    report = _load_json(data, "unittest runner")
    failures = [_unittest_failure(item, root) for item in report.get("failures", [])]
    errors = [_unittest_failure(item, root) for item in report.get("errors", [])]
    skipped = int(report.get("skipped", 0))
    passed = max(int(report.get("run", 0)) - len(failures) - len(errors) - skipped, 0)
    return ParsedResults(passed, len(failures), len(errors), skipped, failures + errors)


def _unittest_failure(item: dict[str, Any], root: Path) -> TestFailure:
    """One failure or error: its message is the traceback's last line (the exception)."""
    trace = str(item.get("traceback", ""))
    lines = [line for line in trace.strip().splitlines() if line.strip()]
    return TestFailure(
        str(item.get("id", "?")), short_message(lines[-1] if lines else ""), *locate(trace, root)
    )
