"""`list_directory` and `get_project_structure`: what is in the project, within the ignore rules.

Both walk the tree in a worker thread, so that a large project never blocks the event loop.
"""

from __future__ import annotations

import asyncio
import json
import os
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import GetProjectStructureArgs, ListDirectoryArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.ignore import ProjectEntry, file_type_suffixes, iter_project_entries
from asi_agent.tools.paths import display_path

__all__ = ["LIST_LIMIT", "format_size", "get_project_structure", "list_directory"]

LIST_LIMIT = 500
"""At most this many entries are listed; the rest are counted and the model is told how to narrow."""


@dataclass(frozen=True, slots=True)
class _Row:
    """One listed entry with what it is sorted and filtered by."""

    rel: str
    is_dir: bool
    size: int
    mtime: float


async def list_directory(args: ListDirectoryArgs, ctx: ToolContext) -> str:
    """List a folder (optionally recursively), filtered and sorted as the arguments ask."""
    target = ctx.resolve(args.path, write=False)
    shown = display_path(ctx.root, target)
    if not target.exists():
        raise ToolError(
            f"{args.path} does not exist; list the project root with path '.' or find the folder "
            "with file_search"
        )
    if not target.is_dir():
        raise ToolError(
            f"{shown} is a file, not a folder; read it with read_file, or list its folder "
            f"'{display_path(ctx.root, target.parent)}'"
        )
    after = _parse_modified_after(args.modifiedAfter)
    if args.minSize is not None and args.maxSize is not None and args.minSize > args.maxSize:
        raise ToolError(f"minSize ({args.minSize}) is larger than maxSize ({args.maxSize}); swap or drop one")
    rows = await asyncio.to_thread(_collect, ctx.root, target, args, after)
    return _render_listing(shown, rows, args)


async def get_project_structure(args: GetProjectStructureArgs, ctx: ToolContext) -> str:
    """A compact tree of the project, its languages, key files and entry points."""
    del args  # the tool takes no parameters
    return await asyncio.to_thread(render_structure, ctx.root)


def format_size(size: int) -> str:
    """A byte count for people: "512 B", "1.2 KB", "3.4 MB"."""
    if size < 1024:
        return f"{size} B"
    value = float(size)
    for unit in ("KB", "MB", "GB"):
        value /= 1024
        if value < 1024 or unit == "GB":
            break
    return f"{value:.1f} {unit}"


def _parse_modified_after(raw: str | None) -> float | None:
    """`modifiedAfter` as a POSIX time; a date or a datetime without zone means local time."""
    if raw is None or not raw.strip():
        return None
    text = raw.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"  # fromisoformat of Python 3.11 accepts "Z", older code paths may not
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as exc:
        raise ToolError(
            f"modifiedAfter {raw!r} is not an ISO date; use e.g. '2026-01-31' or '2026-01-31T14:30:00'"
        ) from exc
    return moment.timestamp()


def _collect(root: Path, target: Path, args: ListDirectoryArgs, after: float | None) -> list[_Row]:
    """The entries under `target` that pass the filters, sorted as asked."""
    suffixes = file_type_suffixes(args.fileType)
    filtered = suffixes is not None or args.minSize is not None or args.maxSize is not None
    filtered = filtered or after is not None
    depth = None if args.recursive else 1
    rows: list[_Row] = []
    for entry in iter_project_entries(root, start=target, max_depth=depth):
        if entry.is_dir and filtered:
            continue  # folders have no type, size or meaningful date: a filtered listing shows files
        row = _row(entry)
        if row is not None and _keep(row, args, suffixes, after):
            rows.append(row)
    return _sort(rows, args)


def _row(entry: ProjectEntry) -> _Row | None:
    """The entry with its size and modification time, or None if it vanished meanwhile."""
    try:
        info = os.stat(entry.abspath)
    except OSError:
        return None
    return _Row(entry.rel, entry.is_dir, 0 if entry.is_dir else info.st_size, info.st_mtime)


def _keep(row: _Row, args: ListDirectoryArgs, suffixes: tuple[str, ...] | None, after: float | None) -> bool:
    """Whether a row passes the fileType, size and date filters."""
    if suffixes is not None and not row.rel.lower().endswith(suffixes):
        return False
    if args.minSize is not None and row.size < args.minSize:
        return False
    if args.maxSize is not None and row.size > args.maxSize:
        return False
    return after is None or row.mtime > after


def _sort(rows: list[_Row], args: ListDirectoryArgs) -> list[_Row]:
    """Rows in the requested order; ties (and the name order) follow the path, folder before contents."""
    reverse = args.sortOrder == "desc"
    by_path = sorted(rows, key=lambda row: row.rel.split("/"), reverse=reverse)
    if args.sortBy == "size":
        return sorted(by_path, key=lambda row: row.size, reverse=reverse)
    if args.sortBy == "modified":
        return sorted(by_path, key=lambda row: row.mtime, reverse=reverse)
    return by_path


