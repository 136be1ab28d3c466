"""A prompt's content blocks as the agent's task: text, the files the editor attached, and its cursor.

Editors attach files as resource links (`file:///…`) or embed their text (`resource`); a link or
resource whose URI ends in a line fragment (`#L12`, `#L12:20`, `#L12-20`, as Zed writes selections)
is also the cursor that `get_cursor_context` starts from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from acp.schema import (
    EmbeddedResourceContentBlock,
    ImageContentBlock,
    ResourceContentBlock,
    TextContentBlock,
    TextResourceContents,
)

from asi_agent.messages import Image
from asi_agent.tools.base import Cursor
from asi_agent.tools.files.media import MAX_IMAGE_BYTES, MEDIA_TYPES

__all__ = ["Prompt"]

LINES = re.compile(r"^L(?P<line>\d+)(?:[:-]L?(?P<end>\d+))?$")


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the person sent: the task text, the cursor when the editor gave one, and its images."""

    text: str
    cursor: Cursor | None = None
    images: tuple[Image, ...] = ()
    """The prompt's image blocks (for a model that reads images); those that cannot go are named in `text`."""

    @classmethod
    def of(cls, blocks: list[Any], root: Path) -> Prompt:
        """The task made of the blocks in order; embedded files are appended after it, each once."""
        parts: list[str] = []
        attached: dict[str, str] = {}
        cursor: Cursor | None = None
        images: list[Image] = []
        for block in blocks:
            if isinstance(block, TextContentBlock):
                parts.append(block.text)
            elif isinstance(block, ImageContentBlock):
                image = _image(block, len(images) + 1)
                images += [image] if image is not None else []
                if image is None:
                    parts.append(
                        f"(an image of type {block.mime_type} was left out: over 5 MiB, or a type not sent)"
                    )
            elif isinstance(block, ResourceContentBlock | EmbeddedResourceContentBlock):
                uri = block.uri if isinstance(block, ResourceContentBlock) else block.resource.uri
                path, line = _location(uri)
                shown = _shown(path, root) if path is not None else uri
                parts.append(f"@{shown}" + (f":{line}" if line else ""))
                if isinstance(block, EmbeddedResourceContentBlock) and isinstance(
                    block.resource, TextResourceContents
                ):
                    attached.setdefault(shown, block.resource.text)
                if path is not None and line is not None:
                    cursor = Cursor(path, line, 1)
            else:
                parts.append(
                    f"(a {getattr(block, 'type', 'non-text')} attachment was left out: asi-agent reads text)"
                )
        text = _joined(parts)
        for shown, body in attached.items():
            text += f"\n\n{shown} (as open in the editor):\n```\n{body.rstrip()}\n```"
        return cls(text, cursor, tuple(images))


def _image(block: ImageContentBlock, number: int) -> Image | None:
    """The block as an image to send, or None when its type is not one the model APIs take, or too big."""
    if block.mime_type not in MEDIA_TYPES.values() or len(block.data) * 3 // 4 > MAX_IMAGE_BYTES:
        return None
    name = _location(block.uri)[0] if block.uri else None
    return Image(block.mime_type, block.data, name.name if name is not None else f"image {number}")


def _location(uri: str) -> tuple[Path | None, int | None]:
    """The file and the first line a `file://` URI names; (None, None) for other URIs."""
    parsed = urlparse(uri)
    if parsed.scheme not in ("file", ""):
        return None, None
    path = Path(unquote(parsed.path))
    if not path.is_absolute():
        return None, None
    found = LINES.match(parsed.fragment)
    return path, int(found["line"]) if found else None


def _shown(path: Path, root: Path) -> str:
    """A project file's path relative to the project, any other file's absolute path."""
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _joined(parts: list[str]) -> str:
    """The blocks' texts as one text, a space between two blocks that have none at their meeting."""
    text = ""
    for part in parts:
        if text and part and not text[-1].isspace() and not part[0].isspace():
            text += " "
        text += part
    return text.strip()
