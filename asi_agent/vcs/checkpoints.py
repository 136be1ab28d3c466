"""Checkpoints: the working tree saved as a commit on a private ref, restored file by file, journaled.

A checkpoint is `refs/asi/checkpoints/<session>/<n>`: a commit whose tree is the working tree (untracked
files included, ignored ones excluded) and whose parent is HEAD. Making one never touches HEAD, the
index or a branch. Restoring writes the files through the change journal, so `asi-agent undo` reverts a
restore, and it first saves the current state as another checkpoint (session `restores`).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path

from asi_agent.exceptions import ModelFixableError, UserError
from asi_agent.tools import beneath
from asi_agent.tools.beneath import Anchored, LinkOnPathError, anchor
from asi_agent.tools.files.journal import Journal, StaleFileError, move_to_trash
from asi_agent.tools.files.journal_format import mode_or_none, read_or_none
from asi_agent.tools.paths import resolve_in_project
from asi_agent.vcs.repo import AGENT_IDENTITY, GitRepo

__all__ = [
    "REF_PREFIX",
    "RESTORES",
    "Checkpoint",
    "Restored",
    "create_checkpoint",
    "find_checkpoint",
    "list_checkpoints",
    "restore_checkpoint",
    "session_diff",
]

REF_PREFIX = "refs/asi/checkpoints/"
RESTORES = "restores"
"""The session name of the checkpoints saved before a restore."""

_SYMLINK, _EXECUTABLE = 0o120000, 0o100755
_CLAIM_WAIT = 10.0
"""Seconds a checkpoint keeps claiming the next number while other processes take them first."""


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """One saved working tree."""

    id: str
    """`<session>/<n>`, what `asi-agent checkpoints restore` takes."""
    commit: str
    time: str
    label: str

    @property
    def session(self) -> str:
        """The session that made it."""
        return self.id.rsplit("/", 1)[0]

    @property
    def number(self) -> int:
        """Its number within the session."""
        return int(self.id.rsplit("/", 1)[1])


@dataclass(slots=True)
class Restored:
    """What a restore did."""

    checkpoint: Checkpoint
    saved: Checkpoint | None = None
    """The checkpoint of the state before the restore (None when nothing had to change)."""
    changed: list[tuple[str, str]] = field(default_factory=list)
    """(written | deleted, path relative to the project)."""
    skipped: list[str] = field(default_factory=list)
    """Paths left alone: outside the project, or symbolic links."""


def create_checkpoint(repo: GitRepo, session_id: str, label: str) -> Checkpoint:
    """Save the working tree as a commit on `refs/asi/checkpoints/<session_id>/<n>`."""
    tree = repo.snapshot()
    parent = repo.head()
    message = f"asi-agent checkpoint: {label}\n\nSession: {session_id}"
    commit = repo.run(
        "commit-tree",
        "--no-gpg-sign",
        tree,
        *(["-p", parent] if parent else []),
        "-m",
        message,
        env=AGENT_IDENTITY,
    )
    deadline = time.monotonic() + _CLAIM_WAIT
    while True:
        taken = [c.number for c in list_checkpoints(repo) if c.session == session_id]
        ident = f"{session_id}/{max(taken, default=0) + 1}"
        try:
            # Compare-and-swap: the empty old value makes git refuse a ref that exists already, so
            # two processes saving checkpoints of one session never overwrite each other's.
            repo.run("update-ref", f"{REF_PREFIX}{ident}", commit, "")
        except UserError:
            # Another process took that number first: take the next free one, a little apart in time.
            if time.monotonic() >= deadline:
                raise
            time.sleep(random.uniform(0, 0.02))
            continue
        return find_checkpoint(repo, ident)


def list_checkpoints(repo: GitRepo) -> list[Checkpoint]:
    """Every checkpoint, newest first."""
    fields = "%(refname)%00%(objectname)%00%(creatordate:iso-strict)%00%(contents:subject)"
    out = repo.run("for-each-ref", f"--format={fields}", REF_PREFIX)
    found = []
    for line in out.splitlines():
        ref, commit, time, subject = line.split("\0")
        found.append(Checkpoint(ref.removeprefix(REF_PREFIX), commit, time, subject.split(": ", 1)[-1]))
    return sorted(found, key=lambda c: (c.time, c.session, c.number), reverse=True)


def find_checkpoint(repo: GitRepo, ident: str) -> Checkpoint:
    """The checkpoint named by its id, a unique end of its id, or a commit prefix (4+ characters)."""
    every = list_checkpoints(repo)
    exact = [c for c in every if c.id == ident]
    matches = exact or [
        c for c in every if c.id.endswith(ident) or (len(ident) >= 4 and c.commit.startswith(ident))
    ]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise UserError(f"no checkpoint '{ident}'; `asi-agent checkpoints` lists them")
    names = ", ".join(c.id for c in matches[:5])
    raise UserError(f"'{ident}' names several checkpoints ({names}); give the whole id")


def restore_checkpoint(repo: GitRepo, ident: str, root: Path, journal: Journal) -> Restored:
    """Bring the working tree under `root` back to the checkpoint; every write is journaled."""
    target = find_checkpoint(repo, ident)
    result = Restored(target)
    changes = repo.changed_paths(repo.snapshot(), repo.run("rev-parse", f"{target.commit}^{{tree}}"))
    if not changes:
        return result
    result.saved = create_checkpoint(repo, RESTORES, f"before restoring {target.id}")
    for _status, path in changes:
        done = _restore_file(repo, target.commit, path, root, journal)
        if done is None:
            result.skipped.append(path)
        else:
            result.changed.append(done)
    return result


def _restore_file(
    repo: GitRepo, commit: str, path: str, root: Path, journal: Journal
) -> tuple[str, str] | None:
    """Write (or delete) one file as the checkpoint has it; None when it is not ours to touch."""
    absolute = repo.root / path
    try:
        target = resolve_in_project(root, str(absolute), write=True)
    except ModelFixableError:
        return None
    rel = target.relative_to(root.resolve()).as_posix()
    if target.is_symlink():
        return None
    wanted = repo.blob(commit, path)
    if wanted is not None and wanted[1] == _SYMLINK:
        return None
    try:
        # Read and written beneath the root with no link followed (a link swapped in is refused).
        return _put(journal, root, anchor(target, (root,)), rel, wanted)
    except StaleFileError as exc:
        raise UserError(
            f"{exc.path} changed while the checkpoint was being restored (another process wrote it); "
            "run the restore again"
        ) from exc
    except LinkOnPathError as exc:
        raise UserError(f"cannot restore {rel}: {exc}") from exc
    except IsADirectoryError:
        return None  # a folder where the checkpoint has a file: not ours to replace


_RESTORE_TOOL = "checkpoint-restore"


def _put(
    journal: Journal, root: Path, where: Anchored, rel: str, wanted: tuple[bytes, int] | None
) -> tuple[str, str] | None:
    """Put the checkpoint's content (None: delete the file) in place, journaled; None if nothing to do."""
    before = read_or_none(where)
    if wanted is None:
        if before is None:
            return None
        mode = mode_or_none(where)
        with journal.change(where, rel, before, None, tool=_RESTORE_TOOL, session_id=RESTORES, mode=mode):
            move_to_trash(root, where)
        return "deleted", rel
    data, git_mode = wanted
    file_mode = 0o755 if git_mode == _EXECUTABLE else (0o644 if before is None else None)
    with journal.change(where, rel, before, data, tool=_RESTORE_TOOL, session_id=RESTORES, mode=file_mode):
        beneath.write_atomic(where, data, file_mode)
    return "written", rel


def session_diff(
    repo: GitRepo, session_id: str | None = None, *, stat: bool = False
) -> tuple[Checkpoint, str]:
    """The first checkpoint of the session (default: the latest session that made one) and the diff from
    it to the working tree now."""
    own = [c for c in list_checkpoints(repo) if c.session != RESTORES]
    if session_id is not None:
        own = [c for c in own if c.session == session_id or c.session.endswith(session_id)]
    if not own:
        which = f"session '{session_id}'" if session_id else "any session"
        raise UserError(f"no checkpoint of {which}: a session makes one before its first change")
    session = own[0].session
    first = min((c for c in own if c.session == session), key=lambda c: c.number)
    out = repo.run(
        "diff",
        "--no-ext-diff",
        "--no-textconv",
        *(["--stat"] if stat else []),
        f"{first.commit}^{{tree}}",
        repo.snapshot(),
        strip=False,
    )
    return first, out
