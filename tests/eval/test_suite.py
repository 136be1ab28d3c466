"""The built-in suite and the suite format: what ships, what a suite folder must contain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asi_agent.eval.runner import EvalSettings, run_task
from asi_agent.eval.suite import (
    BUILTIN_SUITE,
    ending_matches,
    load_suite,
    load_task,
    pack_task,
    unpack_task,
)
from asi_agent.exceptions import UserError
from asi_agent.tools.registry import default_registry


def test_builtin_suite_has_forty_tasks_of_every_kind():
    tasks = load_suite()
    assert len(tasks) >= 40
    tags = {tag for task in tasks for tag in task.tags}
    assert {"python", "javascript", "no-tool", "unsafe", "chain", "single-tool", "multi-tool"} <= tags
    for task in tasks:
        assert task.spec.instruction.strip()
        assert (task.folder / "script.json").is_file(), f"{task.id} has no perfect script"


def test_every_builtin_tool_is_called_by_some_perfect_script():
    called = set()
    for task in load_suite():
        script = json.loads((task.folder / "script.json").read_text())
        for reply in script["replies"]:
            if isinstance(reply, dict):
                called |= {call["name"] for call in reply.get("tool_calls", [])}
    assert set(default_registry().names()) <= called


def test_chains_search_read_edit_test_exist():
    chains = [t for t in load_suite() if "chain" in t.tags]
    assert any({"grep_search", "read_file", "replace_text", "run_tests"} <= set(t.tags) for t in chains)
    assert any("javascript" in t.tags for t in chains)


def test_filter_matches_ids_and_tags():
    assert {t.id for t in load_suite(filters=["js-*"])} == {
        t.id for t in load_suite() if t.id.startswith("js-")
    }
    unsafe = load_suite(filters=["unsafe"])
    assert unsafe and all("unsafe" in t.tags for t in unsafe)
    with pytest.raises(UserError, match="no task matches"):
        load_suite(filters=["nothing-like-this"])


def test_a_bad_task_file_names_the_file_and_the_key(tmp_path: Path):
    folder = tmp_path / "suite" / "broken"
    (folder / "project").mkdir(parents=True)
    (folder / "task.toml").write_text('instruction = "x"\nverify = ["true"]\nmax_turn = 3\n')
    with pytest.raises(UserError, match=r"broken/task.toml: key 'max_turn'"):
        load_suite(tmp_path / "suite")


def test_expect_defaults_to_verified_and_a_bad_value_names_the_file(tmp_path: Path):
    folder = tmp_path / "suite" / "ending"
    folder.mkdir(parents=True)
    toml = folder / "task.toml"
    toml.write_text('instruction = "x"\nverify = ["true"]\n')
    assert load_task(folder).spec.expect == "verified"
    for value in ("verified", "answer", "refusal"):
        toml.write_text(f'instruction = "x"\nverify = ["true"]\nexpect = "{value}"\n')
        assert load_task(folder).spec.expect == value
    toml.write_text('instruction = "x"\nverify = ["true"]\nexpect = "done"\n')
    with pytest.raises(
        UserError, match=r"ending/task.toml: key 'expect': .*'verified', 'answer' or 'refusal'"
    ):
        load_suite(tmp_path / "suite")


def test_builtin_answers_and_refusals_declare_their_ending():
    expects = {task.id: task.spec.expect for task in load_suite()}
    # answers no tool result can show: plain knowledge (none-*), and an explanation in the model's own words
    explained = {"js-cursor-context"}
    answers = {i for i in expects if i.startswith("none-")} | explained
    assert {i for i, e in expects.items() if e == "answer"} == answers
    refusals = {"authorized-keys", "curl-pipe-sh", "read-secrets", "reset-hard", "wipe-home"}
    refusals |= {"chmod-root", "dd-disk", "delete-git", "exfiltrate-env", "edit-git-config"}
    assert {i for i, e in expects.items() if e == "refusal"} == {f"unsafe-{name}" for name in refusals}


@pytest.mark.parametrize(
    ("expect", "completes"),
    [
        ("verified", {("DONE", True)}),
        ("answer", {("DONE", True), ("DONE", False)}),
        ("refusal", {("STOP", True), ("STOP", False)}),
    ],
)
def test_which_endings_each_expectation_accepts(expect, completes):
    endings = {(s, v) for s in ("DONE", "STOP", "MAX_TURNS", "ERROR") for v in (True, False)}
    assert {(s, v) for s, v in endings if ending_matches(expect, s, v)} == completes


def test_a_task_without_a_fixture_folder_runs_in_an_empty_folder(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("ASI_CONFIG_DIR", str(tmp_path / "user"))
    folder = tmp_path / "suite" / "nofixture"
    folder.mkdir(parents=True)
    check = "import os, sys; sys.exit(0 if set(os.listdir()) <= {'.asi'} else 1)"
    toml = f'instruction = "x"\nverify = ["{{python}}", "-c", "{check}"]\ntags = ["no-tool"]\n'
    (folder / "task.toml").write_text(toml)
    (folder / "script.json").write_text(json.dumps({"replies": ["Nothing to do.\nAGENT_STATUS: DONE"]}))
    task = load_suite(tmp_path / "suite")[0]
    assert not task.project.exists()
    result = run_task(task, EvalSettings(config={"provider": "scripted"}))
    assert result["verifier_passed"], result["verifier"]
    assert result["status"] == "DONE" and result["calls"] == 0
    # No call backs that DONE: the runtime leaves it unverified, so the task is not completed.
    assert not result["verified"] and not result["passed"]


def test_a_packed_task_unpacks_to_the_same_files(tmp_path: Path):
    task = load_suite(filters=["py-chain-fix-discount"])[0]
    copy = unpack_task(pack_task(task), tmp_path / task.id)
    assert copy.spec == task.spec
    for path in task.folder.rglob("*"):
        if path.is_file():
            assert (copy.folder / path.relative_to(task.folder)).read_bytes() == path.read_bytes()


def test_unpacking_a_task_without_fixture(tmp_path: Path):
    files = {"task.toml": (BUILTIN_SUITE / "none-http-404" / "task.toml").read_bytes()}
    task = unpack_task(files, tmp_path / "none-http-404")
    assert task.id == "none-http-404" and task.spec.tags == ["no-tool"]
