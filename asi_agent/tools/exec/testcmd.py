"""The project's test command, as a person would find it, and one bounded run of it.

Before a run that changed source files may end DONE, the runtime runs the project's tests itself
(`asi_agent.verify`). Which tests: `test_command` from the configuration when set; else the suite
`run_tests` knows (pytest or unittest for a Python project with tests, jest, vitest, mocha or
`node --test`, `go test ./...`, `cargo test`); else `npm test` when package.json has a test script, or
`make test` when the Makefile has a `test` target. The affected tests run first where the runtime can
tell them (for `run_tests` suites: the test files named after a changed module, and changed test files);
when they fail the rest is not run.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools.base import ToolContext
from asi_agent.tools.exec.frameworks import detect_framework
from asi_agent.tools.exec.lint import iter_project_files
from asi_agent.tools.exec.terminal import new_log_path, read_capped, run_command, shell_argv
from asi_agent.tools.exec.testing import render, run_test_suite

__all__ = ["SOURCE_SUFFIXES", "TestPlan", "TestRun", "affected_tests", "detect_tests", "named", "run_plan"]

SOURCE_SUFFIXES = frozenset((
    ".py", ".pyi", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".go", ".rs", ".java", ".kt", ".c", ".h",
    ".cc", ".cpp", ".hpp", ".rb", ".php", ".cs", ".swift", ".scala", ".lua", ".sh",
))  # fmt: skip
"""Files whose change the tests are run for (not documentation, data or settings)."""
_FAILED_LINE = re.compile(r"^(?:FAILED|ERROR) (\S+)|^--- FAIL: (\S+)|^test (\S+) \.\.\. FAILED", re.M)
_SHOWN = 10
_MAX_IDS = 50


@dataclass(frozen=True, slots=True)
class TestPlan:
    """How the project's tests are run: a shell `command`, or (None) the suite `run_tests` detects."""

    __test__ = False  # not a pytest test class, despite its name

    label: str
    """What is run, as people say it: `pytest`, `npm test`, `make test`, the configured command."""
    command: str | None = None
    affected: tuple[str, ...] = ()
    """Test files (relative to the root) to run first."""

    @property
    def tool(self) -> str:
        """The tool whose permission the run needs: `run_tests`, or `run_terminal_cmd` for a command."""
        return "run_tests" if self.command is None else "run_terminal_cmd"

    @property
    def arguments(self) -> dict[str, object]:
        """The arguments of the equivalent call, as the policy judges it."""
        return {} if self.command is None else {"command": self.command}


@dataclass(frozen=True, slots=True)
class TestRun:
    """The outcome of the runtime's test run, as data."""

    __test__ = False

    passed: bool
    failing: tuple[str, ...]
    """The failing tests' ids, when the runner names them."""
    summary: str
    """One line: `pytest: 3 passed, 1 failed …`, `npm test: exit code 1`."""
    output: str
    """What the model is shown of it (the failures and their messages)."""
    empty: bool = False
    """The runner ran and found no tests: no evidence either way."""
    per_test: bool = False
    """Whether `failing` names every failure of the run (the runner reported per test)."""


def detect_tests(root: Path, changed: Sequence[str], configured: str | None = None) -> TestPlan | None:
    """The project's test plan (see the module docstring), or None when the project has no tests."""
    if configured and configured.strip():
        return TestPlan(configured.strip(), configured.strip())
    framework = detect_framework(root)
    if framework is not None:
        return TestPlan(framework, None, tuple(affected_tests(root, changed)))
    if _npm_test_script(root):
        return TestPlan("npm test", "npm test")
    if re.search(r"^test\s*:", _read(root / "Makefile"), re.M):
        return TestPlan("make test", "make test")
    return None


