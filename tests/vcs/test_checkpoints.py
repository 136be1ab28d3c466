"""Checkpoints, restore and diff on real repositories, through the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from asi_cli import model_free_env
from conftest import call, cli, git, script

from asi_agent.prompts import system_prompt
from asi_agent.vcs.repo import open_repo
from asi_agent.vcs.summary import git_context


def state(root: Path) -> dict[str, str]:
    """Everything a checkpoint must leave alone."""
    return {
        "head": git(root, "rev-parse", "HEAD"),
        "branches": git(root, "for-each-ref", "refs/heads", "--format=%(refname) %(objectname)"),
        "index": git(root, "diff", "--cached"),
        "index_files": git(root, "ls-files", "--stage"),
        "status": git(root, "status", "--porcelain", "--untracked-files=all"),
    }


def run_edits(root: Path, task: str = "Edit a.py, add new.py, drop b.py") -> None:
    model = script(
        root,
        [
            {
                "text": "Plan: three edits.",
                "tool_calls": [call("replace_text", path="a.py", oldText="3", newText="4")],
            },
            {"tool_calls": [call("create_file", path="pkg/new.py", content="print('new')\n")]},
            {"tool_calls": [call("delete_file", path="b.py")]},
            "Done.\nAGENT_STATUS: DONE",
        ],
    )
    done = cli(root, "run", "--provider", "scripted", "--model", str(model), "--yes", task)
    assert done.returncode == 0, done.stderr


def dirty_the_tree(root: Path) -> None:
    """Staged, unstaged, untracked and ignored changes of the person, which must all survive."""
    (root / "a.py").write_text("value = 2\n")
    git(root, "add", "a.py")  # staged: value = 2
    (root / "a.py").write_text("value = 3\n")  # unstaged on top: value = 3
    (root / "notes.txt").write_text("my own notes\n")  # untracked
    (root / "debug.log").write_text("ignored\n")  # ignored by .gitignore


def test_checkpoint_edits_restore_leave_head_index_and_branches_alone(repo: Path) -> None:
    dirty_the_tree(repo)
    before = state(repo)
    run_edits(repo)
    assert (repo / "a.py").read_text() == "value = 4\n" and not (repo / "b.py").exists()
    after_run = state(repo)
    assert after_run["head"] == before["head"] and after_run["branches"] == before["branches"]
    assert after_run["index"] == before["index"] and after_run["index_files"] == before["index_files"]

    listing = cli(repo, "checkpoints")
    assert listing.returncode == 0, listing.stderr
    ident = listing.stdout.split()[0]
    ref = f"refs/asi/checkpoints/{ident}"
    assert git(repo, "show", f"{ref}:a.py") == "value = 3\n"
    assert git(repo, "show", f"{ref}:notes.txt") == "my own notes\n"
    assert "debug.log" not in git(repo, "ls-tree", "-r", "--name-only", ref)
    assert git(repo, "rev-parse", f"{ref}^").strip() == before["head"].strip()

    diff = cli(repo, "diff")
    assert diff.returncode == 0, diff.stderr
    assert "+value = 4" in diff.stdout and "-value = 3" in diff.stdout
    assert "pkg/new.py" in diff.stdout and "-other = 2" in diff.stdout
    assert "notes.txt" not in diff.stdout

    restored = cli(repo, "checkpoints", "restore", ident)
    assert restored.returncode == 0, restored.stderr
    assert (repo / "a.py").read_text() == "value = 3\n"
    assert (repo / "b.py").read_text() == "other = 2\n"
    assert not (repo / "pkg" / "new.py").exists()
    assert (repo / "notes.txt").read_text() == "my own notes\n" and (repo / "debug.log").exists()
    assert state(repo) == before

    # The restore is itself undoable, through the journal.
    undone = cli(repo, "undo", "3")
    assert undone.returncode == 0, undone.stderr
    assert (repo / "a.py").read_text() == "value = 4\n" and (repo / "pkg" / "new.py").exists()
    assert not (repo / "b.py").exists()


def test_a_restore_saves_the_state_it_replaces(repo: Path) -> None:
    run_edits(repo)
    ident = cli(repo, "checkpoints").stdout.split()[0]
    restored = cli(repo, "checkpoints", "restore", ident)
    saved = next(w for w in restored.stdout.split() if w.startswith("restores/"))
    back = cli(repo, "checkpoints", "restore", saved)
    assert back.returncode == 0, back.stderr
    assert (repo / "a.py").read_text() == "value = 1\n"  # the model's replace found no "3": unchanged
    assert (repo / "pkg" / "new.py").exists() and not (repo / "b.py").exists()
    missing = cli(repo, "checkpoints", "restore", "nope")
    assert missing.returncode == 1 and "no checkpoint 'nope'" in missing.stderr


def test_a_read_only_run_makes_no_checkpoint(repo: Path) -> None:
    model = script(repo, [{"tool_calls": [call("read_file", path="a.py")]}, "Read.\nAGENT_STATUS: DONE"])
    done = cli(repo, "run", "--provider", "scripted", "--model", str(model), "--yes", "look")
    assert done.returncode == 0, done.stderr
    assert git(repo, "for-each-ref", "refs/asi") == ""
    assert "no checkpoints yet" in cli(repo, "checkpoints").stdout


LOADS_GIT = """
import sys
from asi_agent.ui.cli import main
code = main(sys.argv[1:])
print("gitpython loaded:", "git" in sys.modules, file=sys.stderr)
sys.exit(code)
"""


def test_gitpython_is_never_loaded(repo: Path) -> None:
    """Git runs as the `git` program with every program-running key pinned: neither a run that only reads
    nor one that saves a checkpoint imports gitpython (whose own git calls would not be pinned)."""
    env = {**model_free_env(), "ASI_CONFIG_DIR": str(repo.parent / "user-config")}
    for replies in (
        [{"tool_calls": [call("read_file", path="a.py")]}, "Read.\nAGENT_STATUS: DONE"],
        [{"tool_calls": [call("create_file", path="c.py", content="")]}, "Made.\nAGENT_STATUS: DONE"],
    ):
        model = script(repo, replies)
        argv = ["run", "--provider", "scripted", "--model", str(model), "--yes", "--cwd", str(repo), "go"]
        command = [sys.executable, "-c", LOADS_GIT, *argv]
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=180, check=False)
        assert done.returncode == 0, done.stderr
        assert "gitpython loaded: False" in done.stderr
    assert "refs/asi" in git(repo, "for-each-ref", "refs/asi")


def test_the_system_prompt_names_branch_changes_and_commits(repo: Path) -> None:
    (repo / "a.py").write_text("value = 9\n")
    (repo / "fresh.py").write_text("")
    text = system_prompt(repo, repo.parent / "user-config")
    assert "## Git\nBranch: main" in text
    assert "Uncommitted changes (2 files): a.py, fresh.py" in text
    assert "Recent commits:" in text and "start" in text
    assert git_context(repo.parent) == ""


def test_without_a_git_binary_the_project_behaves_as_without_git(repo: Path) -> None:
    """No git program on PATH: asi-agent must carry on without it."""
    code = (
        "import sys; from pathlib import Path; from asi_agent.vcs.repo import open_repo;"
        "from asi_agent.vcs.summary import git_context;"
        "print(open_repo(Path(sys.argv[1])), repr(git_context(Path(sys.argv[1]))))"
    )
    env = {**os.environ, "PATH": "/nonexistent"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(repo)], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "None ''"
    assert open_repo(repo) is not None


def test_diff_without_git_comes_from_the_journal(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    root.mkdir()
    (root / "a.py").write_text("value = 3\n")
    run_edits(root)
    diff = cli(root, "diff")
    assert diff.returncode == 0, diff.stderr
    assert "-value = 3\n+value = 4" in diff.stdout and "+print('new')" in diff.stdout
    assert "from the change journal" in diff.stderr
    listing = cli(root, "checkpoints")
    assert listing.returncode == 1 and "not in a git repository" in listing.stderr


def test_an_untracked_virtualenv_is_left_out_of_checkpoints(repo: Path) -> None:
    """A .venv the .gitignore forgot would make every checkpoint hash thousands of files."""
    from asi_agent.vcs.checkpoints import create_checkpoint  # noqa: PLC0415

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(repo / ".venv")], check=True)
    (repo / "web" / "node_modules" / "x").mkdir(parents=True)
    (repo / "web" / "node_modules" / "x" / "index.js").write_text("1\n")
    (repo / "web" / "app.js").write_text("2\n")
    before = state(repo)
    found = open_repo(repo)
    assert found is not None
    checkpoint = create_checkpoint(found, "s", "label")
    names = git(repo, "ls-tree", "-r", "--name-only", checkpoint.commit).split()
    assert "web/app.js" in names
    assert not [n for n in names if n.startswith(".venv/") or "node_modules" in n]
    assert state(repo) == before
