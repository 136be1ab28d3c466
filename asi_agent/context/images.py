"""What an image costs in a model's context, from its width and height (read from the image's header).

The rule is the one of the API the model is reached through:
- Anthropic: an image is scaled to a long edge of at most 1568 pixels and about 1.15 megapixels, then
  costs width × height / 750 tokens (at most ~1,600).
- OpenAI and every other server (OpenAI-compatible, Ollama): OpenAI's high-detail tile rule — scaled to fit
  2048 × 2048, then its short side to at most 768; 170 tokens per 512-pixel tile, plus 85.
An image whose size cannot be read (an image URL, a header not understood) counts `UNKNOWN_IMAGE_TOKENS`.
These are the APIs' published rules; a local vision model's projector may charge otherwise, which the
estimate's calibration on the prompt sizes the server reports then corrects.
"""

from __future__ import annotations

import base64
import binascii
import math
import struct
from typing import Literal

from asi_agent.messages import Image

__all__ = ["UNKNOWN_IMAGE_TOKENS", "ImageRule", "image_rule", "image_size", "image_tokens"]

ImageRule = Literal["openai", "anthropic"]
UNKNOWN_IMAGE_TOKENS = 1600
"""Tokens counted for an image of unknown size: about the most either rule charges for one image."""
_HEADER_BYTES = 64 * 1024
"""Bytes decoded to look for a JPEG's size (EXIF data may come first); PNG, GIF and WebP need 30."""


def image_rule(backend: object) -> ImageRule:
    """The rule of the API behind `backend` (followed through wrappers that keep it as `inner`)."""
    for _ in range(8):
        inner = getattr(backend, "inner", None)
        if inner is None:
            break
        backend = inner
    return "anthropic" if type(backend).__module__.endswith(".anthropic") else "openai"


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG, GIF, JPEG or WebP header; None when not found."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return width, height
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        return _webp_size(data)
    at = 2
    while data[:2] == b"\xff\xd8" and at + 9 < len(data):
        marker, length = data[at + 1], struct.unpack(">H", data[at + 2 : at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    kind = data[12:16]
    if kind == b"VP8X":
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    if kind == b"VP8L" and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _decoded_head(image: Image) -> bytes:
    """The first bytes of the image (enough for its header), without decoding all of it."""
    head = image.data[: _HEADER_BYTES * 4 // 3]
    head = head[: len(head) - len(head) % 4]
    try:
        return base64.b64decode(head)
    except (binascii.Error, ValueError):
        return b""


def image_tokens(image: Image, rule: ImageRule = "openai") -> int:
    """Tokens the image costs under `rule` (see the module's docstring)."""
    size = image_size(_decoded_head(image)) if image.data else None
    if size is None or min(size) <= 0:
        return UNKNOWN_IMAGE_TOKENS
    width, height = size
    if rule == "anthropic":
        scale = min(1.0, 1568 / max(width, height), math.sqrt(1_150_000 / (width * height)))
        return max(1, math.ceil(width * scale * height * scale / 750))
    scale = min(1.0, 2048 / max(width, height))
    scale *= min(1.0, 768 / (min(width, height) * scale))
    tiles = math.ceil(width * scale / 512) * math.ceil(height * scale / 512)
    return 85 + 170 * tiles
