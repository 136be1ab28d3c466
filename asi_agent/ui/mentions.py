"""`@path` mentions: fuzzy completion of project files, and attaching the mentioned files to a message."""

from __future__ import annotations

import re
from pathlib import Path

from asi_agent.tools.ignore import iter_project_files

__all__ = ["MENTION", "FileIndex", "attach_budget", "expand_mentions"]

MENTION = re.compile(r"(?:(?<=\s)|^)@([^\s@]+)")
ATTACH_MAX = 40_000
"""Characters of one attached file; the model can read the rest with read_file."""
LIST_MAX = 20_000


class FileIndex:
    """The project's files (ignore rules applied), listed once and ranked by fuzzy match."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: list[str] | None = None

    def files(self) -> list[str]:
        """Relative paths, POSIX style."""
        if self._files is None:
            found = []
            for path in iter_project_files(self.root):
                found.append(path.relative_to(self.root).as_posix())
                if len(found) >= LIST_MAX:
                    break
            self._files = sorted(found)
        return self._files

    def refresh(self) -> None:
        """Forget the listing (files were created or deleted)."""
        self._files = None

    def complete(self, fragment: str, limit: int = 8) -> list[str]:
        """The best matches for a typed fragment: prefix matches first, then fuzzy ones."""
        from rapidfuzz import fuzz, process  # noqa: PLC0415 - only while typing a mention

        files = self.files()
        if not fragment:
            return files[:limit]
        starts = [f for f in files if f.startswith(fragment)]
        ranked = process.extract(fragment, files, scorer=fuzz.WRatio, limit=limit * 2, score_cutoff=50)
        fuzzy = [name for name, _score, _i in ranked if name not in starts]
        return (starts + fuzzy)[:limit]


def attach_budget(window: int | None, left: int | None = None) -> int:
    """Characters the files attached to one message may take: a third of what the model's context window
    has left (about three characters a token), at most `ATTACH_MAX`; `ATTACH_MAX` when the window is
    unknown. A bigger file is cut: the model reads the rest with read_file."""
    if window is None:
        return ATTACH_MAX
    tokens = min(window, left) if left is not None else window
    return max(0, min(ATTACH_MAX, tokens // 3 * 3))


def expand_mentions(root: Path, text: str, budget: int = ATTACH_MAX) -> str:
    """The message with every `@path` of an existing project file attached below it, all of them within
    `budget` characters (`attach_budget`); what does not fit is named, not inlined."""
    attached: list[str] = []
    for mentioned in dict.fromkeys(MENTION.findall(text)):
        # "what is in @app.log?": the sentence's punctuation is not part of the name
        raw = mentioned if (root / mentioned).is_file() else mentioned.rstrip(".,;:!?)'\"")
        path = (root / raw).resolve()
        if not path.is_file() or not path.is_relative_to(root):
            continue
        with path.open(encoding="utf-8", errors="replace") as handle:
            content = handle.read(budget + 1)  # a 50 MB log is never read whole
        if len(content) > budget:
            size = path.stat().st_size
            content = content[:budget]
            more = (
                f"\n[… the first {len(content):,} characters of {size:,} bytes are attached; the rest does "
                "not fit the model's context window: read it with read_file or search it with grep_search]"
            )
        else:
            more = ""
        budget -= len(content)
        attached.append(f'<file path="{raw}">\n{content}{more}\n</file>')
    return "\n\n".join([text, *attached]) if attached else text
