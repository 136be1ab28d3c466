"""`read_file` of files that are not text: PDFs read as text page by page (`pypdf`), images described.

A PDF's `startLine` / `endLine` select pages (1-based, inclusive); at most `MAX_PAGES` pages and the
context's byte budget are returned at once, with a note saying how to read on. A page without a text
layer (a scan) is said to be one. An image is described (type, size, dimensions) with a note that this
runtime does not send images to the model, so the model can tell the person rather than guess.
"""

from __future__ import annotations

import struct
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import ReadFileArgs
from asi_agent.tools.base import ToolContext

__all__ = ["IMAGE_TYPES", "MAX_PAGES", "is_media", "pdf_text", "read_media"]

MAX_PAGES = 20
IMAGE_TYPES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".gif": "GIF", ".webp": "WebP", ".bmp": "BMP"}
"""Image file suffixes and their names."""


def is_media(path: Path) -> bool:
    """Whether `read_file` reads this file here rather than as text."""
    suffix = path.suffix.lower()
    return (suffix == ".pdf" or suffix in IMAGE_TYPES) and path.is_file()


def read_media(args: ReadFileArgs, ctx: ToolContext, path: Path, shown: str) -> str:
    """The PDF's text (a page range) or the image's description."""
    if path.suffix.lower() == ".pdf":
        return _read_pdf(args, ctx, path, shown)
    data = path.read_bytes()
    kind = IMAGE_TYPES[path.suffix.lower()]
    size = _dimensions(data)
    shape = f", {size[0]}×{size[1]} pixels" if size else ""
    return (
        f"{shown} is an image ({kind}, {len(data):,} bytes{shape}). Images are not sent to the model by this "
        "runtime: if its content matters, say so to the person and ask them to describe it."
    )


def _read_pdf(args: ReadFileArgs, ctx: ToolContext, path: Path, shown: str) -> str:
    from pypdf import PdfReader  # noqa: PLC0415 - only PDFs pay for the library
    from pypdf.errors import PdfReadError  # noqa: PLC0415

    try:
        reader = PdfReader(path)
        total = len(reader.pages)
    except (PdfReadError, OSError, ValueError) as exc:
        raise ToolError(f"{shown} is not a readable PDF ({exc})") from exc
    start = args.startLine or 1
    if not 1 <= start <= max(total, 1):
        pages = "1 page" if total == 1 else f"{total} pages"
        raise ToolError(f"startLine={start} is past the end: {shown} has {pages} (PDF lines are pages)")
    end = min(args.endLine or total, total, start + MAX_PAGES - 1)
    parts: list[str] = []
    used, last = 0, start - 1
    for number in range(start, end + 1):
        text = (reader.pages[number - 1].extract_text() or "").strip()
        block = f"--- page {number} ---\n{text or '(no text on this page: it may be a scanned image)'}"
        if parts and used + len(block) > ctx.read_max_bytes:
            break
        parts.append(block)
        used, last = used + len(block), number
    header = f"{shown} (PDF, {total} {'page' if total == 1 else 'pages'}, pages {start}–{last})"
    if last < total:
        more = f"call read_file with startLine={last + 1} to read more"
        parts.append(f"[showing pages {start}–{last} of {total}; {more}]")
    return "\n".join([header, *parts])


def _dimensions(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG, GIF or JPEG header; None when not found."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return width, height
    at = 2
    while data[:2] == b"\xff\xd8" and at + 9 < len(data):
        marker, length = data[at + 1], struct.unpack(">H", data[at + 2 : at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    return None


def pdf_text(data: bytes) -> str:
    """The text of a whole PDF given as bytes (`web_fetch`), page by page; ToolError when unreadable."""
    import io  # noqa: PLC0415

    from pypdf import PdfReader  # noqa: PLC0415
    from pypdf.errors import PdfReadError  # noqa: PLC0415

    try:
        pages = PdfReader(io.BytesIO(data)).pages
        texts = [(page.extract_text() or "").strip() for page in pages]
    except (PdfReadError, OSError, ValueError) as exc:
        raise ToolError(f"the PDF cannot be read ({exc})") from exc
    blocks = [f"--- page {n} ---\n{text or '(no text on this page)'}" for n, text in enumerate(texts, 1)]
    return "\n".join(blocks)