def _render_listing(shown: str, rows: list[_Row], args: ListDirectoryArgs) -> str:
    """One line per entry, capped at `LIST_LIMIT` with a note on how to narrow the listing."""
    if not rows:
        return _empty_note(shown, args)
    lines = [_line(row) for row in rows[:LIST_LIMIT]]
    hidden = len(rows) - LIST_LIMIT
    if hidden > 0:
        lines.append(
            f"… {hidden} more entries not shown ({len(rows)} in total); narrow with fileType, minSize or "
            "modifiedAfter, or list a subfolder" + (" or drop recursive" if args.recursive else "")
        )
    return "\n".join(lines)


def _line(row: _Row) -> str:
    """`path/` for a folder; `path  1.2 KB  2026-11-21 10:00` for a file."""
    if row.is_dir:
        return row.rel + "/"
    stamp = datetime.fromtimestamp(row.mtime).strftime("%Y-%m-%d %H:%M")
    return f"{row.rel}  {format_size(row.size)}  {stamp}"


def _empty_note(shown: str, args: ListDirectoryArgs) -> str:
    """What to say when nothing is listed: an empty folder, or filters that matched nothing."""
    filters = {
        "fileType": args.fileType,
        "minSize": args.minSize,
        "maxSize": args.maxSize,
        "modifiedAfter": args.modifiedAfter,
    }
    used = ", ".join(f"{name}={value!r}" for name, value in filters.items() if value is not None)
    if not used:
        return f"{shown}/ is empty (or holds only ignored files)"
    hint = "" if args.recursive else "; try recursive=true to include subfolders"
    return f"no entries in {shown}/ match {used}{hint}"


# --- get_project_structure ---------------------------------------------------------------------------

_TREE_DEPTHS = (4, 3, 2, 1)
_CHILDREN_SHOWN = 12
_HIDDEN_NAMES = 30
_STRUCTURE_BYTES = 8_000
_WALK_CAP = 50_000

_LANGUAGES: dict[str, str] = {
    **dict.fromkeys((".py", ".pyi"), "Python"),
    **dict.fromkeys((".js", ".mjs", ".cjs", ".jsx"), "JavaScript"),
    **dict.fromkeys((".ts", ".tsx", ".mts", ".cts"), "TypeScript"),
    **dict.fromkeys((".c", ".h"), "C"),
    **dict.fromkeys((".cpp", ".cc", ".cxx", ".hpp", ".hh"), "C++"),
    **dict.fromkeys((".sh", ".bash", ".zsh"), "Shell"),
    **dict.fromkeys((".md", ".markdown", ".rst"), "Markdown/reST"),
    **dict.fromkeys((".yaml", ".yml"), "YAML"),
    **dict.fromkeys((".html", ".htm"), "HTML"),
    **dict.fromkeys((".css", ".scss", ".sass", ".less"), "CSS"),
    **dict.fromkeys((".kt", ".kts"), "Kotlin"),
    ".go": "Go",
    ".rs": "Rust",
    ".java": "Java",
    ".cs": "C#",
    ".rb": "Ruby",
    ".php": "PHP",
    ".swift": "Swift",
    ".scala": "Scala",
    ".lua": "Lua",
    ".sql": "SQL",
    ".vue": "Vue",
    ".json": "JSON",
    ".toml": "TOML",
    ".ipynb": "Jupyter",
}

_KEY_NAMES = frozenset(
    {
        "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "package.json", "Cargo.toml",
        "go.mod", "Makefile", "CMakeLists.txt", "Dockerfile", "docker-compose.yml", "compose.yaml",
        "AGENTS.md", "tox.ini", "noxfile.py", "pom.xml", "build.gradle", "Gemfile", "composer.json",
    }
)  # fmt: skip
_KEY_PREFIXES = ("README", "LICENSE", "LICENCE", "COPYING", "CONTRIBUTING", "CHANGELOG")
_ENTRY_NAMES = frozenset(
    {"__main__.py", "main.py", "manage.py", "index.js", "index.ts", "main.go", "main.rs"}
)


@dataclass(slots=True)
class _Node:
    """A folder of the structure tree: its sub-folders, its file names and its total file count."""

    name: str
    dirs: list[_Node] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    total: int = 0


def render_structure(root: Path) -> str:
    """The whole `get_project_structure` answer for the project at `root`."""
    top, files, complete = _scan(root)
    tree = _fit_tree(top)
    parts = [
        f"Project {top.name}: {_files(top.total)}" + ("" if complete else f" (counted up to {_WALK_CAP})"),
        "",
        tree,
        "",
        "Languages (files): " + _languages(files),
        "Key files: " + (", ".join(_key_files(files)) or "none found"),
        "Entry points: " + ("; ".join(_entry_points(root, files)) or "none found"),
    ]
    return "\n".join(parts)


