"""The system prompt's view of the repository: branch, uncommitted files, last commits.

Asked of `git` itself, three commands at once, with the standard library only: the prompt is made at
start-up, before the first request is sent ahead (`asi_agent.prefetch`). Git runs as `gitcmd` runs it,
with nothing the repository configures able to start a program.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from asi_agent.vcs.gitcmd import git_command, work_tree

__all__ = ["dirty_paths", "git_context", "has_git"]

_SHOWN_DIRTY = 20


def has_git(root: Path) -> bool:
    """Whether git may find a repository for `root`: `root` or a folder above it holds `.git` (a folder,
    or a file for a worktree or submodule). `GIT_DIR` is not honoured: the runtime's git never reads it."""
    return work_tree(root) is not None


def git_context(root: Path, *, commits: int = 5) -> str:
    """The prompt's view of the repository ("" without git, outside a working tree, or when git fails)."""
    if not has_git(root):
        return ""  # no git process for a folder no repository holds
    git = git_command(root)
    if git is None:
        return ""  # no git binary
    try:
        status = git.start(
            "status", "--porcelain", "-z", "--untracked-files=normal", "--ignore-submodules=all"
        )
        branch = git.start("symbolic-ref", "--short", "-q", "HEAD")
        log = git.start("log", f"-{commits}", "--format=%h %s", "--no-show-signature")
    except OSError:
        return ""  # git could not start
    dirty, branch_name, log_lines = _output(status), _output(branch), _output(log)
    if dirty is None:
        return ""  # not a working tree (a bare repository), or git failed
    if branch_name is None:  # a detached HEAD
        head = _output(git.start("rev-parse", "-q", "--verify", "HEAD"))
        branch_name = f"(detached at {head.strip()[:10]})" if head else "(no commits)"
    lines = [f"Branch: {branch_name.strip()}"]
    paths = dirty_paths(dirty)
    if paths:
        shown = ", ".join(paths[:_SHOWN_DIRTY])
        more = f" and {len(paths) - _SHOWN_DIRTY} more" if len(paths) > _SHOWN_DIRTY else ""
        lines.append(f"Uncommitted changes ({len(paths)} files): {shown}{more}")
    else:
        lines.append("Working tree clean.")
    if log_lines and log_lines.strip():  # git log fails on a branch with no commits yet
        lines += ["Recent commits:", *(f"  {line}" for line in log_lines.rstrip("\n").splitlines())]
    return "\n".join(lines)


def _output(process: subprocess.Popen[str]) -> str | None:
    """What the command printed, or None when it failed."""
    out, _ = process.communicate()
    return out if process.returncode == 0 else None


def dirty_paths(status: str) -> list[str]:
    """Changed, staged and untracked paths of `git status --porcelain -z` (a rename's source skipped)."""
    paths, skip = [], False
    for item in (entry for entry in status.split("\0") if entry):
        if skip:
            skip = False
            continue
        paths.append(item[3:])
        skip = item[0] in "RC"
    return paths
