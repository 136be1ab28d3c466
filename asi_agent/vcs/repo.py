"""The project's git repository, seen through a narrow wrapper around the `git` program.

Every command runs as `asi_agent.vcs.gitcmd` runs it: nothing the repository configures (hooks,
fsmonitor, filters, external diffs, signing programs, ...) can start a program. Without a `git` program
a project behaves exactly as one without a repository.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path

from asi_agent.exceptions import UserError
from asi_agent.vcs.gitcmd import GitCommand, git_command
from asi_agent.vcs.summary import dirty_paths, has_git

__all__ = ["AGENT_IDENTITY", "GitRepo", "open_repo"]

log = logging.getLogger("asi_agent.vcs")

AGENT_IDENTITY = {
    "GIT_AUTHOR_NAME": "asi-agent",
    "GIT_AUTHOR_EMAIL": "asi-agent@localhost",
    "GIT_COMMITTER_NAME": "asi-agent",
    "GIT_COMMITTER_EMAIL": "asi-agent@localhost",
}
"""Who writes checkpoint commits (private refs, so the person's identity is not needed)."""


class GitRepo:
    """One working tree; commands run with `git` itself. Nothing here touches HEAD, the index or a branch."""

    def __init__(self, git: GitCommand) -> None:
        self._git = git
        self.root = git.cwd

    def run(self, *args: str, env: dict[str, str] | None = None, strip: bool = True) -> str:
        """The output of `git ARGS` in the working tree; a failure is a UserError quoting git."""
        out = self._bytes(*args, env=env).decode("utf-8", "replace")
        return out.rstrip("\n") if strip else out

    def _bytes(self, *args: str, env: dict[str, str] | None = None) -> bytes:
        try:
            done = self._git.run(*args, env=env)
        except OSError as exc:
            raise UserError(f"git {args[0]} failed: {exc}") from exc
        if done.returncode != 0:
            message = (
                " ".join(done.stderr.decode("utf-8", "replace").split()) or f"exit code {done.returncode}"
            )
            raise UserError(f"git {args[0]} failed: {message}")
        return done.stdout

    def head(self) -> str | None:
        """The commit HEAD points to; None on a branch without commits yet."""
        done = self._git.run("rev-parse", "-q", "--verify", "HEAD^{commit}")
        return done.stdout.decode().strip() if done.returncode == 0 else None

    def branch(self) -> str:
        """The current branch, or "(detached at SHA)"."""
        done = self._git.run("symbolic-ref", "--short", "-q", "HEAD")
        if done.returncode == 0:
            return done.stdout.decode("utf-8", "replace").strip()
        head = self.head()
        return f"(detached at {head[:10]})" if head else "(no commits)"

    def dirty(self) -> list[str]:
        """Changed, staged and untracked paths (`git status --porcelain` lines), ignored files excluded."""
        return dirty_paths(self.run("status", "--porcelain", "-z", "--untracked-files=normal", strip=False))

    def snapshot(self) -> str:
        """The tree of the working tree as it is (untracked files included, ignored excluded).

        Built in a copy of the index, so the real index, HEAD and every branch stay untouched.
        """
        index = self.root / self.run("rev-parse", "--git-path", "index")
        with tempfile.TemporaryDirectory(prefix="asi-git-") as work:
            scratch = Path(work) / "index"
            if index.is_file():
                shutil.copyfile(index, scratch)  # a copy keeps git's stat cache: no full re-hash
            env = {"GIT_INDEX_FILE": str(scratch)}
            self.run("add", "--all", "--", ".", *self._unsaved(), env=env)
            return self.run("write-tree", env=env)

    def _unsaved(self) -> list[str]:
        """Pathspecs leaving out untracked environments a .gitignore forgot (virtualenvs, node_modules)."""
        excluded = [":(exclude,glob)**/node_modules/**"]
        for child in self.root.iterdir():
            if child.is_dir() and (child / "pyvenv.cfg").is_file():
                excluded.append(f":(exclude,literal){child.name}")
        return excluded

    def blob(self, tree: str, path: str) -> tuple[bytes, int] | None:
        """Content and mode of `path` in `tree`, or None when the tree has no such file."""
        listed = self._bytes("ls-tree", "-z", "--full-tree", tree, "--", path)
        entry = listed.split(b"\0", 1)[0]
        if not entry:
            return None
        info, _, _name = entry.partition(b"\t")
        mode, kind, sha = info.decode().split()
        if kind != "blob":
            return None
        return self._bytes("cat-file", "blob", sha), int(mode, 8)

    def changed_paths(self, old_tree: str, new_tree: str) -> list[tuple[str, str]]:
        """(status A/M/D/T, path) of every file that differs between two trees."""
        args = ("diff-tree", "-r", "-z", "--no-renames", "--name-status", old_tree, new_tree)
        out = self.run(*args, strip=False)
        items = [item for item in out.split("\0") if item]
        return [(items[i][0], items[i + 1]) for i in range(0, len(items) - 1, 2)]

    def has_identity(self) -> bool:
        """Whether commits can name their author (user.name and user.email are configured)."""
        return all(
            self._git.run("config", "--get", key).stdout.strip() for key in ("user.email", "user.name")
        )


def open_repo(root: Path) -> GitRepo | None:
    """The repository `root` is in, or None (no repository, a bare one, or no git program)."""
    git = git_command(root) if has_git(root) else None
    if git is None:
        return None
    try:
        done = git.run("rev-parse", "--show-toplevel")
    except OSError:
        return None
    top = done.stdout.decode("utf-8", "surrogateescape").strip()
    if done.returncode != 0 or not top:
        return None  # not a working tree: outside any repository, a bare one, or one git refuses to trust
    return GitRepo(git_command(Path(top).resolve()) or git)
