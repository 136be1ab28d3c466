"""Turning a path the model wrote into a real path inside the project, or refusing it.

Every file tool goes through `resolve_in_project`: `..` and symbolic links (of the file and of every
parent, also for files that do not exist yet) are resolved before the check, so a link that points
outside the project cannot be used to read or write there. Links inside the project that stay inside
are followed. The check is by name, at one moment: the file is then opened beneath the project root
with no link followed (`beneath.py`), so a link swapped in after the check leads nowhere.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path

from asi_agent.exceptions import PermissionDeniedError, ToolError

__all__ = ["NAME_MAX_BYTES", "PATH_MAX_BYTES", "PROTECTED_DIRS", "display_path", "resolve_in_project"]

PROTECTED_DIRS = (".git", ".asi")
"""Folders whose contents tools may read but never write: git internals and asi-agent's own state."""

NAME_MAX_BYTES = 255
"""The longest file name most file systems accept; a longer one fails with ENAMETOOLONG."""
PATH_MAX_BYTES = 4096
"""The longest path Linux accepts."""


def expand_home(text: str) -> Path:
    """`text` as a path, a leading `~` or `~user` made that home folder; a ToolError for an unknown user."""
    expanded = os.path.expanduser(text)
    if expanded.startswith("~"):
        raise ToolError(
            f"the path {text!r} starts with ~ but names no known home folder; give a path relative to the "
            "project root (./~name for a file whose name starts with ~)"
        )
    return Path(expanded)


def resolve_in_project(ctx_root: Path, raw: str, *, write: bool, also: Sequence[Path] = ()) -> Path:
    """Resolve `raw` (relative to the project root, or absolute inside it) and refuse anything outside.

    `also` lists folders outside the project that the policy allows (`allow_dirs`).
    """
    text = raw.strip()
    if not text:
        raise ToolError("the path is empty; give a file path relative to the project root, e.g. src/main.py")
    if "\x00" in text:
        raise ToolError(f"the path {text!r} contains a NUL character; give a plain file path")
    _refuse_too_long(text)
    root = _real_root(ctx_root)
    candidate = expand_home(text)
    if not candidate.is_absolute():
        candidate = root / candidate
    resolved = _resolve(candidate, text)
    if not resolved.is_relative_to(root):
        if any(resolved.is_relative_to(_real_root(extra)) for extra in also):
            return resolved
        raise PermissionDeniedError(_outside_message(text, root, candidate, resolved))
    if write:
        _refuse_protected(resolved.relative_to(root), text)
    return resolved


def _resolve(candidate: Path, text: str) -> Path:
    """Every existing component resolved (links included), the missing tail kept; ToolError if impossible.

    A link replaced while it is read (EINVAL from readlink: no longer a link) is tried again, twice."""
    for attempt in range(3):
        try:
            return candidate.resolve(strict=False)
        except OSError as exc:
            if exc.errno != errno.EINVAL or attempt == 2:
                raise ToolError(_unresolvable(text, exc)) from exc
        except RuntimeError as exc:  # a loop of links
            raise ToolError(f"cannot resolve the path {text!r}: {exc}") from exc
    raise AssertionError("unreachable")


def _unresolvable(text: str, exc: OSError) -> str:
    if exc.errno == errno.EINVAL:
        return (
            f"cannot resolve the path {text!r}: a folder or link on it kept changing while it was read "
            "(something is replacing it, e.g. a background command); nothing was done. Call again once "
            "it has settled, or choose another path"
        )
    return f"cannot resolve the path {text!r}: {exc}"


def _outside_message(text: str, root: Path, candidate: Path, resolved: Path) -> str:
    """Why a path is refused: it names a place outside, or a link inside the project leads out."""
    if Path(os.path.normpath(candidate)).is_relative_to(root):
        return (
            f"{text} is a symbolic link (or lies under one) leading outside the project root {root}, "
            f"to {resolved}; tools may only touch files inside the project. Give the path of a file "
            "inside the project instead"
        )
    return f"{text} is outside the project root {root}; tools may only touch files inside the project"


def _refuse_too_long(text: str) -> None:
    """A runaway path (a model looping inside a string) is the model's error, never an OSError later."""
    size = len(text.encode("utf-8", "surrogateescape"))
    if size > PATH_MAX_BYTES:
        raise ToolError(f"the path is {size} bytes long (at most {PATH_MAX_BYTES}); give a short file path")
    for part in text.replace("\\", "/").split("/"):
        if len(part.encode("utf-8", "surrogateescape")) > NAME_MAX_BYTES:
            raise ToolError(
                f"the path has a name of more than {NAME_MAX_BYTES} bytes ({part[:40]}…); "
                "give an existing file path relative to the project root"
            )


def display_path(root: Path, path: Path) -> str:
    """The path as the model should see it: relative to the project root, with forward slashes."""
    real_root = _real_root(root)
    for base in (real_root, root):
        if path.is_relative_to(base):
            rel = path.relative_to(base).as_posix()
            return rel if rel else "."
    return path.as_posix()


def _real_root(root: Path) -> Path:
    """The project root with its own symbolic links resolved, so that comparisons are like for like."""
    return root.resolve(strict=False)


def _refuse_protected(rel: Path, text: str) -> None:
    """Refuse writes into git internals (at any depth, for submodules too) and into `.asi/`."""
    parts = rel.parts
    if not parts:
        raise ToolError(f"{text} is the project root directory, not a file; give a file path inside it")
    if ".git" in parts:
        raise PermissionDeniedError(
            f"{text} is inside .git/; tools may not write git internals. Use git commands through "
            "run_terminal_cmd if the repository itself must change"
        )
    if parts[0] == ".asi":
        raise PermissionDeniedError(
            f"{text} is inside .asi/, asi-agent's own state folder, which tools may not write; "
            "choose a path elsewhere in the project"
        )
