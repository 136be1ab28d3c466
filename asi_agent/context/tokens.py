"""Token counts: the model's own tokenizer when its server offers one, else an estimate calibrated on usage.

The estimate (about 4 ASCII characters per token, one token per other character) is multiplied by a
ratio learned from the prompt sizes the server reports, so it converges on the model's real tokenizer.
The images a message carries count by the rule of the model's API (`asi_agent.context.images`).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Awaitable, Callable, Sequence

from asi_agent.context.images import ImageRule, image_tokens
from asi_agent.messages import Image, Message

__all__ = ["MESSAGE_OVERHEAD", "TokenCounter", "Tokenizer", "estimate_tokens"]

MESSAGE_OVERHEAD = 4
"""Tokens a chat template adds around each message (role markers, separators)."""

Tokenizer = Callable[[str], Awaitable[int | None]]
"""The model's tokenizer: the token count of a text, or None when the server cannot say."""

_MIN_RATIO, _MAX_RATIO = 0.7, 4.0


def estimate_tokens(text: str) -> int:
    """A rough count: ~4 ASCII characters per token, ~1 token per other character (CJK, ...)."""
    non_ascii = len(text) - len(text.encode("ascii", "ignore"))
    return math.ceil((len(text) - non_ascii) / 4) + non_ascii


def message_text(message: Message) -> str:
    """Everything of a message that reaches the model as tokens."""
    calls = [json.dumps(c.to_dict(), ensure_ascii=False) for c in message.tool_calls]
    return "\n".join([message.content, *calls])


class TokenCounter:
    """Counts tokens of messages; caches per message, so each is tokenized once."""

    def __init__(self, tokenizer: Tokenizer | None = None, *, images: ImageRule = "openai") -> None:
        self._tokenizer = tokenizer
        self._cache: dict[str, int] = {}
        self.image_rule: ImageRule = images
        """How an image is counted: by the rule of the model's API."""
        self._image_cache: dict[int, int] = {}
        self.ratio = 1.0
        """Real tokens per estimated token, learned from the server's reported usage."""
        self.exact = tokenizer is not None
        """Whether counts come from the model's tokenizer (until it fails once)."""

    async def text(self, text: str) -> int:
        """Tokens of one text."""
        key = hashlib.sha1(text.encode("utf-8", "replace")).hexdigest()
        cached = self._cache.get(key)
        if cached is not None:
            return cached if self.exact else math.ceil(cached * self.ratio)
        if self.exact and self._tokenizer is not None:
            counted = await self._tokenizer(text)
            if counted is not None:
                self._cache[key] = counted
                return counted
            self.exact = False  # the server stopped answering: estimate from now on
            self._cache.clear()
        self._cache[key] = estimate_tokens(text)
        return math.ceil(self._cache[key] * self.ratio)

    async def message(self, message: Message) -> int:
        """Tokens of one message, template overhead and images included."""
        pictures = sum(self.image(image) for image in message.images)
        return await self.text(message_text(message)) + MESSAGE_OVERHEAD + pictures

    def image(self, image: Image) -> int:
        """Tokens of one image (by its size, cached by its data: the header is read once)."""
        key = hash(image.data or image.url)  # a str caches its hash: no rehashing of megabytes
        cached = self._image_cache.get(key)
        if cached is None:
            cached = self._image_cache[key] = image_tokens(image, self.image_rule)
        return cached

    async def messages(self, messages: Sequence[Message]) -> int:
        """Tokens of a whole history."""
        return sum([await self.message(m) for m in messages])

    def calibrate(self, counted: int, reported: int) -> None:
        """Learn from a request we counted as `counted` tokens that the server reported as `reported`."""
        if self.exact or counted <= 0 or reported <= 0:
            return
        observed = reported / (counted / self.ratio)
        if observed >= self.ratio:
            # Counting too low costs an overflow: move most of the way up at once.
            self.ratio = min(_MAX_RATIO, 0.3 * self.ratio + 0.7 * observed)
        else:
            # A server reusing a cached prefix may report fewer prompt tokens than sent: come down slowly.
            self.ratio = max(_MIN_RATIO, 0.9 * self.ratio + 0.1 * observed)

    def distrust(self) -> None:
        """The server said the prompt did not fit although we counted it would: count more cautiously."""
        if self.exact:
            self.exact = False
            self._cache.clear()
        self.ratio = min(_MAX_RATIO, self.ratio * 1.25)
