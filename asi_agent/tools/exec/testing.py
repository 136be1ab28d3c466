"""run_tests: find the project's test framework, run it, and read its structured results.

Results come from the runners' own reports (JUnit XML, jest/mocha JSON, `go test -json`), never from
their console text; the console's tail is shown only when the run itself broke. `run_test_suite` (with
`frameworks.detect_framework`) is the typed API that other tools (generate_tests, fix_tests) build on.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import RunTestsArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.exec import junit
from asi_agent.tools.exec.environment import detect_environment, missing_runner, pytest_command, runner_has
from asi_agent.tools.exec.frameworks import detect_framework
from asi_agent.tools.exec.junit import ParsedResults, ResultsFormatError, TestFailure
from asi_agent.tools.exec.terminal import run_command, work_folder
from asi_agent.tools.paths import display_path

__all__ = [
    "TestFailure",
    "TestReport",
    "render",
    "run_test_suite",
    "run_tests",
]

TEST_TIMEOUT = 600.0
"""Seconds a whole test run may take: suites are slower than single commands."""
_TAIL_LINES = 40
_SHOWN_FAILURES = 20
_UNITTEST_RUNNER = """
import json, os, sys, unittest
out, test_file, pattern = sys.argv[1:4]
loader = unittest.TestLoader()
if pattern:
    loader.testNamePatterns = ["*%s*" % pattern]
if test_file:
    suite = loader.discover(os.path.dirname(test_file) or ".", pattern=os.path.basename(test_file))
else:
    suite = loader.discover(".")
result = unittest.TextTestRunner(verbosity=2).run(suite)
pairs = lambda items: [{"id": test.id(), "traceback": trace} for test, trace in items]
with open(out, "w") as f:
    json.dump({"run": result.testsRun, "skipped": len(result.skipped),
               "failures": pairs(result.failures), "errors": pairs(result.errors)}, f)
"""


@dataclass(slots=True)
class TestReport:
    """The outcome of one test run, as other tools consume it."""

    __test__ = False  # not a pytest test class, despite its name

    framework: str
    command: list[str]
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    failures: list[TestFailure] = field(default_factory=list)
    coverage_percent: float | None = None
    output_tail: str = ""
    exit_code: int = 0
    duration: float = 0.0
    timed_out: bool = False
    structured: bool = True
    """False when the runner wrote no readable results (it crashed before or while running)."""
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Every test that ran or was skipped."""
        return self.passed + self.failed + self.errors + self.skipped

    @property
    def ok(self) -> bool:
        """All tests passed (and at least one ran)."""
        return self.structured and not self.timed_out and not (self.failed or self.errors) and self.passed > 0

    def summary(self) -> str:
        """`pytest: 3 passed, 1 failed, 0 skipped in 0.4 s`."""
        counts = f"{self.passed} passed, {self.failed} failed"
        if self.errors:
            counts += f", {self.errors} error{'s' if self.errors > 1 else ''}"
        return f"{self.framework}: {counts}, {self.skipped} skipped in {self.duration:.1f} s"


@dataclass(frozen=True, slots=True)
class _Request:
    """What to run, and a scratch folder for the runner's report files."""

    root: Path
    test_file: str | None
    pattern: str | None
    coverage: bool
    work: Path


@dataclass(slots=True)
class _Plan:
    """How to run one framework and where its results will be."""

    argv: list[str]
    parse: Callable[[str, Path], ParsedResults]
    results: Path | None = None
    """The report file; None when the runner reports on stdout."""
    coverage: Path | None = None
    notes: list[str] = field(default_factory=list)


def _node_bin(req: _Request, name: str) -> str:
    """The project's installed runner, or a ToolError saying how to install it."""
    path = req.root / "node_modules" / ".bin" / name
    if not path.exists():
        raise ToolError(
            f"the project uses {name} (package.json) but node_modules/.bin/{name} is missing; "
            "install the dependencies first (e.g. `npm install` with run_terminal_cmd)"
        )
    return str(path)


def _tool(name: str) -> str:
    """An executable on PATH, or a ToolError naming it."""
    found = shutil.which(name)
    if found is None:
        raise ToolError(f"{name} is not installed on this machine, so these tests cannot run")
    return found


def _plan_pytest(req: _Request) -> _Plan:
    xml = req.work / "junit.xml"
    env = detect_environment(req.root)
    runner = pytest_command(env)
    if runner is None:
        raise ToolError(missing_runner("pytest", env))
    argv = [*runner, f"--junitxml={xml}", "-o", "junit_family=xunit1"]
    plan = _Plan(argv, lambda text, root: junit.parse_junit_xml(text, root=root), xml)
    if req.coverage:
        if runner_has(runner, env, "pytest_cov"):
            plan.coverage = req.work / "coverage.json"
            argv += ["--cov", f"--cov-report=json:{plan.coverage}"]
        else:
            plan.notes.append("coverage is unavailable: pytest-cov is not installed")
    argv += ["-k", req.pattern] if req.pattern else []
    argv += [req.test_file] if req.test_file else []
    return plan


