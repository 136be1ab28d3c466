"""Instruction files beyond the project root's: `@path` imports, and the files of sub-folders.

- **Imports.** A line of an instruction file that holds only `@path` (outside code fences) is replaced by
  that file's text, as Claude Code and gemini-cli read their memory files. The path is relative to the
  importing file; imports nest up to `MAX_DEPTH` levels, each file is read once, and a path that leaves
  the folder it must stay in (the project, or the user configuration folder for the user prompt) is left
  as it was, links resolved.
- **Sub-folders.** When `read_file` reads a file below the root, the instruction files of the folders from
  the root down to it (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, `QWEN.md`) that were not read yet are added
  to its result once per session (`nested_instructions`).
"""

from __future__ import annotations

import re
from collections.abc import MutableSet
from pathlib import Path

__all__ = ["MAX_DEPTH", "NESTED_KEY", "NESTED_NAMES", "expand_imports", "nested_instructions"]

MAX_DEPTH = 5
NESTED_NAMES = ("AGENTS.md", "CLAUDE.md", "GEMINI.md", "QWEN.md")
"""The instruction files looked for in sub-folders."""
NESTED_KEY = "asi_agent.instructions"
"""`ctx.state`: the sub-folder instruction files already given this session."""
MAX_NESTED_CHARS = 8000
_IMPORT = re.compile(r"^\s*@(?P<path>[^\s`]+)\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except OSError:
        return False


def expand_imports(
    text: str, source: Path, within: Path, *, depth: int = 0, seen: set[Path] | None = None
) -> str:
    """`text` (of the file `source`) with its `@path` lines replaced by the files they name."""
    seen = {source.resolve()} if seen is None else seen
    out: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        match = None if fenced or depth >= MAX_DEPTH else _IMPORT.match(line)
        target = (source.parent / match["path"]) if match else None
        if target is None or not _inside(target, within) or target.resolve() in seen or not target.is_file():
            out.append(line)
            continue
        seen.add(target.resolve())
        try:
            imported = target.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            out.append(line)
            continue
        out.append(expand_imports(imported, target, within, depth=depth + 1, seen=seen))
    return "\n".join(out)


def nested_instructions(root: Path, path: Path, given: MutableSet[Path]) -> str:
    """The instruction files of the folders between `root` (excluded: its files are in the system prompt)
    and `path`'s folder that are not in `given` yet, as text to add to a result; "" when there are none."""
    try:
        relative = path.resolve().parent.relative_to(root.resolve())
    except (OSError, ValueError):
        return ""
    parts: list[str] = []
    folder = root.resolve()
    for name in relative.parts:
        folder = folder / name
        for file_name in NESTED_NAMES:
            candidate = folder / file_name
            if candidate in given or not candidate.is_file() or not _inside(candidate, root):
                continue
            given.add(candidate)
            try:
                text = candidate.read_text(encoding="utf-8").strip()[:MAX_NESTED_CHARS]
            except (OSError, UnicodeDecodeError):
                continue
            shown = candidate.relative_to(root.resolve()).as_posix()
            text = expand_imports(text, candidate, root)
            where = shown.rsplit("/", 1)[0]
            parts.append(f"[Instructions for {where}/ from {shown}; follow them there:]\n{text}")
    return "\n\n".join(parts)
