"""The project's git repository, seen through a narrow wrapper around gitpython.

gitpython is imported on first use; `import git` fails when no `git` binary is installed, and a
project then behaves exactly as one without a repository.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from asi_agent.exceptions import UserError
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


def _git_module() -> Any:
    """The `git` module, or None when gitpython or the git binary is missing."""
    try:
        import git  # noqa: PLC0415 - heavy, and it fails without a git binary: only when needed
    except ImportError as exc:
        log.debug("git is not usable: %s", exc)
        return None
    return git


class GitRepo:
    """One working tree; commands run with `git` itself. Nothing here touches HEAD, the index or a branch."""

    def __init__(self, repo: Any, module: Any) -> None:
        self._repo = repo
        self._git = module
        self.root = Path(repo.working_tree_dir).resolve()

    def run(self, *args: str, env: dict[str, str] | None = None, strip: bool = True) -> str:
        """The output of `git ARGS` in the working tree; a failure is a UserError quoting git."""
        try:
            out: str = self._repo.git.execute(
                ["git", *args], env={**os.environ, **(env or {})}, strip_newline_in_stdout=strip
            )
        except self._git.GitCommandError as exc:
            message = " ".join(str(exc.stderr or exc).split())
            raise UserError(f"git {args[0]} failed: {message}") from exc
        return out

    def head(self) -> str | None:
        """The commit HEAD points to; None on a branch without commits yet."""
        try:
            return str(self._repo.head.commit.hexsha)
        except ValueError:
            return None

    def branch(self) -> str:
        """The current branch, or "(detached at SHA)"."""
        try:
            return str(self._repo.active_branch.name)
        except TypeError:
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
        try:
            item = self._repo.tree(tree) / path
        except KeyError:
            return None
        return bytes(item.data_stream.read()), int(item.mode)

    def changed_paths(self, old_tree: str, new_tree: str) -> list[tuple[str, str]]:
        """(status A/M/D/T, path) of every file that differs between two trees."""
        args = ("diff-tree", "-r", "-z", "--no-renames", "--name-status", old_tree, new_tree)
        out = self.run(*args, strip=False)
        items = [item for item in out.split("\0") if item]
        return [(items[i][0], items[i + 1]) for i in range(0, len(items) - 1, 2)]

    def has_identity(self) -> bool:
        """Whether commits can name their author (user.name and user.email are configured)."""
        reader = self._repo.config_reader()
        return bool(reader.get_value("user", "email", "")) and bool(reader.get_value("user", "name", ""))


def open_repo(root: Path) -> GitRepo | None:
    """The repository `root` is in, or None (no repository, no gitpython, or no git binary)."""
    # gitpython takes about 0.1 s to import: not for a folder that no repository holds.
    module = _git_module() if has_git(root) else None
    if module is None:
        return None
    try:
        repo = module.Repo(root, search_parent_directories=True)
    except (module.InvalidGitRepositoryError, module.NoSuchPathError):
        return None
    if repo.bare or repo.working_tree_dir is None:
        return None
    return GitRepo(repo, module)