def _scan(root: Path) -> tuple[_Node, list[str], bool]:
    """The folder tree, the relative paths of all files, and whether the walk was complete."""
    top = _Node(root.resolve().name or "/")
    nodes = {"": top}
    files: list[str] = []
    for entry in iter_project_entries(root):
        parent_rel, _, name = entry.rel.rpartition("/")
        parent = nodes[parent_rel]
        if entry.is_dir:
            nodes[entry.rel] = node = _Node(name)
            parent.dirs.append(node)
            continue
        parent.files.append(name)
        files.append(entry.rel)
        if len(files) >= _WALK_CAP:
            break
    _count(top)
    return top, files, len(files) < _WALK_CAP


def _count(node: _Node) -> int:
    """Fill in every folder's total number of files, below it at any depth."""
    node.total = len(node.files) + sum(_count(child) for child in node.dirs)
    return node.total


def _fit_tree(top: _Node) -> str:
    """The deepest rendering of the tree that fits the size budget."""
    text = ""
    for depth in _TREE_DEPTHS:
        lines = [f"{top.name}/"]
        _render_node(top, 1, depth, lines)
        text = "\n".join(lines)
        if len(text.encode()) <= _STRUCTURE_BYTES:
            return text
    return text[:_STRUCTURE_BYTES] + "\n… (tree cut; use list_directory on a subfolder)"


def _render_node(node: _Node, depth: int, max_depth: int, lines: list[str]) -> None:
    """Append the children of `node`: folders first, collapsed past `_CHILDREN_SHOWN` and `max_depth`."""
    indent = "  " * depth
    dirs = node.dirs[:_CHILDREN_SHOWN]
    files = node.files[: _CHILDREN_SHOWN - len(dirs)]
    for child in dirs:
        if depth < max_depth and (child.dirs or child.files):
            lines.append(f"{indent}{child.name}/")
            _render_node(child, depth + 1, max_depth, lines)
        else:
            lines.append(f"{indent}{child.name}/  ({_files(child.total)})")
    lines.extend(indent + name for name in files)
    if len(node.dirs) > len(dirs):
        hidden = node.dirs[len(dirs) :]
        count = sum(child.total for child in hidden)
        names = ", ".join(child.name + "/" for child in hidden[:_HIDDEN_NAMES])
        more = ", …" if len(hidden) > _HIDDEN_NAMES else ""
        lines.append(f"{indent}… and {len(hidden)} more folders with {_files(count)}: {names}{more}")
    if len(node.files) > len(files):
        hidden_files = node.files[len(files) :]
        lines.append(f"{indent}… and {len(hidden_files)} more files ({_extension_counts(hidden_files)})")


def _files(count: int) -> str:
    """ "1 file", "2 files"."""
    return f"{count} file" if count == 1 else f"{count} files"


def _extension_counts(names: list[str]) -> str:
    """ "`.py: 40, .json: 3`" for the commonest name endings."""
    counts = Counter(os.path.splitext(name)[1] or "no extension" for name in names)
    return ", ".join(f"{ext}: {count}" for ext, count in counts.most_common(5))


def _languages(files: list[str]) -> str:
    """Files per language, commonest first."""
    counts = Counter(_LANGUAGES.get(os.path.splitext(rel)[1].lower(), "other") for rel in files)
    other = counts.pop("other", 0)
    shown = [f"{name} {count}" for name, count in counts.most_common(10)]
    if other:
        shown.append(f"other {other}")
    return ", ".join(shown) or "no files"


def _key_files(files: list[str]) -> list[str]:
    """Build, documentation and agent files at the project root."""
    return [
        rel
        for rel in files
        if "/" not in rel and (rel in _KEY_NAMES or rel.upper().startswith(_KEY_PREFIXES))
    ]


def _entry_points(root: Path, files: list[str]) -> list[str]:
    """Likely entry points: conventional file names near the top, and declared scripts."""
    named = [rel for rel in files if rel.rpartition("/")[2] in _ENTRY_NAMES and rel.count("/") <= 2]
    found = sorted(named, key=lambda rel: rel.count("/"))[:10]
    if "pyproject.toml" in files:
        found.extend(_pyproject_scripts(root / "pyproject.toml"))
    if "package.json" in files:
        found.extend(_package_entries(root / "package.json"))
    return found


def _pyproject_scripts(path: Path) -> list[str]:
    """`[project.scripts]` (and Poetry's scripts) as "pyproject script name = module:function"."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []  # a broken pyproject is reported by the build tools, not by a structure overview
    scripts = dict(data.get("project", {}).get("scripts", {}))
    scripts.update(data.get("tool", {}).get("poetry", {}).get("scripts", {}))
    return [
        f"pyproject script {name} = {target}" for name, target in scripts.items() if isinstance(target, str)
    ]


def _package_entries(path: Path) -> list[str]:
    """`main` and `bin` of package.json."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return []
    if not isinstance(data, dict):
        return []
    found = [f"package.json main = {data['main']}"] if isinstance(data.get("main"), str) else []
    binaries = data.get("bin")
    if isinstance(binaries, str):
        found.append(f"package.json bin = {binaries}")
    elif isinstance(binaries, dict):
        found.extend(f"package.json bin {name} = {target}" for name, target in binaries.items())
    return found