def affected_tests(root: Path, changed: Sequence[str]) -> list[str]:
    """Test files that test the changed files: changed test files, and `test_X.py`/`X_test.py`,
    `X.test.js`/`X.spec.ts`, `X_test.go` beside or anywhere under the root for a changed `X`."""
    stems = {Path(path).stem for path in changed if Path(path).suffix in SOURCE_SUFFIXES}
    if not stems:
        return []
    found: list[str] = []
    for path in iter_project_files(root, root, limit=20_000):
        name, rel = path.name, path.relative_to(root).as_posix()
        stem = path.stem.split(".")[0]
        tests_of = {stem.removeprefix("test_"), stem.removesuffix("_test")} - {stem}
        if ((rel in changed or stem in stems) and _is_test_name(name)) or tests_of & stems:
            found.append(rel)
    return sorted(dict.fromkeys(found))


def _is_test_name(name: str) -> bool:
    return bool(re.match(r"^test_.*\.py$|.*_test\.(py|go)$|.*\.(test|spec)\.[cm]?[jt]sx?$", name))


def _npm_test_script(root: Path) -> bool:
    try:
        package = json.loads(_read(root / "package.json") or "{}")
    except json.JSONDecodeError:
        return False
    script = str(((package.get("scripts") or {}) if isinstance(package, dict) else {}).get("test", ""))
    return bool(script) and "no test specified" not in script


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


async def run_plan(ctx: ToolContext, plan: TestPlan, timeout: float) -> TestRun:
    """Run the plan inside the sandbox, within `timeout` seconds in all; a runner that cannot start
    (not installed, no tests) is a failed run saying why."""
    deadline = time.monotonic() + timeout
    try:
        if plan.command is not None:
            return await _run_command(ctx, plan.command, timeout)
        for test_file in plan.affected:
            first = await _run_suite(ctx, plan, test_file, deadline)
            if not first.passed and not first.empty:
                return first
        return await _run_suite(ctx, plan, None, deadline)
    except ToolError as exc:
        return TestRun(False, (), f"{plan.label}: could not run ({exc})", str(exc))


async def _run_suite(ctx: ToolContext, plan: TestPlan, test_file: str | None, deadline: float) -> TestRun:
    left = max(deadline - time.monotonic(), 1.0)
    report = await run_test_suite(ctx, test_file=test_file, timeout=left)
    failing = tuple(failure.test_id for failure in report.failures)
    text = render(report)
    summary = report.summary() if report.structured and not report.timed_out else text.split("\n")[0]
    where = f" ({test_file})" if test_file else ""
    read = report.structured and not report.timed_out
    empty = read and report.total == 0 and report.exit_code in (0, 5)
    per_test = read and len(failing) == report.failed + report.errors
    return TestRun(report.ok, failing, summary + where, text, empty, per_test)


async def _run_command(ctx: ToolContext, command: str, timeout: float) -> TestRun:
    log = new_log_path(ctx, f"tests-{uuid.uuid4().hex[:8]}")
    argv = shell_argv(command)
    result = await run_command(argv, cwd=ctx.root, timeout=timeout, log=log, sandbox=ctx.sandbox)
    text, _ = read_capped(log, shown_as=log.name)
    log.unlink(missing_ok=True)
    failing = tuple(dict.fromkeys(next(g for g in m.groups() if g) for m in _FAILED_LINE.finditer(text)))
    if result.timed_out:
        summary = f"{command}: timed out after {timeout:g} s"
    else:
        summary = f"{command}: exit code {result.exit_code}"
    passed = result.exit_code == 0 and not result.timed_out
    # Ids read from the output of a command: taken as every failure when some are named (and not too many).
    per_test = passed or (0 < len(failing) <= _MAX_IDS and not result.timed_out)
    return TestRun(passed, failing[:_MAX_IDS], summary, f"{summary}\n{text}".strip(), per_test=per_test)


def named(run: TestRun) -> str:
    """The failing tests, for a one-line message: up to ten ids, then how many more."""
    more = f" and {len(run.failing) - _SHOWN} more" if len(run.failing) > _SHOWN else ""
    return ", ".join(run.failing[:_SHOWN]) + more
