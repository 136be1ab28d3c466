"""Model backends: every one implements the `Backend` Protocol of `asi_agent.backends.base`.

    asi_agent.backends.openai     OpenAIBackend    OpenAI-compatible servers (over `httpx2`)
    asi_agent.backends.ollama     OllamaBackend    Ollama's native API (over `httpx2`)
    asi_agent.backends.local      LocalBackend     in-process llama.cpp (imports `xllamacpp`)
    asi_agent.backends.scripted   ScriptedBackend  scripted replies, for tests and demos

Vendor modules are imported only when their provider is chosen, so this package imports no SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from asi_agent.backends.base import Backend, DeltaCallback, ToolSchema

if TYPE_CHECKING:
    from asi_agent.backends.scripted import (
        ScriptedBackend,
        ScriptedBackendConfig,
        ScriptedCall,
        ScriptedReply,
    )

_SCRIPTED = ("ScriptedBackend", "ScriptedBackendConfig", "ScriptedCall", "ScriptedReply")

__all__ = [
    "Backend",
    "DeltaCallback",
    "ScriptedBackend",
    "ScriptedBackendConfig",
    "ScriptedCall",
    "ScriptedReply",
    "ToolSchema",
]


def __getattr__(name: str) -> Any:
    """The scripted backend's names, imported on first use: every backend imports this package."""
    if name in _SCRIPTED:
        from asi_agent.backends import scripted  # noqa: PLC0415

        return getattr(scripted, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
