"""The images of a gateway request, read into the runtime's `Image` and checked against the upstream.

Read: OpenAI `image_url` parts (a `data:` URL or an http(s) URL), Anthropic `image` blocks (a base64 or a
`url` source, also inside a `tool_result`), Responses `input_image` parts. An inline image is held to the
agent's own limits: a PNG, JPEG, GIF or WebP of at most 5 MiB. An http(s) URL is never fetched by the
gateway (a client must not make it reach addresses only it can see): it is passed on to an upstream whose
API takes image URLs, and refused for any other. A request with images for a model that does not read
images is refused with an error naming the model, as the model APIs themselves answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from asi_agent.backends.base import Backend
from asi_agent.gateway.errors import BadRequest, data_url, inline_data
from asi_agent.messages import Image, Message
from asi_agent.tools.files.media import MAX_IMAGE_BYTES, MEDIA_TYPES

__all__ = ["anthropic_images", "check_images", "openai_images", "responses_images"]

_TYPES = frozenset(MEDIA_TYPES.values())
_SHOWN_TYPES = ", ".join(sorted(_TYPES))


def _inline(media_type: str, data: str, where: str) -> Image:
    """An image given as base64 bytes, checked for type and size."""
    media_type = media_type.strip().lower()
    if media_type not in _TYPES:
        raise BadRequest(f"{where}: image type {media_type or '(none)'!r} is not taken (use {_SHOWN_TYPES})")
    limit = f"the limit of {MAX_IMAGE_BYTES:,} (5 MiB)"
    compact, _raw = inline_data(data, where, "image", MAX_IMAGE_BYTES, limit)
    return Image(media_type, compact)


def _from_url(url: Any, where: str) -> Image:
    """An image given as a URL: a `data:` URL is read here, an http(s) one kept for the upstream."""
    if not isinstance(url, str) or not url:
        raise BadRequest(f"{where}: an image needs a URL (a data: URL or an http(s) address)")
    if url.startswith("data:"):
        return _inline(*data_url(url, where), where)
    if url.lower().startswith(("http://", "https://")):
        return Image("", "", url=url)
    raise BadRequest(f"{where}: an image URL must be a data: URL or an http(s) address")


def _parts(content: Any) -> list[tuple[int, Mapping[str, Any]]]:
    if not isinstance(content, list):
        return []
    return [(index, part) for index, part in enumerate(content) if isinstance(part, Mapping)]


def openai_images(content: Any, where: str) -> tuple[Image, ...]:
    """The `image_url` parts of a Chat Completions message's content."""
    images = []
    for index, part in _parts(content):
        if part.get("type") == "image_url":
            raw = part.get("image_url")
            url = raw.get("url") if isinstance(raw, Mapping) else raw
            images.append(_from_url(url, f"{where}.content[{index}]"))
    return tuple(images)


def responses_images(content: Any, where: str) -> tuple[Image, ...]:
    """The `input_image` parts of a Responses message (or of a function call's output)."""
    images = []
    for index, part in _parts(content):
        if part.get("type") == "input_image":
            at = f"{where}.content[{index}]"
            if part.get("file_id") and not part.get("image_url"):
                raise BadRequest(f"{at}: images stored by file_id cannot be read here; send an image_url")
            images.append(_from_url(part.get("image_url"), at))
    return tuple(images)


def anthropic_images(blocks: Any, where: str) -> tuple[Image, ...]:
    """The `image` blocks of an Anthropic message's (or a tool result's) content."""
    return tuple(
        _anthropic_image(block.get("source"), f"{where}.content[{index}]")
        for index, block in _parts(blocks)
        if block.get("type") == "image"
    )


def _anthropic_image(source: Any, where: str) -> Image:
    kind = source.get("type") if isinstance(source, Mapping) else None
    if kind == "base64":
        return _inline(str(source.get("media_type") or ""), str(source.get("data") or ""), where)
    if kind == "url":
        return _from_url(source.get("url"), where)
    raise BadRequest(f"{where}: an image source must be base64 or url (not {kind!r})")


async def check_images(messages: Sequence[Message], backend: Backend, *, takes_urls: bool) -> None:
    """Refuse (BadRequest) images the upstream cannot be given: any, to a model that does not read images;
    an http(s) URL, to an upstream whose API takes only inline images."""
    images = [image for message in messages for image in message.images]
    if not images:
        return
    model = backend.model_name
    if not await backend.accepts_images():
        count = "an image" if len(images) == 1 else f"{len(images)} images"
        raise BadRequest(
            f"model {model!r} does not read images, and the request carries {count}: "
            "send text only, or serve a model that reads images"
        )
    if not takes_urls and any(image.url for image in images):
        raise BadRequest(
            f"model {model!r} takes only inline images, and the gateway does not fetch image URLs: "
            "send the image as a data: URL (Anthropic: a base64 source)"
        )
