"""Where a destructive command's targets resolve: inside the project, in a scratch folder, or outside.

Targets come from the classifier as written (`~/x`, `../y`, `$HOME/z`, `src/*`, `remote:a database`).
They are resolved after `~`, `$HOME`, `$TMPDIR`, `..`, globs (cut at the first wildcard) and symlinks;
what cannot be resolved (another variable, a command substitution, names read from input) counts as
outside. Scratch folders (`/tmp`, `/var/tmp`, `$TMPDIR`) and the policy's `allow_dirs` do not.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from asi_agent.policy.danger_paths import UNKNOWN

__all__ = ["outside_target"]

_GLOB = re.compile(r"[*?\[]")
_VARIABLE = re.compile(r"^\$(?:\{(?P<braced>[A-Za-z_]\w*)\}|(?P<plain>[A-Za-z_]\w*))")


def outside_target(
    targets: Iterable[str], root: Path, allowed: Sequence[Path] = (), *, cwd: Path | None = None
) -> str | None:
    """The first target (as written) outside the project and every allowed folder, if any.

    Relative targets start from `cwd` (the folder the command runs in; the project root by default).
    """
    project = Path(os.path.realpath(root))
    base = Path(os.path.realpath(cwd)) if cwd is not None else project
    inside = [project, *(Path(os.path.realpath(p)) for p in allowed), *_scratch()]
    for target in targets:
        if target.startswith("remote:"):
            return target.removeprefix("remote:")
        path = _resolve(target, base)
        if path is None:
            return (
                f"{target} (known only when it runs)"
                if target != UNKNOWN
                else "paths known only when it runs"
            )
        if not any(path == place or place in path.parents for place in inside):
            return target
        if path in inside[len(allowed) + 1 :] and not _GLOB.search(target):
            return target  # the scratch folder itself, not something in it
    return None


def _scratch() -> list[Path]:
    places = {"/tmp", "/var/tmp", tempfile.gettempdir(), os.environ.get("TMPDIR", "/tmp")}
    return [Path(os.path.realpath(p)) for p in sorted(places) if p]


def _resolve(target: str, base: Path) -> Path | None:
    """The real path of a target, or None when it cannot be known before the command runs."""
    text = _expand(target)
    if text is None or "{}" in text:
        return None
    parts = text.split("/")
    cut = next((i for i, part in enumerate(parts) if _GLOB.search(part)), len(parts))
    if ".." in parts[cut:]:
        return None
    prefix = "/".join(parts[:cut]) or ("/" if text.startswith("/") else ".")
    path = Path(prefix) if prefix.startswith("/") else base / prefix
    try:
        return Path(os.path.realpath(path))
    except (ValueError, OSError):  # a NUL byte, a symlink loop: no path the command could act on safely
        return None


def _expand(target: str) -> str | None:
    if target == "~" or target.startswith("~/"):
        return str(Path.home()) + target[1:]
    if target.startswith("~"):
        return None  # another user's home
    match = _VARIABLE.match(target)
    if match:
        name = match["braced"] or match["plain"]
        value = {"HOME": str(Path.home()), "TMPDIR": os.environ.get("TMPDIR") or tempfile.gettempdir()}.get(
            name
        )
        if value is None:
            return None
        target = value + target[match.end() :]
    return None if "$" in target or "`" in target else target
