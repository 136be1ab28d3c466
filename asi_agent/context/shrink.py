"""Large tool results cut to their head and tail, the full text saved under `.asi/outputs/`; the images of
an older result left out (the file can be read again)."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path

from asi_agent.messages import Message
from asi_agent.state import ensure_state_dir

__all__ = ["IMAGES_MARK", "SHRUNK_MARK", "drop_images", "is_shrunk", "shrink_result"]

SHRUNK_MARK = "[… {omitted} characters cut to fit the context window; full text: {where} …]"
"""The line that replaces the middle of a shrunk result."""
IMAGES_MARK = "[{names} left out to fit the context window: read it again to see it]"
"""The line that takes the place of a result's images."""

_MARK_RE = re.compile(r"^\[… \d+ characters cut to fit the context window; full text: ", re.MULTILINE)
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def is_shrunk(message: Message) -> bool:
    """Whether a tool result was already shrunk."""
    return bool(_MARK_RE.search(message.content))


def shrink_result(message: Message, keep_chars: int, state_dir: Path | None) -> Message:
    """The message with its content cut to about `keep_chars` (head and tail, whole lines where possible).

    The full text goes to `<state_dir>/outputs/`, and the cut names that file so the model can read
    it back; with no state folder the cut says the text is gone.
    """
    text = message.content
    if len(text) <= keep_chars or is_shrunk(message):
        return message
    where = _save(message, state_dir) if state_dir is not None else "not kept"
    head_chars = keep_chars * 3 // 5
    head = _cut_at_line(text[:head_chars], from_end=False)
    tail = _cut_at_line(text[len(text) - (keep_chars - head_chars) :], from_end=True)
    omitted = len(text) - len(head) - len(tail)
    mark = SHRUNK_MARK.format(omitted=omitted, where=where)
    return replace(message, content=f"{head}\n{mark}\n{tail}")


def drop_images(message: Message) -> Message:
    """The message without its images (the files are still there), a line naming them in their place."""
    if not message.images:
        return message
    names = ", ".join(f"the image {image.name}" if image.name else "an image" for image in message.images)
    return replace(message, content=f"{message.content}\n{IMAGES_MARK.format(names=names)}", images=())


def _cut_at_line(piece: str, *, from_end: bool) -> str:
    """Drop a partial first (tail) or last (head) line, unless that would drop most of the piece."""
    cut = piece.find("\n") + 1 if from_end else piece.rfind("\n")
    if from_end:
        return piece[cut:] if 0 < cut < len(piece) // 2 else piece
    return piece[:cut] if cut > len(piece) // 2 else piece


def _save(message: Message, state_dir: Path) -> str:
    folder = ensure_state_dir(state_dir, "outputs")
    name = _SAFE.sub("-", f"{message.name or 'tool'}-{message.tool_call_id or 'result'}")
    path = folder / f"{time.strftime('%Y%m%d-%H%M%S')}-{name}.txt"
    path.write_text(message.content, encoding="utf-8")
    return f".asi/outputs/{path.name}"
