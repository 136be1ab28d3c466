"""The settings the environment gives (`ASI_*`, and `OPENAI_*` / `OLLAMA_HOST` where those apply).

Standard library only: the configuration reads it, and so does the request sent ahead before anything
heavy is imported (`prefetch_check`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["ENV_KEYS", "env_layer"]

ENV_KEYS = {
    "ASI_PROVIDER": "provider",
    "ASI_MODEL": "model",
    "ASI_BASE_URL": "base_url",
    "ASI_API_KEY": "api_key",
}
"""The `ASI_*` variables and the configuration keys they set."""


def env_layer(env: Mapping[str, str]) -> dict[str, Any]:
    """The configuration keys the environment sets: `ASI_*`, then `OPENAI_API_KEY`, and `OPENAI_BASE_URL`
    or `OLLAMA_HOST` for their provider when no `ASI_BASE_URL` is given."""
    layer: dict[str, Any] = {key: env[var] for var, key in ENV_KEYS.items() if env.get(var)}
    if "api_key" not in layer and env.get("OPENAI_API_KEY"):
        layer["api_key"] = env["OPENAI_API_KEY"]
    provider = layer.get("provider")
    if "base_url" not in layer:
        if env.get("OPENAI_BASE_URL") and provider in (None, "openai"):
            layer["base_url"] = env["OPENAI_BASE_URL"]
        elif env.get("OLLAMA_HOST") and provider == "ollama":
            layer["base_url"] = env["OLLAMA_HOST"]
    return layer
