"""What a model server says about itself, and what its replies give away.

- `read_props`: llama.cpp's `GET /props` — whether the chat template renders tools
  (`chat_template_caps.supports_tools`, or the older top-level `supports_tools`), the template itself
  (`chat_template`) and the context size.
- `tools_unrendered`: the cheap consistency check — tools were sent, but the prompt's token count is
  too small to hold them, so the server dropped them without saying so.
- `ModelNameCheck`: the model name the server answers with, compared once with the one asked for.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx2

from asi_agent.backends.retry import estimate_tokens
from asi_agent.backends.tls import verify_for

__all__ = [
    "ModelNameCheck",
    "ServerProps",
    "dropped_tools",
    "read_props",
    "same_model",
    "tools_unrendered",
]

logger = logging.getLogger("asi_agent.backends.capabilities")

_PROBE_TIMEOUT = 3.0
_MIN_TOOL_TOKENS = 150  # below this, tools are too small for the token count to tell anything


@dataclass(frozen=True, slots=True)
class ServerProps:
    """What llama.cpp's `/props` told: None where it said nothing."""

    supports_tools: bool | None = None
    n_ctx: int | None = None
    chat_template: str | None = None
    """The model's Jinja chat template (`chat_template`)."""
    vision: bool | None = None
    """Whether the server reads images (`modalities.vision`, with a multimodal projector loaded)."""


async def read_props(base_url: str, headers: dict[str, str]) -> ServerProps | None:
    """llama.cpp's `/props` (at the root, beside `/v1`), or None when the server has no such endpoint."""
    root = base_url.rstrip("/").removesuffix("/v1")
    try:
        verify = verify_for(base_url)
        async with httpx2.AsyncClient(timeout=_PROBE_TIMEOUT, headers=headers, verify=verify) as client:
            response = await client.get(f"{root}/props")
        data = response.json() if response.status_code == 200 else None
    except (httpx2.HTTPError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    template = data.get("chat_template")
    return ServerProps(
        supports_tools=_supports_tools(data),
        n_ctx=_n_ctx(data),
        chat_template=template if isinstance(template, str) and template.strip() else None,
        vision=_vision(data),
    )


def _vision(data: dict[str, Any]) -> bool | None:
    modalities = data.get("modalities")
    value = modalities.get("vision") if isinstance(modalities, dict) else None
    return value if isinstance(value, bool) else None


def _supports_tools(data: dict[str, Any]) -> bool | None:
    caps = data.get("chat_template_caps")
    if isinstance(caps, dict) and isinstance(caps.get("supports_tools"), bool):
        return bool(caps["supports_tools"])
    value = data.get("supports_tools")
    return value if isinstance(value, bool) else None


def _n_ctx(data: dict[str, Any]) -> int | None:
    settings = data.get("default_generation_settings")
    value = settings.get("n_ctx") if isinstance(settings, dict) else None
    value = value if value is not None else data.get("n_ctx")
    return value if isinstance(value, int) and value > 0 else None


def tools_unrendered(prompt_tokens: int, messages_estimate: int, tools_estimate: int) -> bool:
    """Whether a prompt of `prompt_tokens` cannot have held the tools sent with it.

    Rendered, the prompt holds roughly both estimates (each within ~0.8–1.5× of the truth);
    dropped, roughly the messages alone. Half of both separates the two when the tools dominate.
    """
    if prompt_tokens <= 0 or tools_estimate < _MIN_TOOL_TOKENS:
        return False
    return prompt_tokens < (messages_estimate + tools_estimate) / 2


def dropped_tools(
    messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]], prompt_tokens: int
) -> str | None:
    """Why the tools sent with `messages` cannot have reached the model, or None when they may have."""
    shown = sum(estimate_tokens(str(message.get("content") or "")) for message in messages)
    size = estimate_tokens(json.dumps(tools, ensure_ascii=False))
    if not tools_unrendered(prompt_tokens, shown, size):
        return None
    return (
        f"accepted {len(tools)} tools but the prompt held only {prompt_tokens} tokens (the tools alone "
        f"are ~{size}): its chat template does not show tools to the model"
    )


def same_model(asked: str, answered: str) -> bool:
    """Whether two model names plausibly mean the same model (`gpt-4o` answers as `gpt-4o-2024-08-06`,
    llama.cpp with the file path, Ollama with `:latest`)."""
    a, b = _plain(asked), _plain(answered)
    return not a or not b or a.startswith(b) or b.startswith(a)


def _plain(name: str) -> str:
    name = name.strip().lower().replace("\\", "/").rsplit("/", 1)[-1]
    return name.removesuffix(".gguf").removesuffix(":latest")


class ModelNameCheck:
    """Logs once when the server answers as a different model than the one asked for."""

    def __init__(self, asked: str, where: str) -> None:
        self._asked, self._where = asked, where
        self._done = False
        self.answered: str | None = None
        """The name the server answered with (the first one seen)."""

    def observe(self, answered: object) -> None:
        """Look at the `model` field of one reply."""
        if self._done or not isinstance(answered, str) or not answered:
            return
        self._done = True
        self.answered = answered
        if not same_model(self._asked, answered):
            logger.warning(
                "asi-agent: warning: asked %s for model '%s' but it answered as '%s'; "
                "check --model / ASI_MODEL",
                self._where,
                self._asked,
                answered,
            )
