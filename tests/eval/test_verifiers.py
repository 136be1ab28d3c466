"""The built-in verifiers check the world, not the words: a right answer the run never read is a guess."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from asi_cli import asi

from asi_agent.eval.suite import BUILTIN_SUITE, load_suite

# Every fact an answer-only task of the built-in suite asks for, in one confident answer.
EVERY_FACT = (
    "The cursor is in debounce and circle_area; parseQuery is in lib/url.js; there are 3 files; the "
    "version is 1.4.2; all 2 tests pass; apply_discount in shop/pricing.py; Invoice is in billing/models.py "
    "at line 5; the TODO is in core/net.py; deploy/envs/settings_prod.py; app, docs and scripts; port 8731; "
    "it prints "
    f"{sum(i * i for i in range(1, 38)) % 9973}; authenticate_user in auth/session.py.\nAGENT_STATUS: DONE"
)
# Answer-only tasks: their verifiers used to look at the answer alone.
ANSWER_TASKS = {
    "js-cursor-context",
    "js-find-function",
    "js-list-components",
    "js-package-version",
    "js-run-tests",
    "py-chain-explain-flow",
    "py-count-modules",
    "py-cursor-function",
    "py-find-class",
    "py-find-todo",
    "py-locate-settings",
    "py-project-layout",
    "py-read-config",
    "py-run-script",
    "py-run-tests",
    "py-search-login",
}


def _run_suite(tmp_path: Path, replies: list[object]) -> dict[str, dict]:
    """The built-in suite with every task answered by `replies`; results by task id."""
    suite = tmp_path / "suite"
    shutil.copytree(BUILTIN_SUITE, suite, ignore=shutil.ignore_patterns("__pycache__"))
    for task in suite.iterdir():
        if task.is_dir():
            (task / "script.json").write_text(json.dumps({"native": True, "replies": replies}))
    done = asi(
        "eval",
        "--suite",
        "suite",
        "--provider",
        "scripted",
        "--jobs",
        "2",
        "--output",
        "r.json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    return {r["id"]: r for r in json.loads((tmp_path / "r.json").read_text())["tasks"]}


@pytest.fixture(scope="module")
def guessed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    return _run_suite(tmp_path_factory.mktemp("guess"), [EVERY_FACT])


def test_a_run_with_no_call_cannot_complete_a_task_that_needs_a_tool(guessed: dict[str, dict]):
    needing = [task.id for task in load_suite() if task.needs_tool]
    assert len(needing) >= 35
    for task_id in needing:
        result = guessed[task_id]
        assert not result["verifier_passed"] and not result["passed"], task_id
        assert "the task needs a tool and no call of this run succeeded" in result["verifier"], task_id


def test_answer_tasks_want_the_fact_from_a_tool_result_of_the_run(tmp_path: Path):
    # A call that succeeds but shows none of the facts, then every fact: the answers are still guesses.
    look = {"tool_calls": [{"name": "grep_search", "arguments": {"pattern": "no-such-text-anywhere"}}]}
    results = _run_suite(tmp_path, [look, EVERY_FACT])
    assert set(results) >= ANSWER_TASKS
    for task_id in sorted(ANSWER_TASKS):
        result = results[task_id]
        assert result["calls_ok"] >= 1, (task_id, result["verifier"])
        assert not result["verifier_passed"], (task_id, result["verifier"])
        assert "FAIL:" in result["verifier"], task_id
