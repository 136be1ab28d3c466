"""Git run by asi-agent runs nothing the repository configures.

Each test plants one entry point the way a sandboxed command (or `create_file`) could — a hook, a
config key, an attribute, an environment variable — as a script that touches a marker file outside the
project, then drives the real CLI through everything that runs git: a start (`git status`/`log` for the
system prompt), a change (the checkpoint: a private index, `add`, `write-tree`, `commit-tree`,
`update-ref`), `--auto-commit` (`status`, `add`, `commit`), and `asi-agent diff`. The marker must never
appear, and the run must still work (the commit is made, the diff shown).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import call, cli, git, script

HOOKS = (
    "pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-index-change",
    "reference-transaction", "pre-auto-gc", "post-checkout", "fsmonitor-watchman",
)  # fmt: skip


def evil(path: Path, marker: Path) -> str:
    """An executable script at `path` that touches `marker` (and passes its input through, as a filter
    or pager would); returns its path as a string."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\ntouch '{marker}'\ncat\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)


def hooks_in_git_dir(root: Path, marker: Path) -> dict[str, str]:
    for name in HOOKS:
        evil(root / ".git" / "hooks" / name, marker)
    return {}


def husky_hooks_path(root: Path, marker: Path) -> dict[str, str]:
    for name in HOOKS:
        evil(root / ".husky" / name, marker)
    git(root, "config", "core.hooksPath", ".husky")
    return {}


def fsmonitor(root: Path, marker: Path) -> dict[str, str]:
    git(root, "config", "core.fsmonitor", evil(root / "tools" / "monitor", marker))
    return {}


def clean_and_smudge_filters(root: Path, marker: Path) -> dict[str, str]:
    (root / ".gitattributes").write_text("*.py filter=fmt\n*.txt filter=lfsish\n")
    program = evil(root / "tools" / "filter", marker)
    git(root, "config", "filter.fmt.clean", program)
    git(root, "config", "filter.fmt.smudge", program)
    git(root, "config", "filter.fmt.required", "true")
    git(root, "config", "filter.lfsish.process", program)
    # Racily clean files make `git status` re-read (and so clean-filter) them: touch them now.
    for name in ("a.py", "b.py"):
        (root / name).touch()
    return {}


def aliases(root: Path, marker: Path) -> dict[str, str]:
    program = evil(root / "tools" / "alias", marker)
    for name in ("status", "log", "add", "commit", "diff", "write-tree", "update-ref", "rev-parse"):
        git(root, "config", f"alias.{name}", f"!{program}")
    return {}


def pagers(root: Path, marker: Path) -> dict[str, str]:
    program = evil(root / "tools" / "pager", marker)
    git(root, "config", "core.pager", program)
    for name in ("status", "log", "diff", "branch"):
        git(root, "config", f"pager.{name}", program)
    return {}


def credentials_and_ssh(root: Path, marker: Path) -> dict[str, str]:
    program = evil(root / "tools" / "helper", marker)
    git(root, "config", "credential.helper", f"!{program}")
    git(root, "config", "core.sshCommand", program)
    git(root, "config", "core.askPass", program)
    return {}


def external_diff_and_textconv(root: Path, marker: Path) -> dict[str, str]:
    (root / ".gitattributes").write_text("*.py diff=pretty\n")
    program = evil(root / "tools" / "differ", marker)
    git(root, "config", "diff.external", program)
    git(root, "config", "diff.pretty.command", program)
    git(root, "config", "diff.pretty.textconv", program)
    return {}


def signing(root: Path, marker: Path) -> dict[str, str]:
    # A signed-looking commit on HEAD, so that `git log` would verify it with gpg.program.
    head = git(root, "cat-file", "commit", "HEAD")
    header, body = head.split("\n\n", 1)
    signed = f"{header}\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----\n\n{body}"
    commit = git(root, "hash-object", "-t", "commit", "-w", "--stdin", input=signed).strip()
    git(root, "update-ref", "refs/heads/main", commit)
    program = evil(root / "tools" / "gpg", marker)
    git(root, "config", "gpg.program", program)
    git(root, "config", "commit.gpgSign", "true")
    git(root, "config", "log.showSignature", "true")
    return {}


def editors(root: Path, marker: Path) -> dict[str, str]:
    program = evil(root / "tools" / "editor", marker)
    git(root, "config", "core.editor", program)
    git(root, "config", "sequence.editor", program)
    return {}


def included_config(root: Path, marker: Path) -> dict[str, str]:
    extra = root / "tools" / "extra.gitconfig"
    extra.parent.mkdir(parents=True, exist_ok=True)
    extra.write_text(f"[core]\n\tfsmonitor = {evil(root / 'tools' / 'monitor', marker)}\n")
    git(root, "config", "include.path", str(extra))
    return {}


def included_if_gitdir(root: Path, marker: Path) -> dict[str, str]:
    extra = root / "tools" / "when.gitconfig"
    extra.parent.mkdir(parents=True, exist_ok=True)
    extra.write_text(f"[diff]\n\texternal = {evil(root / 'tools' / 'differ', marker)}\n")
    git(root, "config", f"includeIf.gitdir:{root}/.git.path", str(extra))
    return {}


def git_environment(root: Path, marker: Path) -> dict[str, str]:
    program = evil(root / "tools" / "env", marker)
    return {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "core.fsmonitor",
        "GIT_CONFIG_VALUE_0": program,
        "GIT_EXTERNAL_DIFF": program,
        "GIT_PAGER": program,
        "GIT_EDITOR": program,
    }