def _plan_unittest(req: _Request) -> _Plan:
    out = req.work / "unittest.json"
    python = detect_environment(req.root).python
    argv = [python, "-c", _UNITTEST_RUNNER, str(out), req.test_file or "", req.pattern or ""]
    return _Plan(argv, lambda text, root: junit.parse_unittest_json(text, root=root), out)


def _plan_node(req: _Request) -> _Plan:
    xml = req.work / "junit.xml"
    argv = [_tool("node"), "--test", "--test-reporter=junit", f"--test-reporter-destination={xml}"]
    argv += ["--test-reporter=spec", "--test-reporter-destination=stdout"]
    argv += [f"--test-name-pattern={req.pattern}"] if req.pattern else []
    argv += [req.test_file] if req.test_file else []
    return _Plan(argv, lambda text, root: junit.parse_junit_xml(text, root=root), xml)


def _plan_jest(req: _Request) -> _Plan:
    out = req.work / "jest.json"
    argv = [_node_bin(req, "jest"), "--ci", "--json", f"--outputFile={out}"]
    plan = _Plan(argv, lambda text, root: junit.parse_jest_json(text, root=root), out)
    if req.coverage:
        plan.coverage = req.work / "coverage" / "coverage-summary.json"
        argv += [
            "--coverage",
            "--coverageReporters=json-summary",
            f"--coverageDirectory={plan.coverage.parent}",
        ]
    argv += ["-t", req.pattern] if req.pattern else []
    argv += ["--runTestsByPath", req.test_file] if req.test_file else []
    return plan


def _plan_vitest(req: _Request) -> _Plan:
    xml = req.work / "junit.xml"
    argv = [
        _node_bin(req, "vitest"),
        "run",
        "--reporter=default",
        "--reporter=junit",
        f"--outputFile.junit={xml}",
    ]
    plan = _Plan(argv, lambda text, root: junit.parse_junit_xml(text, root=root), xml)
    if req.coverage:
        plan.coverage = req.work / "coverage" / "coverage-summary.json"
        argv += ["--coverage.enabled", "--coverage.reporter=json-summary"]
        argv += [f"--coverage.reportsDirectory={plan.coverage.parent}"]
    argv += ["-t", req.pattern] if req.pattern else []
    argv += [req.test_file] if req.test_file else []
    return plan


def _plan_mocha(req: _Request) -> _Plan:
    out = req.work / "mocha.json"
    argv = [_node_bin(req, "mocha"), "--reporter", "json", "--reporter-option", f"output={out}"]
    argv += ["--grep", req.pattern] if req.pattern else []
    argv += [req.test_file] if req.test_file else []
    return _Plan(argv, lambda text, root: junit.parse_mocha_json(text, root=root), out)


def _plan_go(req: _Request) -> _Plan:
    target = f"./{Path(req.test_file).parent.as_posix()}" if req.test_file else "./..."
    argv = [_tool("go"), "test", "-json", *(["-run", req.pattern] if req.pattern else []), target]
    return _Plan(argv, lambda text, root: junit.parse_go_json(text, root=root))


def _plan_cargo(req: _Request) -> _Plan:
    argv = [_tool("cargo"), "test"]
    if req.test_file and req.test_file.startswith("tests/"):
        argv += ["--test", Path(req.test_file).stem]
    argv += [req.pattern] if req.pattern else []
    return _Plan(argv, lambda text, _root: junit.parse_cargo_output(text))


_PLANNERS: dict[str, Callable[[_Request], _Plan]] = {
    "pytest": _plan_pytest,
    "unittest": _plan_unittest,
    "node": _plan_node,
    "jest": _plan_jest,
    "vitest": _plan_vitest,
    "mocha": _plan_mocha,
    "go": _plan_go,
    "cargo": _plan_cargo,
}


