"""The parts of the file system a sandboxed command sees differently from the plain read-only root.

- `protected_paths`: what stays read-only inside the writable project — git's configuration, hooks and
  info (of submodules too, and the folder `core.hooksPath` names), the settings of agents, editors and hook
  managers, instruction files — so that nothing a command plants there runs later outside the sandbox.
  A missing `.git/hooks`, `.git/info` or `.git/config` is created (empty, as `git init` makes them) so
  that it can be mounted read-only; a missing `.mcp.json`, `moss-tools.json` or hooks folder is stood in
  for by an empty read-only folder while commands run (`Placeholders`), then removed.
- `host_sockets`: the unix sockets bound on the host (from `/proc/net/unix`), each to be covered.
- `code_folders`: asi-agent's own interpreter and `sys.path`, which must stay read-only (a `.pth` file
  dropped there would run at its next start).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import site
import stat
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

__all__ = ["PLACEHOLDERS", "Placeholders", "code_folders", "host_sockets", "protected_paths"]

HELD_WHEN_MISSING = frozenset({".mcp.json", "moss-tools.json"})
"""Protected names that must not be created by a command even when they do not exist yet: asi-agent
loads them at start (and git runs what a hooks folder holds)."""
_GIT_PARTS = {".git/config": False, ".git/hooks": True, ".git/info": True}  # name -> is a folder
_HOOKS_PATH = re.compile(r"^\s*hookspath\s*=\s*\"?([^\"\n]+?)\"?\s*$", re.IGNORECASE | re.MULTILINE)
MAX_SOCKETS = 512


class Placeholders:
    """Empty folders standing in for missing protected names while sandboxed commands run.

    Each one is counted per command that uses it and removed (if still empty) when the last of them
    ends, or when the program exits.
    """

    def __init__(self) -> None:
        self._held: dict[Path, int] = {}
        self._lock = threading.Lock()
        self._exit_registered = False

    def hold(self, path: Path) -> bool:
        """Make (or count again) the placeholder at `path`; False when something else is there."""
        with self._lock:
            if path in self._held:
                self._held[path] += 1
                return True
            try:
                path.mkdir(mode=0o555)
            except OSError:
                return False
            self._held[path] = 1
            if not self._exit_registered:
                atexit.register(self.clear)
                self._exit_registered = True
            return True

    def release(self, paths: Sequence[Path]) -> None:
        """One command that used these placeholders ended; remove those no command uses any more."""
        with self._lock:
            for path in paths:
                count = self._held.get(path, 0) - 1
                if count > 0:
                    self._held[path] = count
                    continue
                self._held.pop(path, None)
                with contextlib.suppress(OSError):
                    path.rmdir()

    def clear(self) -> None:
        """Remove every placeholder (the program is ending)."""
        self.release([path for path, count in self._held.items() for _ in range(count)])


PLACEHOLDERS = Placeholders()


def protected_paths(root: Path, protected: Sequence[str]) -> tuple[list[Path], list[Path]]:
    """The project's paths to mount read-only, and the missing ones that need a placeholder first."""
    found: list[Path] = []
    missing: list[Path] = []
    git = root / ".git"
    if ".git/config" in protected and git.is_file():
        found.append(git)  # `gitdir: …` says where the repository is: it must not be pointed elsewhere
    elif git.is_dir():
        for name, folder in _GIT_PARTS.items():
            if name in protected:
                _ensure(root / name, folder=folder)
        found += [path for path in _module_parts(git / "modules") if path.exists()]
        hooks = _hooks_path(git / "config", root)
        if hooks is not None:
            (found if hooks.exists() else missing).append(hooks)
    for name in protected:
        path = root / name
        if path.exists():  # a link is mounted where it leads (a dangling one cannot be mounted)
            found.append(path)
        elif name in HELD_WHEN_MISSING and not path.is_symlink():
            missing.append(path)
    return list(dict.fromkeys(found)), missing


def _ensure(path: Path, *, folder: bool) -> None:
    """Create an empty `.git/hooks`, `.git/info` or `.git/config` that is missing, to mount it read-only."""
    if path.exists() or path.is_symlink():
        return
    with contextlib.suppress(OSError):
        if folder:
            path.mkdir()
        else:
            path.touch()


def _module_parts(modules: Path, depth: int = 0) -> Iterator[Path]:
    """`config`, `hooks` and `info` of every submodule's repository under `.git/modules` (nested too)."""
    if depth > 4 or not modules.is_dir():
        return
    with contextlib.suppress(OSError):
        for repository in modules.iterdir():
            if (repository / "HEAD").exists():
                yield from (repository / "config", repository / "hooks", repository / "info")
                yield from _module_parts(repository / "modules", depth + 1)
            else:  # a grouping folder: a submodule named `libs/a` lives in `modules/libs/a`
                yield from _module_parts(repository, depth + 1)


def _hooks_path(config: Path, root: Path) -> Path | None:
    """The project folder `core.hooksPath` names (husky's `.husky/_`), when it lies inside the project."""
    try:
        match = _HOOKS_PATH.search(config.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    if match is None:
        return None
    folder = Path(os.path.expanduser(match.group(1).strip()))
    folder = Path(os.path.normpath(root / folder))
    return folder if folder.is_relative_to(root) and folder != root else None


def host_sockets(masked: Sequence[Path]) -> list[Path]:
    """The unix sockets bound on the host's file system, except those under `masked` folders."""
    try:
        lines = Path("/proc/net/unix").read_text(encoding="utf-8", errors="replace").splitlines()[1:]
    except OSError:
        return []
    found: list[Path] = []
    for line in lines:
        fields = line.split(None, 7)
        if len(fields) < 8 or not fields[7].startswith("/"):
            continue
        path = Path(fields[7])
        if any(path.is_relative_to(folder) for folder in masked) or path in found:
            continue
        with contextlib.suppress(OSError):
            if stat.S_ISSOCK(path.lstat().st_mode):
                found.append(path)
        if len(found) >= MAX_SOCKETS:
            break
    return found


def code_folders(root: Path) -> list[Path]:
    """asi-agent's interpreter and import path: its prefixes, the user's site-packages and `sys.path`,
    except an entry that is the project or holds it (asi-agent run on its own source)."""
    candidates = [sys.prefix, sys.exec_prefix, sys.base_prefix, site.getusersitepackages(), *sys.path]
    found: list[Path] = []
    for raw in candidates:
        if not raw:
            continue
        path = Path(raw).resolve()
        if path.is_dir() and not root.is_relative_to(path) and path not in found:
            found.append(path)
    return found
