"""run_tests and its typed API on real projects copied into temporary folders, run by real runners."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from asi_agent.exceptions import PermissionDeniedError, ToolError
from asi_agent.tools.args import RunTestsArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.exec.frameworks import detect_framework
from asi_agent.tools.exec.testing import TestFailure, render, run_test_suite, run_tests
from asi_agent.tools.files.journal import Journal

FIXTURES = Path(__file__).parents[2] / "fixtures"


def _ctx(root: Path) -> ToolContext:
    return ToolContext(root=root, journal=Journal(root / ".asi"), session_id="test")


def _copy(name: str, tmp_path: Path) -> ToolContext:
    root = tmp_path / name
    shutil.copytree(FIXTURES / name, root)
    return _ctx(root)


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


async def test_pytest_project_counts_failures_and_text(tmp_path: Path) -> None:
    ctx = _copy("pyproj_failing", tmp_path)
    report = await run_test_suite(ctx)
    assert report.framework == "pytest"
    assert (report.passed, report.failed, report.errors, report.skipped) == (3, 2, 0, 1)
    assert report.failures == [
        TestFailure(
            "tests/check_calc.py::test_sub",
            "assert 5 == 1\n +  where 5 = sub(3, 2)",
            "tests/check_calc.py",
            11,
        ),
        TestFailure(
            "tests/check_calc.py::TestMul::test_mul_zero",
            "AssertionError: zero times anything\nassert 0 == 5",
            "tests/check_calc.py",
            25,
        ),
    ]
    assert not report.ok
    lines = render(report).splitlines()
    assert re.fullmatch(r"pytest: 3 passed, 2 failed, 1 skipped in \d+\.\d s", lines[0])
    assert lines[1:4] == [
        "FAILED tests/check_calc.py::test_sub (tests/check_calc.py:11)",
        "  assert 5 == 1",
        "   +  where 5 = sub(3, 2)",
    ]
    assert "output (last" not in render(report)


async def test_pytest_with_pattern_and_with_file(tmp_path: Path) -> None:
    ctx = _copy("pyproj_failing", tmp_path)
    by_pattern = await run_test_suite(ctx, pattern="mul")
    assert (by_pattern.passed, by_pattern.failed, by_pattern.skipped) == (1, 1, 0)
    assert [f.test_id for f in by_pattern.failures] == ["tests/check_calc.py::TestMul::test_mul_zero"]
    by_file = await run_test_suite(ctx, test_file="tests/check_other.py")
    assert (by_file.passed, by_file.failed, by_file.skipped) == (1, 0, 0)
    assert by_file.ok


async def test_pattern_matching_nothing_says_no_tests_found(tmp_path: Path) -> None:
    ctx = _copy("pyproj_failing", tmp_path)
    out = await run_tests(RunTestsArgs(testPattern="nothing_like_this"), ctx)
    assert out == "pytest: no tests found matching testPattern 'nothing_like_this'"


async def test_collection_error_shows_the_console_tail(tmp_path: Path) -> None:
    ctx = _copy("pyproj_failing", tmp_path)
    _write(ctx.root, {"tests/check_broken.py": "def test_x(:\n    pass\n"})
    out = await run_tests(RunTestsArgs(), ctx)
    assert re.fullmatch(r"pytest: 0 passed, 0 failed, 1 error, 0 skipped in \d+\.\d s", out.splitlines()[0])
    assert "FAILED tests/check_broken.py (tests/check_broken.py:1)\n  SyntaxError: invalid syntax" in out
    assert "output (last 40 lines):" in out
    assert "SyntaxError" in out.split("output (last 40 lines):")[1]


async def test_coverage_without_pytest_cov_is_explained(tmp_path: Path) -> None:
    ctx = _copy("pyproj_failing", tmp_path)
    out = await run_tests(RunTestsArgs(testFile="tests/check_other.py", coverage=True), ctx)
    has_cov = any(Path(p, "pytest_cov").is_dir() for p in sys.path)
    assert ("coverage: " in out) if has_cov else ("note: coverage is unavailable: pytest-cov" in out)


async def test_missing_or_outside_test_file_is_refused(tmp_path: Path) -> None:
    ctx = _copy("pyproj_failing", tmp_path)
    with pytest.raises(ToolError, match=r"testFile 'tests/nope\.py' does not exist"):
        await run_test_suite(ctx, test_file="tests/nope.py")
    with pytest.raises(PermissionDeniedError):
        await run_test_suite(ctx, test_file="../elsewhere.py")


async def test_node_test_runner_project(tmp_path: Path) -> None:
    ctx = _copy("jsproj_failing", tmp_path)
    assert detect_framework(ctx.root) == "node"
    report = await run_test_suite(ctx)
    assert (report.passed, report.failed, report.errors, report.skipped) == (2, 1, 0, 1)
    (failure,) = report.failures
    assert failure.test_id == "subtracts"
    assert (failure.file, failure.line) == ("test/math.test.js", 11)
    assert "4 !== 2" in failure.message
    only = await run_test_suite(ctx, pattern="adds zero", test_file="test/math.test.js")
    assert (only.passed, only.failed) == (1, 0)


async def test_unittest_when_the_project_python_has_no_pytest(tmp_path: Path) -> None:
    root = tmp_path / "uproj"
    _write(
        root,
        {
            "test_things.py": (
                "import unittest\n\n\nclass Things(unittest.TestCase):\n"
                "    def test_ok(self):\n        self.assertEqual(1, 1)\n\n"
                "    def test_bad(self):\n        self.assertEqual(1, 2)\n"
            )
        },
    )
    # A real environment of the project, without pytest.
    venv = [sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")]
    subprocess.run(venv, check=True, timeout=120)
    ctx = _ctx(root)
    assert detect_framework(root) == "unittest"
    report = await run_test_suite(ctx)
    assert (report.framework, report.passed, report.failed) == ("unittest", 1, 1)
    assert report.failures == [
        TestFailure("test_things.Things.test_bad", "AssertionError: 1 != 2", "test_things.py", 9)
    ]
    only = await run_test_suite(ctx, pattern="test_ok")
    assert (only.passed, only.failed) == (1, 0)


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"package.json": json.dumps({"devDependencies": {"jest": "^29"}})}, "jest"),
        ({"package.json": json.dumps({"devDependencies": {"vitest": "^1"}})}, "vitest"),
        ({"package.json": json.dumps({"scripts": {"test": "mocha --recursive"}})}, "mocha"),
        ({"package.json": json.dumps({"scripts": {"test": "node --test"}})}, "node"),
        ({"go.mod": "module example.com/x\n"}, "go"),
        ({"Cargo.toml": "[package]\nname = 'x'\n"}, "cargo"),
        ({"pytest.ini": "[pytest]\n"}, "pytest"),
        ({"pyproject.toml": "[tool.pytest.ini_options]\n"}, "pytest"),
        ({"src/util_test.py": ""}, "pytest"),
        ({"lib/a.spec.mjs": ""}, "node"),
        ({"README.md": "# nothing to test\n", "node_modules/x/a.test.js": ""}, None),
    ],
)
def test_detect_framework(tmp_path: Path, files: dict[str, str], expected: str | None) -> None:
    _write(tmp_path, files)
    assert detect_framework(tmp_path) == expected


def test_detect_framework_by_test_file_in_a_mixed_project(tmp_path: Path) -> None:
    _write(tmp_path, {"package.json": json.dumps({"devDependencies": {"jest": "^29"}}), "conftest.py": ""})
    assert detect_framework(tmp_path) == "pytest"
    assert detect_framework(tmp_path, "src/a.test.ts") == "jest"
    assert detect_framework(tmp_path, "tests/test_a.py") == "pytest"


async def test_no_tests_and_missing_runner_are_tool_errors(tmp_path: Path) -> None:
    _write(tmp_path, {"main.py": "print(1)\n"})
    with pytest.raises(ToolError, match="no tests found in the project"):
        await run_test_suite(_ctx(tmp_path))
    _write(tmp_path, {"package.json": json.dumps({"devDependencies": {"jest": "^29"}})})
    with pytest.raises(ToolError, match=r"node_modules/\.bin/jest is missing; install the dependencies"):
        await run_test_suite(_ctx(tmp_path))
