"""The git side of a headless run: checkpoints before the first change, and `--auto-commit`."""

from __future__ import annotations

import sys
from pathlib import Path

from asi_agent.agent import Agent
from asi_agent.events import RunFinished
from asi_agent.exceptions import UserError
from asi_agent.vcs.session import GitSession

__all__ = ["attach_git", "finish_git"]


def attach_git(
    agent: Agent, root: Path, task: str, *, auto_commit: bool, allow_dirty: bool
) -> GitSession | None:
    """Hook checkpoints into the agent's tool runner; refuse a dirty tree for auto-commit (unless allowed)."""
    git = GitSession.open(root, agent.session.id, now=auto_commit)
    if git is None:
        if auto_commit:
            raise UserError(f"--auto-commit: {root} is not in a git repository (or git is not installed)")
        return None
    if auto_commit and not allow_dirty:
        git.require_clean()
    git.start_task(task)
    agent.runner.before_change = git.before_change
    return git


def finish_git(git: GitSession | None, end: RunFinished, *, auto_commit: bool, model: str) -> None:
    """Say where the checkpoint is; commit the task when it completed and auto-commit is on."""
    if git is None or git.checkpoint is None:
        return
    print(
        f"asi-agent: checkpoint {git.checkpoint.id} holds the tree from before this run "
        f"(`asi-agent checkpoints restore {git.checkpoint.id}` brings it back)",
        file=sys.stderr,
    )
    if auto_commit and end.status == "DONE":
        commit = git.commit_task(end.result, model=model)
        if commit:
            print(f"asi-agent: committed {commit[:10]}", file=sys.stderr)
