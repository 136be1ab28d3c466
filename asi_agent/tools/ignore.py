"""Which files belong to the project: the one walker every listing and search tool uses.

Rules, applied at every level below the project root:

- `.gitignore` files in every folder (deeper files win, `!negation` works), and `.git/info/exclude`
  of the root, whether or not the folder is a git repository;
- folders that are never project content: version-control internals, asi-agent's own `.asi/`,
  `node_modules/`, virtual environments (`.venv`, `venv`, and any folder holding a `pyvenv.cfg`),
  tool caches (`__pycache__`, `.mypy_cache`, `.pytest_cache`, `.ruff_cache`, `.tox`, `.nox`);
- the temporary files of an atomic write that a killed process left behind (`.<name>.<8 hex>.tmp`);
- symbolic links to folders are not followed (no cycles, no escaping the root); links to files are
  kept when their target is inside the project.

`dist/` and `build/` are *not* always ignored: nearly every project that produces them lists them in
`.gitignore`, and hiding them unconditionally would hide real sources in projects that use those names.
Hidden files (`.github/`, `.env.example`, ...) are project content and are listed.
Ignore files above the project root and the user's global git excludes are not read, so that a project
looks the same wherever it is checked out.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from pathspec import GitIgnoreSpec

from asi_agent.tools.files.textio import is_write_temp

__all__ = [
    "ALWAYS_IGNORED",
    "VENV_MARKER",
    "ProjectEntry",
    "file_type_suffixes",
    "is_ignored",
    "iter_project_entries",
    "iter_project_files",
]

ALWAYS_IGNORED: frozenset[str] = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".asi",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
        ".nox",
    }
)
"""Names of files or folders skipped at any depth, whatever the ignore files say."""

VENV_MARKER = "pyvenv.cfg"
"""A folder holding this file is a Python virtual environment, whatever its name."""


@dataclass(frozen=True, slots=True)
class ProjectEntry:
    """One file or folder found by the walker."""

    abspath: str
    """Absolute path, under the resolved project root (a string: building `Path`s costs half the walk)."""
    rel: str
    """Path relative to the project root, with forward slashes."""
    is_dir: bool
    depth: int
    """1 for the children of the folder the walk started in, 2 for theirs, ..."""

    @property
    def path(self) -> Path:
        """The absolute path as a `Path`."""
        return Path(self.abspath)


class _Layer(NamedTuple):
    """The patterns of one ignore file and the folder (relative, ending in "/", or "") they apply to."""

    base: str
    spec: GitIgnoreSpec


def iter_project_files(root: Path, *, start: Path | None = None) -> Iterator[Path]:
    """Every non-ignored file under `start` (default: the root), depth first, in name order."""
    for entry in iter_project_entries(root, start=start):
        if not entry.is_dir:
            yield entry.path


def iter_project_entries(
    root: Path, *, start: Path | None = None, max_depth: int | None = None
) -> Iterator[ProjectEntry]:
    """Every non-ignored file and folder under `start`, depth first, in name order, down to `max_depth`.

    `start` (absolute, or relative to `root`) must be a folder inside the root. It is walked even when
    it is itself ignored, because asking for it explicitly means the caller wants to see inside it;
    the ignore rules still apply to everything below it.
    """
    real_root = root.resolve()
    begin = real_root if start is None else (real_root / start).resolve()
    if not begin.is_relative_to(real_root):
        raise ValueError(f"{begin} is not inside the project root {real_root}")
    rel = begin.relative_to(real_root).as_posix()
    prefix = "" if rel == "." else rel + "/"
    layers = _ancestor_layers(real_root, begin)
    walk = _Walk(str(real_root), max_depth)
    yield from walk.folder(str(begin), prefix, layers, 1)


def is_ignored(root: Path, path: Path) -> bool:
    """Whether the walker would skip `path` (absolute, or relative to `root`); outside the root: True."""
    real_root = root.resolve()
    full = real_root / path if not path.is_absolute() else path
    full = Path(os.path.normpath(full))
    if not full.is_relative_to(real_root):
        full = full.resolve()
        if not full.is_relative_to(real_root):
            return True
    parts = full.relative_to(real_root).parts
    layers = _ancestor_layers(real_root, real_root, cached=True)
    parent = str(real_root)
    for index, name in enumerate(parts):
        base = "/".join(parts[:index])
        spec = _cached_spec(os.path.join(parent, ".gitignore"))
        if spec is not None:
            layers = (*layers, _Layer(base + "/" if base else "", spec))
        current = os.path.join(parent, name)
        is_dir = index < len(parts) - 1 or os.path.isdir(current)
        if name in ALWAYS_IGNORED or is_write_temp(name):
            return True
        if _decide(layers, "/".join(parts[: index + 1]), is_dir=is_dir):
            return True
        if is_dir and os.path.isfile(os.path.join(current, VENV_MARKER)):
            return True
        parent = current
    return False


class _Walk:
    """One walk's fixed settings; `folder` recurses through the tree."""

    __slots__ = ("max_depth", "root_prefix")

    def __init__(self, root: str, max_depth: int | None) -> None:
        self.root_prefix = root.rstrip(os.sep) + os.sep
        self.max_depth = max_depth

    def folder(
        self, path: str, prefix: str, layers: tuple[_Layer, ...], depth: int
    ) -> Iterator[ProjectEntry]:
        """The entries of the folder at `path` (relative `prefix`), then recursively of its sub-folders."""
        try:
            with os.scandir(path) as scan:
                entries = sorted(scan, key=lambda item: item.name)
        except OSError:
            return  # unreadable or vanished meanwhile: nothing to list, not an error for the caller
        spec = _read_spec(os.path.join(path, ".gitignore"))
        if spec is not None:
            layers = (*layers, _Layer(prefix, spec))
        for item in entries:
            kind = self._kind(item)
            if kind is None or item.name in ALWAYS_IGNORED or (kind == "file" and is_write_temp(item.name)):
                continue
            rel = prefix + item.name
            is_dir = kind == "dir"
            if _decide(layers, rel, is_dir=is_dir):
                continue
            if is_dir and os.path.isfile(os.path.join(item.path, VENV_MARKER)):
                continue
            yield ProjectEntry(item.path, rel, is_dir, depth)
            if is_dir and (self.max_depth is None or depth < self.max_depth):
                yield from self.folder(item.path, rel + "/", layers, depth + 1)

    def _kind(self, item: os.DirEntry[str]) -> str | None:
        """ "dir", "file", or None for what is skipped (links to folders or outside, sockets, ...)."""
        try:
            if item.is_symlink():
                if item.is_dir():
                    return None
                target = os.path.realpath(item.path)
                return "file" if target.startswith(self.root_prefix) and os.path.isfile(target) else None
            if item.is_dir(follow_symlinks=False):
                return "dir"
            return "file" if item.is_file(follow_symlinks=False) else None
        except OSError:
            return None


