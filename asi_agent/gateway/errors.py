"""The error of a request the gateway cannot take, shared by the readers of every API, and the check of the
inline (base64) data images and documents carry."""

from __future__ import annotations

import base64
import binascii

__all__ = ["BadRequest", "data_url", "inline_data"]


class BadRequest(ValueError):
    """A request the gateway cannot read; its message says which field and why (HTTP 400)."""


def data_url(url: str, where: str) -> tuple[str, str]:
    """The media type and the base64 data of a `data:<type>;base64,<data>` URL; BadRequest otherwise."""
    header, comma, data = url[5:].partition(",")
    if not url.startswith("data:") or not comma or not header.lower().endswith(";base64"):
        raise BadRequest(f"{where}: a data: URL must be data:<type>;base64,<data>")
    return header.partition(";")[0], data


def inline_data(data: str, where: str, what: str, limit: int, limit_text: str) -> tuple[str, bytes]:
    """Base64 `data` of an image or a document (`what`) without its whitespace, and its bytes; BadRequest
    when it is not base64 or its bytes are over `limit` (`limit_text` names the limit)."""
    compact = "".join(data.split())
    try:
        raw = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        raise BadRequest(f"{where}: the {what} data is not valid base64") from None
    if len(raw) > limit:
        raise BadRequest(f"{where}: the {what} is {len(raw):,} bytes, over {limit_text}")
    return compact, raw
