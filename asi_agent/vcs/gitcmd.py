"""Every git process asi-agent starts, with nothing the repository configures able to run a program.

A repository is a stranger's input: its `.git/config` (and whatever it includes), its hooks and its
`.gitattributes` can name programs that git would run — hooks and `core.hooksPath`, `core.fsmonitor`,
clean/smudge/process filters, `diff.external` and diff drivers, textconv, `gpg.program` with signing,
pagers, editors, credential helpers, `core.sshCommand`, transports. Git reads the repository's config
as usual here, but configuration given in the environment (`GIT_CONFIG_COUNT`, the command-line scope)
is read last and wins, so every such key is pinned to a harmless value; filters, whose names the
repository chooses, are found with `git config --show-scope` and each one the repository defines is
reset to the user's own definition (git-lfs from `~/.gitconfig` keeps working) or to none.

The environment is the parent's without any `GIT_*` variable (they could point git at other config,
another repository, an external diff or a pager), plus `GIT_CONFIG_NOSYSTEM`, an empty askpass and no
terminal prompt. `GIT_WORK_TREE` is the folder that holds `.git`: a `core.worktree` the repository sets
would otherwise make `status` list, and a checkpoint's `add --all` copy into `.git/objects` (readable from
the sandbox), the files of any folder it names, `~/.ssh` included. The `git` program is looked up on
PATH without its relative entries, so a `git` in the project folder is never the one that runs. The
user's own global config (`~/.gitconfig`, the XDG one) is read: identity, safe directories and git-lfs
come from there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["PINNED", "GitCommand", "git_binary", "git_command", "work_tree"]

PINNED: tuple[tuple[str, str], ...] = (
    ("core.hooksPath", "/dev/null"),
    ("core.fsmonitor", "false"),
    ("core.pager", "cat"),
    ("core.editor", ":"),
    ("sequence.editor", ":"),
    ("core.askPass", ""),
    ("core.sshCommand", "ssh"),
    ("credential.helper", ""),
    ("diff.external", ""),
    ("commit.gpgSign", "false"),
    ("tag.gpgSign", "false"),
    ("log.showSignature", "false"),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
    ("submodule.recurse", "false"),
    ("status.submoduleSummary", "false"),
    ("diff.ignoreSubmodules", "all"),
    ("protocol.allow", "never"),
    *((f"protocol.{name}.allow", "never") for name in ("ext", "file", "git", "ssh", "http", "https")),
)
"""Config keys that could run a program (or reach a remote), and the value each is held to."""

_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_ASKPASS": "",
    "SSH_ASKPASS": "",
    "GIT_PAGER": "cat",
    "GIT_EDITOR": ":",
    "GIT_SEQUENCE_EDITOR": ":",
    "GIT_ALLOW_PROTOCOL": "none",
    "GIT_OPTIONAL_LOCKS": "0",
}
"""Set for every git process; `GIT_OPTIONAL_LOCKS=0` keeps `status` from rewriting the index."""

_FILTER_KEYS = ("clean", "smudge", "process")
_USER_SCOPES = ("global", "system")


def git_binary(project: Path | None = None) -> str | None:
    """The `git` on PATH, skipping relative entries ("." or empty ones name the current folder) and
    folders inside `project`: a `git` the project holds is never the one that runs."""
    inside = project.resolve() if project is not None else None
    entries = [
        entry
        for entry in os.environ.get("PATH", os.defpath).split(os.pathsep)
        if os.path.isabs(entry) and (inside is None or not Path(entry).resolve().is_relative_to(inside))
    ]
    return shutil.which("git", path=os.pathsep.join(entries))


def _base_env() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if not key.startswith("GIT_")} | _ENV


def _config_env(pairs: Sequence[tuple[str, str]]) -> dict[str, str]:
    env = {"GIT_CONFIG_COUNT": str(len(pairs))}
    for index, (key, value) in enumerate(pairs):
        env[f"GIT_CONFIG_KEY_{index}"] = key
        env[f"GIT_CONFIG_VALUE_{index}"] = value
    return env


def work_tree(folder: Path) -> Path | None:
    """The working tree `folder` is in: the nearest folder (itself or above) holding `.git` (a folder, or
    a file for a worktree or submodule); None when there is none, or `folder` is inside a `.git`."""
    resolved = folder.resolve()
    if ".git" in resolved.parts:
        return None  # inside a repository's own folder: no working tree there
    return next((f for f in (resolved, *resolved.parents) if os.path.lexists(f / ".git")), None)


class GitCommand:
    """How git runs in one folder: the program, and an environment pinning every program-running key."""

    def __init__(self, binary: str, cwd: Path) -> None:
        self.binary, self.cwd = binary, cwd
        self.work_tree = work_tree(cwd)
        self._env: dict[str, str] | None = None

    def argv(self, *args: str) -> list[str]:
        """The command line of `git ARGS`."""
        return [self.binary, "--no-pager", *args]

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment of a git process (`extra`: GIT_INDEX_FILE, an identity, ...)."""
        if self._env is None:
            pinned = [*PINNED, *self._filters()]
            self._env = self._base() | _config_env(pinned)
        return {**self._env, **(extra or {})}

    def _base(self) -> dict[str, str]:
        base = _base_env()
        if self.work_tree is not None:
            base["GIT_WORK_TREE"] = str(self.work_tree)
        return base

    def _filters(self) -> list[tuple[str, str]]:
        """Each filter command the repository defines, reset to the user's own value (or none)."""
        done = self._config("--show-scope", "-z", "--get-regexp", r"^filter\.")
        if done is not None and done.returncode > 1:
            # A git without --show-scope (before 2.26): every filter is treated as the repository's.
            plain = self._config("-z", "--get-regexp", r"^filter\.")
            text = plain.stdout.decode("utf-8", "surrogateescape") if plain is not None else ""
            entries = [("local", *item.partition("\n")[::2]) for item in text.split("\0") if item]
        else:
            text = done.stdout.decode("utf-8", "surrogateescape") if done is not None else ""
            entries = _scoped_entries(text)
        users: dict[str, str] = {}
        theirs: set[str] = set()
        for scope, key, value in entries:
            name, _, setting = key.partition(".")[2].rpartition(".")
            if setting.lower() not in _FILTER_KEYS or not name:
                continue
            full = f"filter.{name}.{setting.lower()}"
            if scope in _USER_SCOPES:
                users[full] = value
            else:
                theirs.add(full)
        return _filter_pins(users, theirs)

    def _config(self, *args: str) -> subprocess.CompletedProcess[bytes] | None:
        """`git config ARGS` with the fixed pins only (reading config runs no program)."""
        env = self._base() | _config_env(PINNED)
        try:
            return subprocess.run(
                self.argv("config", *args),
                check=False,
                cwd=self.cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
            )
        except OSError:
            return None

    def run(
        self, *args: str, env: Mapping[str, str] | None = None, input: bytes | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        """Run `git ARGS` in the folder and wait; the caller reads the exit code and both outputs."""
        return subprocess.run(
            self.argv(*args),
            cwd=self.cwd,
            env=self.env(env),
            input=input,
            stdin=None if input is not None else subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )

    def start(self, *args: str) -> subprocess.Popen[str]:
        """Start `git ARGS` in the folder, its output read as text (several may run at once)."""
        return subprocess.Popen(
            self.argv(*args),
            cwd=self.cwd,
            env=self.env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="replace",
        )


def _filter_pins(users: Mapping[str, str], theirs: set[str]) -> list[tuple[str, str]]:
    """Each filter key the repository sets, pinned to the user's own value or to none; a filter left
    with no program is no longer `required` (git would refuse every file it covers)."""
    pinned = [(key, users.get(key, "")) for key in sorted(theirs)]
    for name in sorted({key.split(".", 1)[1].rsplit(".", 1)[0] for key in theirs}):
        keys = [f"filter.{name}.{setting}" for setting in _FILTER_KEYS]
        # An empty `process` still wins over clean/smudge, and then no program runs at all.
        emptied = f"filter.{name}.process" in theirs and not users.get(f"filter.{name}.process")
        if emptied or not any(users.get(key) for key in keys):
            pinned.append((f"filter.{name}.required", "false"))
    return pinned


def _scoped_entries(text: str) -> list[tuple[str, str, str]]:
    """(scope, key, value) of `git config --show-scope -z --get-regexp` output."""
    items = text.split("\0")
    entries = []
    for scope, rest in zip(items[0::2], items[1::2], strict=False):
        key, _, value = rest.partition("\n")
        entries.append((scope, key, value))
    return entries


def git_command(cwd: Path) -> GitCommand | None:
    """How to run git in `cwd`; None when no git program is installed."""
    binary = git_binary(cwd)
    return None if binary is None else GitCommand(binary, cwd)
