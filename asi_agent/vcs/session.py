"""Git for one session: a checkpoint before each task's first change, and the optional auto-commit."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path

from asi_agent.exceptions import UserError
from asi_agent.vcs.checkpoints import Checkpoint, create_checkpoint
from asi_agent.vcs.repo import AGENT_IDENTITY, GitRepo, open_repo
from asi_agent.vcs.summary import has_git

__all__ = ["TRAILER", "GitSession", "commit_message"]

log = logging.getLogger("asi_agent.vcs")

TRAILER = "Generated-by: asi-agent"
"""The trailer of every auto-commit (followed by the model and the session)."""

_SUBJECT_CHARS = 72
_BODY_LINES = 15
_SHOWN_DIRTY = 10
_NO_PROGRAMS = ("--no-verify", "--no-gpg-sign")
"""No hook, no signing program: the commit runs nothing (the config pins the rest, see `gitcmd`)."""
_INDEX_WAIT = 10.0
"""Seconds a commit waits while another git process (another run's commit, a person's) holds the index."""


def commit_message(task: str, result: str, *, model: str, session_id: str) -> str:
    """Subject from the task's first line, body from the run's final summary, and the asi-agent trailer."""
    lines = [line.strip() for line in task.strip().splitlines() if line.strip()] or ["(no task text)"]
    subject = lines[0] if len(lines[0]) <= _SUBJECT_CHARS else lines[0][: _SUBJECT_CHARS - 1] + "…"
    body = [*lines[1:], ""] if len(lines) > 1 else []
    summary = [line.rstrip() for line in result.strip().splitlines() if not line.startswith("AGENT_STATUS")]
    body += summary[:_BODY_LINES] + (["…"] if len(summary) > _BODY_LINES else [])
    text = subject + ("\n\n" + "\n".join(body).strip() if any(body) else "")
    return f"{text}\n\n{TRAILER} (model {model}, session {session_id})\n"


class GitSession:
    """Checkpoints the tree before the first change of each task; commits completed tasks on request."""

    def __init__(self, root: Path, session_id: str, repo: GitRepo | None = None) -> None:
        self.root, self.session_id = root, session_id
        self._repo, self._opened = repo, repo is not None
        self.checkpoint: Checkpoint | None = None
        """This task's checkpoint, once a change was about to happen."""
        self.task = ""
        self.failed = False

    @classmethod
    def open(cls, root: Path, session_id: str, *, now: bool = False) -> GitSession | None:
        """The session's git side, or None when the project is in no repository.

        The repository is opened (two git processes) before the first change, so a run that changes
        nothing never pays for it; `now` opens it at once, and then None also means that it is
        not usable (a bare repository, no git binary).
        """
        if not now:
            return cls(root, session_id) if has_git(root) else None
        repo = open_repo(root)
        return None if repo is None else cls(root, session_id, repo)

    def repository(self) -> GitRepo | None:
        """The repository, opened on first need; None when it is not usable."""
        if not self._opened:
            self._repo, self._opened = open_repo(self.root), True
        return self._repo

    def start_task(self, task: str) -> None:
        """A new task: its first change makes a new checkpoint."""
        self.task, self.checkpoint, self.failed = task, None, False

    async def before_change(self) -> None:
        """Checkpoint the working tree, once per task (a ToolRunner hook before write and execute calls)."""
        if self.checkpoint is not None or self.failed:
            return
        repo = await asyncio.to_thread(self.repository)
        if repo is None:
            self.failed = True  # not a usable repository: no checkpoints, as in a project without git
            return
        label = (self.task.strip().splitlines() or ["a task"])[0][:80]
        try:
            self.checkpoint = await asyncio.to_thread(create_checkpoint, repo, self.session_id, label)
        except UserError as exc:
            # A checkpoint is a safety net, not the task: say so once and let the run go on.
            self.failed = True
            log.warning("no git checkpoint could be saved (%s); `asi-agent undo` still reverts edits", exc)
            return
        log.info("checkpoint %s saved", self.checkpoint.id)

    def require_clean(self) -> None:
        """Refuse (UserError) a dirty working tree: auto-commit would mix the person's changes in."""
        repo = self.repository()
        dirty = repo.dirty() if repo is not None else []
        if dirty:
            shown = ", ".join(dirty[:_SHOWN_DIRTY]) + (" …" if len(dirty) > _SHOWN_DIRTY else "")
            raise UserError(
                f"--auto-commit: the working tree has uncommitted changes ({shown}); commit or stash them, "
                "or pass --allow-dirty to commit only the files this run changes"
            )

    def commit_task(self, result: str, *, model: str) -> str | None:
        """Commit what this task changed since its checkpoint; the new commit, or None if nothing changed."""
        repo = self.repository()
        if self.checkpoint is None or repo is None:
            return None
        start = repo.run("rev-parse", f"{self.checkpoint.commit}^{{tree}}")
        paths = [path for _status, path in repo.changed_paths(start, repo.snapshot())]
        if not paths:
            return None
        message = commit_message(self.task, result, model=model, session_id=self.session_id)
        env = None if repo.has_identity() else AGENT_IDENTITY
        _while_index_locked(lambda: repo.run("add", "--all", "--", *paths))
        _while_index_locked(
            lambda: repo.run("commit", *_NO_PROGRAMS, "--quiet", "-m", message, "--", *paths, env=env)
        )
        return repo.head()


def _while_index_locked(action: Callable[[], object]) -> None:
    """Run a git command that takes the index lock, again while another process holds it (bounded);
    after `_INDEX_WAIT` seconds git's own message ("index.lock: File exists") is the error."""
    deadline = time.monotonic() + _INDEX_WAIT
    while True:
        try:
            action()
            return
        except UserError as exc:
            if "index.lock" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.1)