async def run_test_suite(
    ctx: ToolContext,
    *,
    test_file: str | None = None,
    pattern: str | None = None,
    coverage: bool = False,
    timeout: float = TEST_TIMEOUT,
) -> TestReport:
    """Run the project's tests (or one file / the tests matching `pattern`) and read the results."""
    rel = None
    if test_file is not None and test_file.strip():
        path = ctx.resolve(test_file, write=False)
        if not path.is_file():
            raise ToolError(
                f"testFile {test_file!r} does not exist; give a test file path relative to the root"
            )
        rel = display_path(ctx.root, path)
    framework = detect_framework(ctx.root, rel)
    if framework is None:
        raise ToolError(
            "no tests found in the project: no test_*.py files or pytest config, no jest, vitest, mocha or "
            "node --test in package.json, no go.mod or Cargo.toml; write tests first or give testFile"
        )
    with tempfile.TemporaryDirectory(prefix="asi-tests-", dir=work_folder(ctx.sandbox)) as work:
        req = _Request(ctx.root, rel, pattern or None, coverage, Path(work))
        plan = _PLANNERS[framework](req)
        log = req.work / "console.log"
        result = await run_command(plan.argv, cwd=ctx.root, timeout=timeout, log=log, sandbox=ctx.sandbox)
        console = _read_console(log, whole=plan.results is None)
        parsed = _parse(plan, console, ctx.root)
        report = TestReport(framework, plan.argv, exit_code=result.exit_code, duration=result.duration)
        report.timed_out, report.notes = result.timed_out, plan.notes
        # Lines naming our scratch folder (report paths) mean nothing to the model.
        kept = [line for line in console.rstrip().splitlines() if work not in line]
        report.output_tail = "\n".join(kept[-_TAIL_LINES:])
        report.coverage_percent = _coverage(plan.coverage) if plan.coverage else None
    if parsed is None:
        report.structured = False
    else:
        report.passed, report.failed, report.errors = parsed.passed, parsed.failed, parsed.errors
        report.skipped, report.failures = parsed.skipped, parsed.failures
    if coverage and plan.coverage and report.coverage_percent is None:
        report.notes.append("the runner wrote no coverage report (is its coverage plugin installed?)")
    return report


def _read_console(log: Path, *, whole: bool) -> str:
    """The runner's console text: all of it when the results are in it, else only its end."""
    with log.open("rb") as f:
        if not whole:
            f.seek(max(log.stat().st_size - 64_000, 0))
        return f.read().decode("utf-8", errors="replace")


def _parse(plan: _Plan, console: str, root: Path) -> ParsedResults | None:
    """The runner's structured results, or None when it wrote none that can be read."""
    if plan.results is not None and not plan.results.is_file():
        return None
    text = console if plan.results is None else plan.results.read_text(encoding="utf-8", errors="replace")
    try:
        parsed = plan.parse(text, root)
    except ResultsFormatError:
        return None
    return None if plan.results is None and parsed.total == 0 and not parsed.failures else parsed


def _coverage(path: Path) -> float | None:
    """Total coverage percent from a coverage.py JSON or an istanbul json-summary report."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    value = data.get("totals", {}).get("percent_covered")
    if value is None:
        value = data.get("total", {}).get("lines", {}).get("pct")
    return float(value) if isinstance(value, int | float) else None


async def run_tests(args: RunTestsArgs, ctx: ToolContext) -> str:
    """Run the tests and report counts, each failure with its place, and coverage when asked."""
    report = await run_test_suite(
        ctx, test_file=args.testFile, pattern=args.testPattern, coverage=args.coverage
    )
    return render(report, pattern=args.testPattern)


def render(report: TestReport, *, pattern: str | None = None) -> str:
    """The report as the model reads it."""
    if report.timed_out:
        lines = [f"{report.framework}: timed out after {report.duration:.0f} s; the run was stopped"]
    elif not report.structured:
        lines = [
            f"{report.framework}: the test run failed before reporting results (exit code {report.exit_code})"
        ]
    elif report.total == 0:
        where = f" matching testPattern {pattern!r}" if pattern else ""
        lines = [f"{report.framework}: no tests found{where}"]
    else:
        lines = [report.summary()]
    for failure in report.failures[:_SHOWN_FAILURES]:
        place = f" ({failure.file}:{failure.line})" if failure.file and failure.line else ""
        place = place or (f" ({failure.file})" if failure.file else "")
        lines.append(f"FAILED {failure.test_id}{place}")
        lines.extend(f"  {text}" for text in failure.message.splitlines())
    if len(report.failures) > _SHOWN_FAILURES:
        lines.append(f"… and {len(report.failures) - _SHOWN_FAILURES} more failures")
    if report.coverage_percent is not None:
        lines.append(f"coverage: {report.coverage_percent:.1f}% total")
    lines.extend(f"note: {note}" for note in report.notes)
    # pytest exits 5 when it collected nothing: no tests, not a broken run.
    empty_but_broken = report.total == 0 and report.exit_code not in (0, 5)
    broken = report.timed_out or not report.structured or report.errors or empty_but_broken
    if broken and report.output_tail:
        lines += [f"output (last {_TAIL_LINES} lines):", report.output_tail]
    return "\n".join(lines)
