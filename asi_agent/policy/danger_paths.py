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
from typing import Any, Literal, NamedTuple, Protocol, TypeVar

__all__ = [
    "ARTEFACTS",
    "CONTENTS",
    "GLOB",
    "STARTUP_FILE",
    "SYSTEM_DIRS",
    "UNKNOWN",
    "Finding",
    "Level",
    "artefact",
    "ask",
    "block_device",
    "catastrophic",
    "critical_file",
    "disposable",
    "disposable_name",
    "inside",
    "refuse",
    "remote",
    "scratch",
    "worst",
    "write_target",
]

Level = Literal["safe", "ask", "refuse"]

_RANK: dict[Level, int] = {"safe": 0, "ask": 1, "refuse": 2}


class Finding(NamedTuple):
    """One verdict: its level, a short sentence saying why, and what it destroys (see `targets`)."""

    level: Level
    reason: str
    targets: tuple[str, ...] = ()
    """Paths as written (`~/x`, `../y`, `$DIR`), or `remote:<what>` for things outside any folder."""

    def with_targets(self, targets: tuple[str, ...]) -> Finding:
        """The same finding acting on other targets."""
        return self._replace(targets=targets)


class _Graded(Protocol):
    @property
    def level(self) -> Level: ...

    @property
    def targets(self) -> tuple[str, ...]: ...

    def with_targets(self, targets: tuple[str, ...], /) -> Any: ...


_G = TypeVar("_G", bound=_Graded)


def worst(findings: Iterable[_G | None]) -> _G | None:
    """The most severe of several findings (the first among equals), carrying the targets of all of them."""
    best: _G | None = None
    targets: dict[str, None] = {}
    for finding in findings:
        if finding is None:
            continue
        if finding.level != "safe":
            targets.update(dict.fromkeys(finding.targets))
        if best is None or _RANK[finding.level] > _RANK[best.level]:
            best = finding
    if best is None or tuple(targets) == best.targets:
        return best
    result: _G = best.with_targets(tuple(targets))
    return result


def ask(reason: str, *targets: str) -> Finding:
    """A finding that asks first, in every mode but yolo."""
    return Finding("ask", reason, targets)


def refuse(reason: str, *targets: str) -> Finding:
    """A finding refused in every mode."""
    return Finding("refuse", f"{reason}: refused in every mode", targets)


UNKNOWN = "$(unknown)"
"""The target of an operation whose operands come from input or run time: it cannot be resolved."""


def remote(what: str) -> str:
    """A target outside any folder: a git remote, a database server, a cloud account."""
    return f"remote:{what}"


# Top-level directories whose loss breaks the machine (Linux and macOS); /tmp is not one: it is scratch.
SYSTEM_DIRS = frozenset((
    "bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt", "opt", "proc",
    "root", "run", "sbin", "snap", "srv", "sys", "usr", "var", "Applications", "Library", "System",
    "Users", "Volumes", "private",
))  # fmt: skip
ARTEFACTS = (
    "build", "dist", "target", "_build", "out", "coverage", "htmlcov", ".coverage", "node_modules",
    "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", ".tox", ".nox",
    "*.egg-info", ".eggs", ".next", ".nuxt", ".parcel-cache", ".turbo", ".gradle", ".cache", "cache", "tmp",
    ".tmp", ".svelte-kit", ".angular", ".expo", ".dart_tool", "DerivedData", "cmake-build-*",
)  # fmt: skip
_LOCK_FILES = frozenset({
    "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "Pipfile.lock", "uv.lock",
    "Cargo.lock", "Gemfile.lock", "composer.lock", "bun.lockb", "npm-shrinkwrap.json",
})  # fmt: skip
_DISPOSABLE = re.compile(
    r"^[^/]*\*[^/]*\.(?:log|pyc|pyo|o|a|so|obj|tmp|bak|orig|rej|swp|class|out|pid|sock)$"
)
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
    if not path or path.startswith(("/", "~")) or "$" in path or "{}" in path:
        return False
    return _parts(path, clamp=False) is not None


def artefact(path: str) -> bool:
    """A build or cache folder inside the project that a build recreates."""
    if not inside(path):
        return False
    parts = _parts(path, clamp=False) or []
    if parts and parts[-1] in CONTENTS:
        parts = parts[:-1]
    if not parts or (GLOB.search(parts[-1]) and not parts[-1].endswith("egg-info")):
        return False
    return any(fnmatchcase(part, pattern) for part in parts for pattern in ARTEFACTS)


def disposable_name(name: str) -> bool:
    """A file name pattern of build artefacts or logs (`__pycache__`, `*.pyc`), as `find -name` takes it."""
    return _DISPOSABLE.match(name) is not None or any(fnmatchcase(name, p) or name == p for p in ARTEFACTS)


def disposable(path: str) -> bool:
    """Logs, objects, backups (`*.log`, `build/*.o`) or a lock file inside the project: safe to delete."""
    name = path.rsplit("/", 1)[-1]
    return inside(path) and (_DISPOSABLE.match(name) is not None or name in _LOCK_FILES)


def scratch(path: str) -> bool:
    """A path under /tmp or /var/tmp (not the folder itself, not a glob of its contents)."""
    return re.match(r"^(?:/tmp|/var/tmp)/[^/*?\[]", path) is not None and ".." not in path


def block_device(path: str) -> bool:
    """A disk or partition device (`/dev/sda`, `/dev/nvme0n1p2`, `/dev/disk2`)."""
    return _BLOCK_DEVICE.match(path) is not None


_CRITICAL_FILE = re.compile(
    r"^/(?:etc/(?:passwd|shadow|group|gshadow|sudoers|fstab|crypttab|inittab|ld\.so\.(?:preload|conf))$"
    r"|(?:usr/)?s?bin/[^/]+$|boot/.|lib(?:32|64|x32)?/ld-|usr/lib(?:32|64)?/ld-|proc/sysrq-trigger$)"
)


def critical_file(path: str) -> str | None:
    """A single system file whose loss or overwrite breaks the machine (`/etc/passwd`, `/bin/sh` …)."""
    if not path.startswith("/"):
        return None
    normal = "/" + "/".join(_parts(path, clamp=True) or [])
    return normal if _CRITICAL_FILE.match(normal) else None


def write_target(path: str) -> Finding | None:
    """Judge a file that a redirection, `tee` or `cp` writes to."""
    if block_device(path):
        return refuse(f"writing to the disk device {path}")
    critical = critical_file(path)
    return refuse(f"overwriting the system file {critical}") if critical else _risky_write(path)


def _risky_write(path: str) -> Finding | None:
    if path.startswith(_HARMLESS_SINKS) or ("$" in path and not _HOME.match(path)):
        return None  # scratch, or a variable we cannot resolve: writing a file is not destructive in itself
    if STARTUP_FILE.search(path) or path.startswith("/dev/"):
        what = "device" if path.startswith("/dev/") else "startup or login file"
        return ask(f"writes to the {what} {path}", path)
    if ".git" in (_parts(path, clamp=True) or []):
        return ask(f"writes into the git internals {path}", path)
    return None if inside(path) else ask(f"writes to {path}, outside the project", path)
