"""What the project holds, as choices for a small model: its files and folders, ranked by the task's words."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from asi_agent.exceptions import ModelFixableError
from asi_agent.tools import beneath
from asi_agent.tools.beneath import LinkOnPathError, anchor
from asi_agent.tools.ignore import iter_project_entries
from asi_agent.tools.paths import resolve_in_project

__all__ = ["ProjectView"]

_SCAN_LIMIT = 20_000  # entries; a bigger project is ranked on what was seen first
_NEW_FILE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]*[A-Za-z_][\w-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?![\w/])")


@dataclass(frozen=True, slots=True)
class ProjectView:
    """The project's files and folders (relative POSIX paths, the root as `.`), walked once per run."""

    root: Path
    files: tuple[str, ...]
    dirs: tuple[str, ...]

    @classmethod
    def scan(cls, root: Path) -> ProjectView:
        """Walk the project with its ignore rules (`.git/`, `.asi/`, `.gitignore`d files left out)."""
        files: list[str] = []
        dirs: list[str] = ["."]
        for count, entry in enumerate(iter_project_entries(root)):
            if count >= _SCAN_LIMIT:
                break
            rel = entry.path.relative_to(root).as_posix()
            (dirs if entry.is_dir else files).append(rel)
        return cls(root, tuple(files), tuple(dirs))

    def mentioned_files(self, task: str) -> list[str]:
        """Files the task names, by path or by file name, best match first."""
        return [path for path in self._ranked(self.files, task) if _mention(path, task) >= 2]

    def mentioned_dirs(self, task: str) -> list[str]:
        """Folders the task names (a folder's own name as a word counts)."""
        return [path for path in self._ranked(self.dirs, task) if path != "." and _mention(path, task) >= 1]

    def ranked_files(self, task: str, limit: int) -> list[str]:
        """At most `limit` files, those the task names first, then those sharing its words, then the rest."""
        return self._ranked(self.files, task)[:limit]

    def new_files(self, task: str) -> list[str]:
        """File names the task mentions that do not exist yet (what a `create` task means to make)."""
        existing = set(self.files)
        return [name for name in dict.fromkeys(_NEW_FILE.findall(task)) if name not in existing]

    def tree(self, max_entries: int) -> str | None:
        """The file list as text, or None when the project has more than `max_entries` files."""
        if len(self.files) > max_entries:
            return None
        return "\n".join(self.files) if self.files else "(no files)"

    def small_text(self, rel: str, max_bytes: int) -> str | None:
        """The text of a small UTF-8 file of the project, else None (a link leading out included).

        Opened as the file tools open files: resolved inside the project, then walked beneath the root
        with no link followed, so a link swapped in cannot bring an outside file into the prompt."""
        try:
            fd = self._open(rel)
        except (OSError, ModelFixableError):
            return None
        with os.fdopen(fd, "rb") as handle:
            if os.fstat(fd).st_size > max_bytes:
                return None
            try:
                return handle.read().decode("utf-8")
            except UnicodeDecodeError:
                return None

    def _open(self, rel: str) -> int:
        """A descriptor of the file; a link on its path is followed only as far as it stays inside."""
        try:
            return beneath.open_regular(anchor(self.root / rel, (self.root,)))
        except LinkOnPathError:  # rare: resolve it first, as the file tools do (slower)
            return beneath.open_regular(anchor(resolve_in_project(self.root, rel, write=False), (self.root,)))

    def _ranked(self, paths: tuple[str, ...], task: str) -> list[str]:
        words = {w.lower() for w in re.findall(r"[A-Za-z0-9_]+", task)}
        return sorted(paths, key=lambda p: (-_mention(p, task), -_overlap(p, words), p.count("/"), p))


def _mention(path: str, task: str) -> int:
    """3: the path is in the task; 2: its file name; 1: its stem or a folder name as a word; 0: none."""
    text = task.lower()
    pure = PurePosixPath(path.lower())
    if len(pure.parts) > 1 and _word_in(str(pure), text):
        return 3
    if _word_in(pure.name, text):
        return 2
    return 1 if len(pure.stem) > 2 and _word_in(pure.stem, text) else 0


def _word_in(needle: str, text: str) -> bool:
    if needle not in text:  # most paths are not in the task: no pattern to build (20k paths, every turn)
        return False
    return re.search(rf"(?<![\w./-]){re.escape(needle)}(?![\w/-]|\.\w)", text) is not None


def _overlap(path: str, words: set[str]) -> int:
    return len(set(re.findall(r"[a-z0-9_]+", path.lower())) & words)
