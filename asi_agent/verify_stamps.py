"""The project's files stamped (size, modification time), to tell what a run's commands changed: the
edit tools journal their changes, a command's changes are found by comparing stamps (`asi_agent.verify`)."""

from __future__ import annotations

from pathlib import Path

from asi_agent.tools.ignore import iter_project_entries

__all__ = ["Stamps", "project_stamps"]

_SNAPSHOT_LIMIT = 20_000  # entries; a bigger project is compared on what was seen first
_GIT_FILES = ("config", "HEAD", "index", "packed-refs", "FETCH_HEAD", "ORIG_HEAD")
Stamps = dict[str, tuple[int, int]]
"""Each file of the project: (size, modification time in ns)."""


def project_stamps(root: Path) -> Stamps:
    """The size and modification time of the project's files (ignore rules apply) and of git's own."""
    stamps: Stamps = {}
    for count, entry in enumerate(iter_project_entries(root)):
        if count >= _SNAPSHOT_LIMIT:
            break
        if not entry.is_dir:
            _stamp(stamps, entry.path, root)
    git = root / ".git"
    for name in _GIT_FILES:
        _stamp(stamps, git / name, root)
    heads = git / "refs" / "heads"
    if heads.is_dir():
        for ref in heads.rglob("*"):
            _stamp(stamps, ref, root)
    return stamps


def _stamp(stamps: Stamps, path: Path, root: Path) -> None:
    try:
        st = path.stat()
    except OSError:
        return
    if path.is_file():
        stamps[path.relative_to(root).as_posix()] = (st.st_size, st.st_mtime_ns)
