"""`@path` mentions: fuzzy completion of project files, and attaching the mentioned files to a message.

An image mentioned (`@shot.png`) or pasted as a path (`/home/me/shot.png`, `'~/My shots/a.png'`,
`file:///…`) goes with the message as an image for a model that reads images (`with_images`); for one
that does not, the message says it was not attached.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from asi_agent.messages import Image
from asi_agent.tools.files.media import MAX_IMAGE_BYTES, image_of, is_image
from asi_agent.tools.ignore import iter_project_files

if TYPE_CHECKING:
    from asi_agent.agent import Agent

__all__ = ["MENTION", "FileIndex", "attach_budget", "expand_mentions", "mentioned_images", "with_images"]

MENTION = re.compile(r"(?:(?<=\s)|^)@([^\s@]+)")
PASTED = re.compile(r"""(?:(?<=\s)|^)(?:'([^'\n]+)'|"([^"\n]+)"|(file://\S+|~?/\S+))""")
"""A path pasted into a message: quoted (it may hold spaces), a `file://` URL, or absolute."""
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
        raw = _mentioned(root, mentioned)
        path = (root / raw).resolve()
        if not path.is_file() or not path.is_relative_to(root) or is_image(path):  # images: `with_images`
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


def _mentioned(root: Path, mentioned: str) -> str:
    # "what is in @app.log?": the sentence's punctuation is not part of the name
    return mentioned if (root / mentioned).is_file() else mentioned.rstrip(".,;:!?)'\"")


def mentioned_images(root: Path, text: str) -> dict[str, Path]:
    """The images a message names, by the name it gives them: `@` mentions of the project's image files,
    and image files pasted as paths (anywhere: the person chose them)."""
    found: dict[str, Path] = {}
    for mentioned in MENTION.findall(text):
        raw = _mentioned(root, mentioned)
        path = (root / raw).resolve()
        if is_image(path) and path.is_file() and path.is_relative_to(root):
            found.setdefault(raw, path)
    for match in PASTED.finditer(text):
        raw = next(group for group in match.groups() if group)
        given = unquote(urlparse(raw).path) if raw.startswith("file://") else raw.rstrip(".,;:!?)")
        path = Path(given).expanduser()
        if path.is_absolute() and is_image(path) and path.is_file():
            found.setdefault(given, path.resolve())
    return found


async def with_images(agent: Agent, root: Path, text: str) -> str:
    """Give the agent's next request the images `text` names (`mentioned_images`); the text is returned
    with a note for each image that could not go (the model does not read images, or the file cannot)."""
    found = mentioned_images(root, text)
    if not found:
        return text
    accepts = await agent.backend.accepts_images()
    images: list[Image] = []
    notes: list[str] = []
    for name, path in found.items():
        try:
            with path.open("rb") as handle:
                data = handle.read(MAX_IMAGE_BYTES + 1)
        except OSError as exc:
            notes.append(f"[{name} was not attached: {exc.strerror or exc}]")
            continue
        image = image_of(data, path, name) if accepts else None
        if image is not None:
            images.append(image)
        elif not accepts:
            notes.append(f"[{name} was not attached: the model of this session does not read images]")
        else:
            notes.append(f"[{name} was not attached: over 5 MiB, or not a PNG, JPEG, GIF or WebP]")
    agent.images = (*agent.images, *images)
    return "\n\n".join([text, *notes]) if notes else text