def _decide(layers: Sequence[_Layer], rel: str, *, is_dir: bool) -> bool:
    """Whether the ignore layers exclude `rel`; a deeper layer's match overrides a shallower one's."""
    ignored = False
    suffix = "/" if is_dir else ""
    for base, spec in layers:
        if not rel.startswith(base):
            continue
        verdict = spec.check_file(rel[len(base) :] + suffix).include
        if verdict is not None:
            ignored = verdict
    return ignored


def _ancestor_layers(root: Path, begin: Path, *, cached: bool = False) -> tuple[_Layer, ...]:
    """The root's `.git/info/exclude`, then the `.gitignore` files of the root down to `begin`'s parent."""
    read = _cached_spec if cached else _read_spec
    layers: list[_Layer] = []
    exclude = read(os.path.join(root, ".git", "info", "exclude"))
    if exclude is not None:
        layers.append(_Layer("", exclude))
    parts = begin.relative_to(root).parts
    current = root
    for index in range(len(parts)):
        spec = read(os.path.join(current, ".gitignore"))
        if spec is not None:
            base = "/".join(parts[:index])
            layers.append(_Layer(base + "/" if base else "", spec))
        current = current / parts[index]
    return tuple(layers)


def _read_spec(path: str) -> GitIgnoreSpec | None:
    """The patterns of one ignore file, or None when it is missing, unreadable or empty."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    spec = GitIgnoreSpec.from_lines(lines)
    return spec if len(spec) else None


def _cached_spec(path: str) -> GitIgnoreSpec | None:
    """`_read_spec`, remembered until the file's size or modification time changes."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return _spec_for_version(path, info.st_mtime_ns, info.st_size)


@functools.lru_cache(maxsize=256)
def _spec_for_version(path: str, mtime_ns: int, size: int) -> GitIgnoreSpec | None:
    """One cached parse per version of an ignore file (the version is part of the key)."""
    del mtime_ns, size
    return _read_spec(path)


_TYPE_NAMES: dict[str, tuple[str, ...]] = {
    "python": (".py", ".pyi"),
    "py": (".py", ".pyi"),
    "js": (".js", ".mjs", ".cjs", ".jsx"),
    "javascript": (".js", ".mjs", ".cjs", ".jsx"),
    "ts": (".ts", ".tsx", ".mts", ".cts"),
    "typescript": (".ts", ".tsx", ".mts", ".cts"),
    "go": (".go",),
    "rust": (".rs",),
    "java": (".java",),
    "kotlin": (".kt", ".kts"),
    "c": (".c", ".h"),
    "cpp": (".cpp", ".cc", ".cxx", ".hpp", ".hh", ".hxx", ".h"),
    "c++": (".cpp", ".cc", ".cxx", ".hpp", ".hh", ".hxx", ".h"),
    "csharp": (".cs",),
    "ruby": (".rb",),
    "php": (".php",),
    "swift": (".swift",),
    "shell": (".sh", ".bash", ".zsh"),
    "sh": (".sh", ".bash", ".zsh"),
    "markdown": (".md", ".markdown"),
    "md": (".md", ".markdown"),
    "yaml": (".yaml", ".yml"),
    "yml": (".yaml", ".yml"),
    "html": (".html", ".htm"),
    "text": (".txt",),
}


def file_type_suffixes(raw: str | None) -> tuple[str, ...] | None:
    """The lower-case name endings a `fileType` parameter asks for, or None when it asks for none.

    Accepts ".py", "py", "*.py", type names such as "python" or "js", and lists separated by commas
    or spaces ("py, md").
    """
    if raw is None:
        return None
    suffixes: list[str] = []
    for token in raw.replace(",", " ").split():
        name = token.strip().lstrip("*").lower()
        if name in _TYPE_NAMES:
            suffixes.extend(_TYPE_NAMES[name])
        elif name.strip("."):
            suffixes.append("." + name.lstrip("."))
    return tuple(dict.fromkeys(suffixes)) or None