def a_submodules_own_config(root: Path, marker: Path) -> dict[str, str]:
    """A submodule whose config (in `.git/modules/`) sets an fsmonitor; its work tree is dirty."""
    other = root.parent / "other"
    other.mkdir()
    git(other, "init", "-q")
    (other / "f.txt").write_text("x\n")
    git(other, "add", ".")
    git(other, "-c", "user.name=o", "-c", "user.email=o@example.org", "commit", "-q", "-m", "o")
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(other), "vendor/other")
    git(root, "commit", "-q", "-m", "submodule")
    git(root / "vendor" / "other", "config", "core.fsmonitor", evil(root / "tools" / "monitor", marker))
    (root / "vendor" / "other" / "f.txt").write_text("changed\n")
    return {}


def a_git_program_in_the_project(root: Path, marker: Path) -> dict[str, str]:
    """A `git` in the project, found when PATH holds a relative entry ("." or an empty one)."""
    evil(root / "git", marker)
    return {"PATH": os.pathsep.join([".", os.environ["PATH"]])}


PLANTS: list[Callable[[Path, Path], dict[str, str]]] = [
    hooks_in_git_dir,
    husky_hooks_path,
    fsmonitor,
    clean_and_smudge_filters,
    aliases,
    pagers,
    credentials_and_ssh,
    external_diff_and_textconv,
    signing,
    editors,
    included_config,
    included_if_gitdir,
    git_environment,
    a_submodules_own_config,
    a_git_program_in_the_project,
]


@pytest.mark.parametrize("plant", PLANTS, ids=lambda plant: plant.__name__)
def test_nothing_the_repository_configures_runs(
    repo: Path, plant: Callable[[Path, Path], dict[str, str]]
) -> None:
    marker = repo.parent / "markers" / "ran"
    marker.parent.mkdir()
    env = plant(repo, marker)
    assert not marker.exists(), "the test's own git calls ran the plant"
    model = script(
        repo,
        [
            {
                "text": "Plan: one file.",
                "tool_calls": [call("create_file", path="greet.py", content="hi = 1\n")],
            },
            "Created greet.py.\nAGENT_STATUS: DONE",
        ],
    )
    done = cli(
        repo,
        "run",
        "--provider",
        "scripted",
        "--model",
        str(model),
        "--yes",
        "--auto-commit",
        "--allow-dirty",
        "go",
        env=env,
    )
    assert not marker.exists(), f"{plant.__name__} ran during a run:\n{done.stderr}"
    assert done.returncode == 0, done.stderr
    assert "committed" in done.stderr
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["greet.py"]
    assert "refs/asi/checkpoints/" in git(repo, "for-each-ref", "refs/asi")
    (repo / "a.py").write_text("value = 2\n")
    diff = cli(repo, "diff", env=env)
    assert not marker.exists(), f"{plant.__name__} ran during `asi-agent diff`:\n{diff.stderr}"
    assert diff.returncode == 0, diff.stderr


def test_the_users_own_filter_still_runs_where_the_repository_redefines_it(repo: Path) -> None:
    """A filter from the user's `~/.gitconfig` (git-lfs, typically) keeps working; the repository's own
    definition of that filter is replaced by the user's, never run."""
    home = repo.parent / "home"
    home.mkdir()
    (home / ".gitconfig").write_text('[filter "up"]\n\tclean = tr a-z A-Z\n\tsmudge = cat\n')
    marker = repo.parent / "markers" / "ran"
    git(repo, "config", "filter.up.clean", evil(repo / "tools" / "filter", marker))
    (repo / ".gitattributes").write_text("*.txt filter=up\n")
    model = script(
        repo,
        [
            {"text": "Plan.", "tool_calls": [call("create_file", path="note.txt", content="quiet words\n")]},
            "Wrote note.txt.\nAGENT_STATUS: DONE",
        ],
    )
    args = (
        "run",
        "--provider",
        "scripted",
        "--model",
        str(model),
        "--yes",
        "--auto-commit",
        "--allow-dirty",
        "go",
    )
    done = cli(repo, *args, env={"HOME": str(home)})
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    assert git(repo, "cat-file", "blob", "HEAD:note.txt") == "QUIET WORDS\n"


def test_a_work_tree_set_by_the_repository_is_not_followed(repo: Path) -> None:
    """`core.worktree` pointing at another folder (a home folder, `~/.ssh`) would make the prompt list its
    files and a checkpoint copy them into `.git/objects`, which sandboxed commands can read."""
    secrets = repo.parent / "fake-ssh"
    secrets.mkdir()
    (secrets / "id_fake").write_text("FAKE-PRIVATE-KEY-0123\n")
    git(repo, "config", "core.worktree", str(secrets))
    model = script(
        repo,
        [
            {"text": "Plan.", "tool_calls": [call("create_file", path="greet.py", content="hi = 1\n")]},
            "Created greet.py.\nAGENT_STATUS: DONE",
        ],
    )
    args = ("run", "--provider", "scripted", "--model", str(model), "--yes", "--output-format", "json", "go")
    done = cli(repo, *args)
    assert done.returncode == 0, done.stderr
    session = json.loads(done.stdout.strip().splitlines()[-1])["session_id"]
    transcript = (repo / ".asi" / "sessions" / f"{session}.jsonl").read_text()
    assert "id_fake" not in transcript
    objects = subprocess.run(
        ["git", "cat-file", "--batch-all-objects", "--batch"], cwd=repo, capture_output=True, check=True
    ).stdout
    assert b"FAKE-PRIVATE-KEY" not in objects
    checkpoint = git(repo, "for-each-ref", "--format=%(objectname)", "refs/asi").split()[0]
    names = git(repo, "ls-tree", "-r", "--name-only", checkpoint).split()
    assert "a.py" in names and "id_fake" not in names
