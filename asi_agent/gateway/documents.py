"""The documents of a gateway request (PDFs and text files a client sends) read into text the model reads.

Read: Anthropic `document` blocks (a `base64` PDF, a `text` source, a `content` source of text blocks; also
inside a `tool_result`), Chat Completions `file` parts (`file.file_data`) and Responses `input_file` parts
(`file_data`). Each becomes text in the same place of the turn, wrapped in a header naming the document
(its title or file name, and its pages) and a closing line, so the model sees where it begins and ends.
A PDF is read page by page by the same extractor as `read_file`; an Anthropic document's `context` is kept
as a line under the header; `citations` are not supported (the flag is ignored: the answer carries none).

Refused with a 400 naming the field: a URL or a stored file id (the gateway never fetches), data that is
not base64, a document over `MAX_DOCUMENT_BYTES` or whose text is over `MAX_DOCUMENT_CHARS`, a PDF with no
text to extract (a scan), and a file that is neither a PDF nor UTF-8 text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from asi_agent.exceptions import ToolError
from asi_agent.gateway.errors import BadRequest, data_url, inline_data
from asi_agent.tools.files.media import pdf_text

__all__ = ["DOCUMENT_TYPES", "MAX_DOCUMENT_BYTES", "MAX_DOCUMENT_CHARS", "carries_documents", "part_texts"]

MAX_DOCUMENT_BYTES = 32 * 1024 * 1024
"""The largest document read, decoded (the Anthropic API's limit for a whole request)."""
MAX_DOCUMENT_CHARS = 500_000
"""The most text one document may give the model (about 125,000 tokens)."""
DOCUMENT_TYPES = frozenset({"document", "file", "input_file"})
"""The part types that carry a document: Anthropic, Chat Completions, Responses."""

_PAGE = re.compile(r"^--- page \d+ ---$", re.MULTILINE)
_NO_FETCH = "the gateway never fetches URLs or stored files: send the document's data inline"


def carries_documents(content: Any) -> bool:
    """Whether a list of content parts has a document in it."""
    return isinstance(content, list) and any(
        isinstance(part, Mapping) and part.get("type") in DOCUMENT_TYPES for part in content
    )


def part_texts(content: Any, where: str) -> list[str]:
    """The text of each text part and each document of a list of content parts, in their order."""
    if not isinstance(content, list):
        return []
    texts = []
    for index, part in enumerate(content):
        if not isinstance(part, Mapping):
            continue
        if part.get("type") in DOCUMENT_TYPES:
            texts.append(_document(part, f"{where}.content[{index}]"))
        elif "text" in part:
            texts.append(str(part.get("text") or ""))
    return texts


def _document(part: Mapping[str, Any], where: str) -> str:
    kind = part.get("type")
    if kind == "document":
        return _anthropic(part, where)
    inner = part.get("file") if kind == "file" else part
    if not isinstance(inner, Mapping):
        raise BadRequest(f"{where}: a file part needs a file object with file_data")
    data, name = inner.get("file_data"), str(inner.get("filename") or "")
    if not data:
        stored = "file_url" if inner.get("file_url") else "file_id" if inner.get("file_id") else None
        if stored:
            raise BadRequest(f"{where}: a file given by {stored} cannot be read: {_NO_FETCH}")
        raise BadRequest(f"{where}: a file part needs file_data (a data: URL or base64)")
    return _wrapped(*_read(_decoded(str(data), where), where), name)


def _anthropic(block: Mapping[str, Any], where: str) -> str:
    source = block.get("source")
    kind = source.get("type") if isinstance(source, Mapping) else None
    name, context = str(block.get("title") or ""), str(block.get("context") or "")
    if not isinstance(source, Mapping) or kind in ("url", "file"):
        raise BadRequest(f"{where}: a document source of type {kind!r} cannot be read: {_NO_FETCH}")
    if kind == "base64":
        return _wrapped(*_read(_base64(str(source.get("data") or ""), where), where), name, context)
    if kind == "text":
        return _wrapped(_limited(str(source.get("data") or ""), where), "text", name, context)
    if kind == "content":
        return _wrapped(_limited(_blocks(source.get("content"), where), where), "text", name, context)
    raise BadRequest(f"{where}: a document source must be base64, text or content (not {kind!r})")


def _blocks(content: Any, where: str) -> str:
    """The text of a `content` source: a string, or text blocks (an image in it is not read)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise BadRequest(f"{where}: a content source needs a list of text blocks")
    if any(isinstance(b, Mapping) and b.get("type") != "text" for b in content):
        raise BadRequest(f"{where}: a content document holds only text blocks (send images as image blocks)")
    return "\n".join(str(b.get("text") or "") for b in content if isinstance(b, Mapping))


def _decoded(data: str, where: str) -> bytes:
    """The bytes of a `file_data`: a `data:<type>;base64,` URL or bare base64."""
    return _base64(data_url(data, where)[1] if data.startswith("data:") else data, where)


def _base64(data: str, where: str) -> bytes:
    limit = f"the document limit of {MAX_DOCUMENT_BYTES:,} bytes (32 MiB)"
    return inline_data(data, where, "document", MAX_DOCUMENT_BYTES, limit)[1]


def _read(raw: bytes, where: str) -> tuple[str, str]:
    """The text of a PDF (page by page) or of a UTF-8 text file, and what it is."""
    if raw.startswith(b"%PDF-"):
        return _pdf(raw, where)
    try:
        return _limited(raw.decode("utf-8"), where), "text"
    except UnicodeDecodeError:
        raise BadRequest(f"{where}: the document is neither a PDF nor UTF-8 text") from None


def _pdf(raw: bytes, where: str) -> tuple[str, str]:
    try:
        text = pdf_text(raw)
    except ToolError as exc:
        raise BadRequest(f"{where}: {exc}") from None
    pages = [page.strip() for page in _PAGE.split(text)[1:]]
    if all(page in ("", "(no text on this page)") for page in pages):
        raise BadRequest(
            f"{where}: the PDF has no text to extract (a scanned document?): "
            "send its text, or its pages as images to a model that reads images"
        )
    return _limited(text, where), "PDF, 1 page" if len(pages) == 1 else f"PDF, {len(pages)} pages"


def _limited(text: str, where: str) -> str:
    if len(text) > MAX_DOCUMENT_CHARS:
        limit = f"the document text limit of {MAX_DOCUMENT_CHARS:,} characters"
        raise BadRequest(f"{where}: the document's text is {len(text):,} characters, over {limit}")
    return text


def _wrapped(text: str, kind: str, name: str, context: str = "") -> str:
    """The text between a header naming the document and a closing line."""
    named = f" {name!r}" if name else ""
    lines = [f"[DOCUMENT{named} ({kind})]", *([f"Context: {context}"] if context else []), text.strip()]
    return "\n".join([*lines, f"[END OF DOCUMENT{named}]"])
