"""The system prompt's git summary (asi_agent/vcs/summary.py), made with plain `git` in real repositories."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from asi_agent.vcs.summary import git_context


def _git(root: Path, *args: str) -> str:
    who = ["-c", "user.name=t", "-c", "user.email=t@x", "-c", "init.defaultBranch=main"]
    done = subprocess.run(["git", *who, *args], cwd=root, check=True, capture_output=True, text=True)
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q")
    return root


def test_a_branch_without_commits(repo: Path) -> None:
    (repo / "a.py").write_text("a = 1\n")
    assert git_context(repo) == "Branch: main\nUncommitted changes (1 files): a.py"


def test_branch_changes_renames_and_the_last_commits(repo: Path) -> None:
    (repo / "old.py").write_text("value = 1\n" * 20)
    (repo / "b.py").write_text("b = 1\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "start")
    _git(repo, "checkout", "-qb", "feature/x")
    _git(repo, "mv", "old.py", "new.py")
    (repo / "b.py").write_text("b = 2\n")
    (repo / "untracked.txt").write_text("")
    short = _git(repo, "rev-parse", "--short", "HEAD")

    assert git_context(repo) == (
        "Branch: feature/x\n"
        "Uncommitted changes (3 files): b.py, new.py, untracked.txt\n"  # a rename: its new name only
        f"Recent commits:\n  {short} start"
    )


def test_a_detached_head_names_its_commit(repo: Path) -> None:
    (repo / "a.py").write_text("a = 1\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    head = _git(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "--detach")

    assert git_context(repo).splitlines()[:2] == [f"Branch: (detached at {head[:10]})", "Working tree clean."]


def test_only_the_first_twenty_changes_and_five_commits_are_named(repo: Path) -> None:
    for number in range(6):
        (repo / "log.txt").write_text(f"{number}\n")
        _git(repo, "add", ".")
        _git(repo, "commit", "-qm", f"commit {number}")
    for number in range(23):
        (repo / f"f{number:02}.py").write_text("")

    lines = git_context(repo).splitlines()

    assert lines[1].startswith("Uncommitted changes (23 files): f00.py, f01.py")
    assert lines[1].endswith("f19.py and 3 more")
    assert [line.split(" ", 3)[-1] for line in lines[3:]] == [f"commit {n}" for n in (5, 4, 3, 2, 1)]


def test_no_summary_outside_a_working_tree(repo: Path, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    bare = tmp_path / "bare.git"
    _git(tmp_path, "init", "-q", "--bare", str(bare))

    assert git_context(plain) == ""
    assert git_context(bare) == ""
    assert git_context(repo / ".git") == ""
