"""`read_file` of files that are not text: PDFs read as text page by page (`pypdf`), images returned.

A PDF's `startLine` / `endLine` select pages (1-based, inclusive); at most `MAX_PAGES` pages and the
context's byte budget are returned at once, with a note saying how to read on. A page without a text
layer (a scan) is said to be one. An image goes back to a model that reads images (the result carries it:
`WithImages`, sent as the backend's image part); a model that does not (the embedded one) gets its
description (type, size, dimensions) and a note saying it cannot see it, so it can tell the person rather
than guess. The file is read beneath the project without following links, as text files are.
"""

from __future__ import annotations

import base64
from pathlib import Path

from asi_agent.context.images import image_size
from asi_agent.exceptions import ToolError
from asi_agent.messages import Image, WithImages
from asi_agent.tools import beneath
from asi_agent.tools.args import ReadFileArgs
from asi_agent.tools.base import ImageReader, ToolContext
from asi_agent.tools.beneath import Anchored

__all__ = [
    "IMAGE_TYPES", "MAX_IMAGE_BYTES", "MAX_PAGES", "MEDIA_TYPES", "image_of", "is_image", "is_media",
    "pdf_text", "read_media",
]  # fmt: skip

MAX_PAGES = 20
IMAGE_TYPES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".gif": "GIF", ".webp": "WebP", ".bmp": "BMP"}
"""Image file suffixes and their names."""
MEDIA_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
               ".webp": "image/webp"}  # fmt: skip
"""The image types the model APIs take (OpenAI, Ollama, Anthropic); a BMP is only described."""
MAX_IMAGE_BYTES = 5 * 1024 * 1024
"""The largest image sent (the Anthropic API's limit per image); a bigger one is described."""


def is_image(path: Path) -> bool:
    """Whether the file's name says it is an image."""
    return path.suffix.lower() in IMAGE_TYPES


def image_of(data: bytes, path: Path, name: str) -> Image | None:
    """The image to send, or None when its type cannot be sent or it is too big."""
    media_type = MEDIA_TYPES.get(path.suffix.lower())
    if media_type is None or len(data) > MAX_IMAGE_BYTES:
        return None
    return Image(media_type, base64.b64encode(data).decode("ascii"), name)


def is_media(path: Path) -> bool:
    """Whether `read_file` reads this file here rather than as text."""
    suffix = path.suffix.lower()
    return (suffix == ".pdf" or suffix in IMAGE_TYPES) and path.is_file()


async def read_media(args: ReadFileArgs, ctx: ToolContext, path: Path, shown: str, where: Anchored) -> str:
    """The PDF's text (a page range), or the image (with its description)."""
    try:
        data = beneath.read_bytes(where)
    except OSError as exc:
        raise ToolError(f"cannot read {shown}: {exc.strerror or exc}") from exc
    if path.suffix.lower() == ".pdf":
        return _read_pdf(args, ctx, data, shown)
    kind = IMAGE_TYPES[path.suffix.lower()]
    size = image_size(data)
    about = (
        f"{shown} is an image ({kind}, {len(data):,} bytes{', {}×{} pixels'.format(*size) if size else ''})"
    )
    model = ctx.model
    if not (isinstance(model, ImageReader) and await model.accepts_images()):
        return (
            f"{about}. The model of this session does not read images, so it is not shown to you: if its "
            "content matters, say so to the person and ask them to describe it."
        )
    image = image_of(data, path, shown)
    if image is None:
        limit = (
            "over 5 MiB"
            if kind in ("PNG", "JPEG", "GIF", "WebP")
            else f"a {kind}, which model APIs do not take"
        )
        return f"{about}. It is not shown to you: it is {limit}; ask the person to describe it or convert it."
    return WithImages(f"{about}; the image is attached to this result.", (image,))


def _read_pdf(args: ReadFileArgs, ctx: ToolContext, data: bytes, shown: str) -> str:
    import io  # noqa: PLC0415

    from pypdf import PdfReader  # noqa: PLC0415 - only PDFs pay for the library
    from pypdf.errors import PdfReadError  # noqa: PLC0415

    try:
        reader = PdfReader(io.BytesIO(data))
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
