"""Findings and path judgements of the destructive-command classifier.

Paths are judged without knowing the project root, so "inside the project" means a relative path that
does not climb out with `..`. Recursive deletes ask, except of plainly regenerable build and cache
artefacts (`ARTEFACTS`). A virtual environment (`.venv`) is deliberately not one of them: rebuilding it
may need the network, and it is the environment the person is working in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fnmatch import fnmatchcase
from typing import Literal, NamedTuple, Protocol, TypeVar

__all__ = [
    "ARTEFACTS",
    "CONTENTS",
    "GLOB",
    "STARTUP_FILE",
    "SYSTEM_DIRS",
    "Finding",
    "Level",
    "artefact",
    "ask",
    "block_device",
    "catastrophic",
    "inside",
    "refuse",
    "worst",
    "write_target",
]

Level = Literal["safe", "ask", "refuse"]

_RANK: dict[Level, int] = {"safe": 0, "ask": 1, "refuse": 2}


class Finding(NamedTuple):
    """One verdict: its level and a short sentence saying why."""

    level: Level
    reason: str


class _Graded(Protocol):
    @property
    def level(self) -> Level: ...


_G = TypeVar("_G", bound=_Graded)


def worst(findings: Iterable[_G | None]) -> _G | None:
    """The most severe of several findings (the first among equals); None when there is none."""
    best: _G | None = None
    for finding in findings:
        if finding is not None and (best is None or _RANK[finding.level] > _RANK[best.level]):
            best = finding
    return best


def ask(reason: str) -> Finding:
    return Finding("ask", reason)


def refuse(reason: str) -> Finding:
    return Finding("refuse", f"{reason}: refused in every mode")


# Top-level directories whose loss breaks the machine (Linux and macOS); /tmp is not one: it is scratch.
SYSTEM_DIRS = frozenset((
    "bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt", "opt", "proc",
    "root", "run", "sbin", "snap", "srv", "sys", "usr", "var", "Applications", "Library", "System",
    "Users", "Volumes", "private",
))  # fmt: skip
ARTEFACTS = (
    "build", "dist", "target", "_build", "out", "coverage", "htmlcov", ".coverage", "node_modules",
    "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", ".tox", ".nox",
    "*.egg-info", ".eggs", ".next", ".nuxt", ".parcel-cache", ".turbo", ".gradle",
)  # fmt: skip
_HOME = re.compile(r"^(?:~[A-Za-z0-9_.-]*|\$HOME|\$\{HOME\})(?=/|$)")
CONTENTS = frozenset({"*", ".*", "**", "*.*"})
_BLOCK_DEVICE = re.compile(
    r"^/dev/(?:[shv]d[a-z]|xvd[a-z]|nvme\d|mmcblk\d|r?disk\d|disk/|md\d|dm-\d|mapper/|loop\d|sr\d|root$)"
)
STARTUP_FILE = re.compile(
    r"(?:^|/)\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|kshrc"
    r"|cshrc|tcshrc)$|(?:^|/)\.ssh/|(?:^|/)\.config/(?:fish|autostart)/"
    r"|^/etc/(?:profile|bash\.bashrc|environment|zsh/|cron|sudoers)|^/var/spool/cron"
)
_HARMLESS_SINKS = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/", "/tmp/", "/var/tmp/")
GLOB = re.compile(r"[*?\[]")


def _parts(path: str, *, clamp: bool) -> list[str] | None:
    """Path components with `.` and `..` resolved; None when `..` climbs above the start (unless clamped)."""
    out: list[str] = []
    for part in path.split("/"):
        if part == "..":
            if out:
                out.pop()
            elif not clamp:
                return None
        elif part not in ("", "."):
            out.append(part)
    return out


def catastrophic(path: str) -> str | None:
    """Name the system place `path` stands for (/, home, /usr, their contents), or None."""
    home = _HOME.match(path)
    if home:
        parts = _parts(path[home.end() :], clamp=False)
        if parts is None:
            return "a folder above your home folder"
        base = "your home folder"
    elif path.startswith("/"):
        parts = _parts(path, clamp=True) or []
        base = "/"
    else:
        return None
    if parts and parts[-1] in CONTENTS:
        parts = parts[:-1]
    if not parts:
        return base
    system = len(parts) == 1 and parts[0] in SYSTEM_DIRS
    user_home = len(parts) == 2 and parts[0] in ("home", "Users")
    return "/" + "/".join(parts) if base == "/" and (system or user_home) else None


def inside(path: str) -> bool:
    """A plain relative path that stays inside the working folder."""
    if not path or path.startswith(("/", "~")) or "$" in path:
        return False
    return _parts(path, clamp=False) is not None


def artefact(path: str) -> bool:
    """A build or cache folder inside the project that a build recreates."""
    if not inside(path):
        return False
    parts = _parts(path, clamp=False) or []
    if parts and parts[-1] in CONTENTS:
        parts = parts[:-1]
    if not parts or any(GLOB.search(part) for part in parts[:-1]):
        return False
    return any(fnmatchcase(parts[-1], pattern) for pattern in ARTEFACTS)


def block_device(path: str) -> bool:
    return _BLOCK_DEVICE.match(path) is not None


def write_target(path: str) -> Finding | None:
    """Judge a file that a redirection, `tee` or `cp` writes to."""
    if block_device(path):
        return refuse(f"writing to the disk device {path}")
    if path.startswith(_HARMLESS_SINKS):
        return None
    if STARTUP_FILE.search(path):
        return ask(f"writes to the startup or login file {path}")
    if path.startswith("/dev/"):
        return ask(f"writes to the device {path}")
    if "$" in path and not _HOME.match(path):
        return None  # a variable we cannot resolve: writing a file is not destructive in itself
    return None if inside(path) else ask(f"writes to {path}, outside the project")
