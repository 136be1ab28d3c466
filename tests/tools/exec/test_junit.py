"""The runners' result parsers on sample reports in the formats jest, mocha, vitest, go and cargo write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asi_agent.tools.exec.junit import (
    ResultsFormatError,
    TestFailure,
    locate,
    parse_cargo_output,
    parse_go_json,
    parse_jest_json,
    parse_junit_xml,
    parse_mocha_json,
    parse_unittest_json,
)

SAMPLES = Path(__file__).parents[2] / "fixtures" / "results"


def _sample(name: str, root: Path) -> str:
    """A sample report with its project placeholder pointing at `root`."""
    return (SAMPLES / name).read_text(encoding="utf-8").replace("/PROJECT", str(root))


def test_jest_json_counts_failures_and_suites_that_did_not_run(tmp_path: Path) -> None:
    results = parse_jest_json(_sample("jest.json", tmp_path), root=tmp_path)
    assert (results.passed, results.failed, results.errors, results.skipped) == (2, 1, 1, 2)
    failed, broken = results.failures
    assert failed.test_id == "src/math.test.js > math > sub > subtracts"
    assert (failed.file, failed.line) == ("src/math.test.js", 12)
    assert failed.message.splitlines()[:3] == [
        "Error: expect(received).toBe(expected) // Object.is equality",
        "Expected: 2",
        "Received: 4",
    ]
    assert broken.test_id == "src/broken.test.js"
    assert "SyntaxError" in broken.message
    assert broken.file == "src/broken.test.js"


def test_mocha_json(tmp_path: Path) -> None:
    results = parse_mocha_json(_sample("mocha.json", tmp_path), root=tmp_path)
    assert (results.passed, results.failed, results.errors, results.skipped) == (2, 1, 0, 1)
    assert results.failures == [
        TestFailure(
            "math subtracts", "Expected values to be strictly equal:\n4 !== 2", "test/math.spec.js", 9
        )
    ]


def test_vitest_junit_xml(tmp_path: Path) -> None:
    results = parse_junit_xml(_sample("vitest-junit.xml", tmp_path), root=tmp_path)
    assert (results.passed, results.failed, results.errors, results.skipped) == (1, 1, 0, 1)
    (failure,) = results.failures
    assert failure.test_id == "src/math.test.ts > math > subtracts"
    assert failure.message == "expected 4 to be 2 // Object.is equality"
    assert (failure.file, failure.line) == ("src/math.test.ts", 9)


def test_go_test_json_separates_failed_tests_from_broken_packages(tmp_path: Path) -> None:
    results = parse_go_json(_sample("go-test.jsonl", tmp_path), root=tmp_path)
    assert (results.passed, results.failed, results.errors, results.skipped) == (1, 1, 1, 1)
    failed, broken = results.failures
    assert failed.test_id == "example.com/calc.TestSub"
    assert (failed.file, failed.line) == ("calc_test.go", 14)
    assert "sub(3, 1) = 4, want 2" in failed.message
    assert broken.test_id == "example.com/broken"
    assert "build failed" in broken.message


def test_cargo_console_output() -> None:
    results = parse_cargo_output((SAMPLES / "cargo-test.txt").read_text(encoding="utf-8"))
    assert (results.passed, results.failed, results.errors, results.skipped) == (1, 1, 0, 1)
    assert results.failures == [
        TestFailure("tests::subtracts", "assertion `left == right` failed", "src/lib.rs", 21)
    ]


def test_unittest_runner_json(tmp_path: Path) -> None:
    trace = (
        "Traceback (most recent call last):\n"
        f'  File "{tmp_path}/test_a.py", line 7, in test_b\n'
        "    self.assertEqual(1, 2)\n"
        f'  File "{tmp_path.parent}/lib/unittest/case.py", line 873, in assertEqual\n'
        "AssertionError: 1 != 2\n"
    )
    data = {"run": 4, "skipped": 1, "failures": [{"id": "test_a.T.test_b", "traceback": trace}]}
    results = parse_unittest_json(json.dumps(data), root=tmp_path)
    assert (results.passed, results.failed, results.errors, results.skipped) == (2, 1, 0, 1)
    assert results.failures == [TestFailure("test_a.T.test_b", "AssertionError: 1 != 2", "test_a.py", 7)]


def test_locate_prefers_pytest_line_and_skips_library_frames(tmp_path: Path) -> None:
    assert locate("E  assert 1 == 2\n\ntests/test_x.py:8: AssertionError", tmp_path) == ("tests/test_x.py", 8)
    js = (
        f"at f (node:internal/x:1:1)\nat g ({tmp_path}/node_modules/a.js:3:1)\nat h ({tmp_path}/src/a.js:5:2)"
    )
    assert locate(js, tmp_path) == ("src/a.js", 5)
    assert locate("no place at all", tmp_path) == (None, None)


def test_malformed_reports_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ResultsFormatError):
        parse_junit_xml("<testsuites><testcase", root=tmp_path)
    with pytest.raises(ResultsFormatError):
        parse_jest_json("{not json", root=tmp_path)
