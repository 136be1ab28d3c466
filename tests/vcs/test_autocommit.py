"""`--auto-commit` on real repositories, through the real CLI."""

from __future__ import annotations

import threading
from pathlib import Path

from conftest import call, cli, git, script

from asi_agent.vcs.session import TRAILER, commit_message

TASK = "Add a greeting module\nIt should print hello."


def run(root: Path, *flags: str, replies: list | None = None):
    model = script(
        root,
        replies
        or [
            {
                "text": "Plan: one file.",
                "tool_calls": [call("create_file", path="greet.py", content="print('hello')\n")],
            },
            "Created greet.py, which prints hello.\nAGENT_STATUS: DONE",
        ],
    )
    return cli(root, "run", "--provider", "scripted", "--model", str(model), "--yes", *flags, TASK)


def test_a_completed_task_is_committed_with_its_message_and_trailer(repo: Path) -> None:
    start = git(repo, "rev-parse", "HEAD").strip()
    done = run(repo, "--auto-commit")
    assert done.returncode == 0, done.stderr
    assert "committed" in done.stderr
    assert git(repo, "rev-parse", "HEAD~1").strip() == start
    message = git(repo, "log", "-1", "--format=%B")
    assert message.startswith("Add a greeting module\n\nIt should print hello.\n")
    assert "Created greet.py, which prints hello." in message and "AGENT_STATUS" not in message
    trailers = git(repo, "log", "-1", "--format=%(trailers:key=Generated-by,valueonly)")
    assert trailers.startswith("asi-agent (model script, session ")
    assert git(repo, "log", "-1", "--format=%an <%ae>").strip() == "Pat Person <pat@example.org>"
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["greet.py"]
    assert git(repo, "status", "--porcelain") == ""


def test_a_dirty_tree_is_refused_unless_allowed(repo: Path) -> None:
    (repo / "a.py").write_text("value = 'mine'\n")
    git(repo, "add", "a.py")
    (repo / "scratch.txt").write_text("mine too\n")
    refused = run(repo, "--auto-commit")
    assert refused.returncode == 1
    assert "uncommitted changes (a.py, scratch.txt)" in refused.stderr and "--allow-dirty" in refused.stderr
    assert not (repo / "greet.py").exists()

    allowed = run(repo, "--auto-commit", "--allow-dirty")
    assert allowed.returncode == 0, allowed.stderr
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["greet.py"]
    assert git(repo, "status", "--porcelain").splitlines() == ["M  a.py", "?? scratch.txt"]


def test_a_task_that_did_not_finish_is_not_committed(repo: Path) -> None:
    start = git(repo, "rev-parse", "HEAD")
    stopped = run(
        repo,
        "--auto-commit",
        replies=[
            {"tool_calls": [call("create_file", path="half.py", content="x = 1\n")]},
            "I cannot finish this.\nAGENT_STATUS: STOP",
        ],
    )
    assert stopped.returncode == 2, stopped.stderr
    assert git(repo, "rev-parse", "HEAD") == start and (repo / "half.py").exists()


def test_auto_commit_from_the_project_config(repo: Path) -> None:
    (repo / ".asi").mkdir()
    (repo / ".asi" / "config.toml").write_text("auto_commit = true\n")
    untrusted = run(repo)  # an untrusted folder cannot turn auto-commit on
    assert untrusted.returncode == 0, untrusted.stderr
    assert "auto_commit = true" in untrusted.stderr and "asi-agent trust" in untrusted.stderr
    assert git(repo, "log", "-1", "--format=%s").strip() != "Add a greeting module"
    (repo / "greet.py").unlink()  # the uncommitted file it made
    done = run(repo, "--trust")
    assert done.returncode == 0, done.stderr
    assert git(repo, "log", "-1", "--format=%s").strip() == "Add a greeting module"


def test_without_a_repository_auto_commit_is_a_clear_error(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    root.mkdir()
    done = run(root, "--auto-commit")
    assert done.returncode == 1 and "not in a git repository" in done.stderr


def test_the_message_subject_is_cut_and_the_trailer_always_last() -> None:
    text = commit_message("x" * 100, "AGENT_STATUS: DONE", model="m", session_id="s")
    subject, _, rest = text.partition("\n\n")
    assert len(subject) == 72 and subject.endswith("…")
    assert rest == f"{TRAILER} (model m, session s)\n"


def test_a_commit_waits_while_another_git_process_holds_the_index(repo: Path) -> None:
    start = git(repo, "rev-parse", "HEAD").strip()
    lock = repo / ".git" / "index.lock"
    lock.write_text("", encoding="utf-8")  # another run's commit, or a person's, is in progress
    release = threading.Timer(2.0, lock.unlink)
    release.start()
    try:
        done = run(repo, "--auto-commit")
    finally:
        release.join()
    assert done.returncode == 0, done.stderr
    assert "committed" in done.stderr
    assert git(repo, "rev-parse", "HEAD~1").strip() == start
