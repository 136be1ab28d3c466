"""Choosing and building the model backend from the configuration.

Auto-detection order when no provider is configured: a server address or API key in the configuration or
environment → OpenAI-compatible; an Ollama server answering on its address → Ollama;
else the embedded local model.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from asi_agent import prefetch
from asi_agent.backends.base import Backend
from asi_agent.config import AsiConfig, Provider
from asi_agent.exceptions import BackendError, ConfigError

__all__ = [
    "SMALL_MODEL_TOOLS",
    "available_models",
    "create_backend",
    "detect_provider",
    "offered_tools",
    "provider_of",
]

SMALL_MODEL_TOOLS = (
    "read_file",
    "list_directory",
    "file_search",
    "grep_search",
    "replace_text",
    "create_file",
)
"""What the embedded demo model is shown: a 135M model picks better among a few tools."""

OLLAMA_DEFAULT = "http://127.0.0.1:11434"


def detect_provider(config: AsiConfig) -> Provider:
    """The configured provider, or the first one that is available."""
    if config.provider:
        return config.provider
    if config.base_url or config.api_key:
        return "openai"
    if _ollama_answers(_ollama_host(config)):
        return "ollama"
    return "local"


def create_backend(config: AsiConfig) -> Backend:
    """Build the backend of the (detected) provider; SDKs are imported only here, only when chosen."""
    provider = detect_provider(config)
    first = prefetch.current()
    if first is not None:
        first.enabled = config.prefetch
    if provider == "openai":
        return _openai(config)
    if provider == "ollama":
        return _ollama(config)
    if provider == "scripted":
        return _scripted(config)
    if provider == "anthropic":
        return _anthropic(config)
    return _local(config)


def available_models(config: AsiConfig) -> list[str] | None:
    """The models the configured server offers (`GET /models`, Ollama's `/api/tags`); None for the
    providers whose models are files (`local`, `scripted`). Raises BackendError when the server does
    not answer."""
    import httpx2  # noqa: PLC0415

    provider = detect_provider(config)
    try:
        if provider == "openai":
            base_url = config.base_url or "https://api.openai.com/v1"
            headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
            data = _get(f"{base_url.rstrip('/')}/models", 5, headers).json().get("data") or []
            return sorted(str(m.get("id")) for m in data)
        if provider == "ollama":
            models = _get(f"{_ollama_host(config)}/api/tags", 5).json().get("models") or []
            return sorted(str(m.get("name")) for m in models)
    except (httpx2.HTTPError, ValueError, AttributeError) as exc:
        raise BackendError(f"cannot list the models of the {provider} server ({exc})") from None
    return None


def provider_of(backend: Backend) -> str:
    """The provider of `backend` (`openai`, `ollama`, `local`, `scripted`): its module's name."""
    return type(backend).__module__.rsplit(".", 1)[-1]


def _openai(config: AsiConfig) -> Backend:
    from asi_agent.backends.openai import OpenAIBackend, OpenAIBackendConfig  # noqa: PLC0415

    base_url = config.base_url or "https://api.openai.com/v1"
    model = config.model or _only_model(base_url, config.api_key)
    return OpenAIBackend(
        OpenAIBackendConfig(
            model=model,
            base_url=base_url,
            api_key=config.api_key,
            idle_timeout=config.idle_timeout,
            request_timeout=config.request_timeout,
            max_retries=config.max_retries,
            temperature=config.temperature,
            stream=config.stream,
            **({"max_tokens": config.max_tokens} if config.max_tokens else {}),
        )
    )


def _ollama(config: AsiConfig) -> Backend:
    from asi_agent.backends.ollama import OllamaBackend, OllamaBackendConfig  # noqa: PLC0415

    host = _ollama_host(config)
    model = config.model or _first_ollama_model(host)
    return OllamaBackend(
        OllamaBackendConfig(
            model=model,
            host=host,
            num_ctx=config.ollama.num_ctx,
            idle_timeout=config.idle_timeout,
            request_timeout=config.request_timeout,
            max_retries=config.max_retries,
            temperature=config.temperature,
            max_tokens=config.max_tokens,
            stream=config.stream,
        )
    )


def _anthropic(config: AsiConfig) -> Backend:
    from asi_agent.backends.anthropic import AnthropicBackend, AnthropicBackendConfig  # noqa: PLC0415

    if not config.model:
        raise ConfigError("the anthropic provider needs --model NAME (e.g. claude-sonnet-4-5)")
    return AnthropicBackend(
        AnthropicBackendConfig(
            model=config.model,
            base_url=config.base_url,
            # ANTHROPIC_API_KEY first: a configured api_key may be an OpenAI key read from OPENAI_API_KEY.
            api_key=os.environ.get("ANTHROPIC_API_KEY") or config.api_key,
            request_timeout=config.request_timeout,
            max_retries=config.max_retries,
            temperature=config.temperature,
            stream=config.stream,
            **({"max_tokens": config.max_tokens} if config.max_tokens else {}),
        )
    )


def _scripted(config: AsiConfig) -> Backend:
    from asi_agent.backends.scripted import ScriptedBackend  # noqa: PLC0415

    if not config.model:
        raise ConfigError("the scripted provider needs --model PATH to a script file (JSON)")
    return ScriptedBackend.from_file(Path(config.model))


def _local(config: AsiConfig) -> Backend:
    from asi_agent.backends.local import LocalBackend, LocalBackendConfig, find_embedded_model  # noqa: PLC0415

    path = config.local.model_path or (Path(config.model) if config.model else None)
    if path is None and config.provider is None:
        embedded = find_embedded_model()
        name = embedded.name if embedded else "SmolLM2-135M-Instruct"
        print(
            f"asi-agent: no model configured and no server found; using the embedded {name} "
            "(tiny, for trying things out). Configure a real model with --provider/--model/--base-url "
            "or ASI_PROVIDER, ASI_MODEL, ASI_BASE_URL.",
            file=sys.stderr,
        )
    return LocalBackend(
        LocalBackendConfig(
            model_path=path,
            n_ctx=config.local.n_ctx,
            threads=config.local.threads or os.cpu_count() or 1,
            temperature=config.temperature,
            **({"max_tokens": config.max_tokens} if config.max_tokens else {}),
        )
    )


def _ollama_host(config: AsiConfig) -> str:
    host = (config.base_url if config.provider == "ollama" else None) or os.environ.get("OLLAMA_HOST")
    host = host or OLLAMA_DEFAULT
    return host if "://" in host else f"http://{host}"


def _get(url: str, timeout: float, headers: dict[str, str] | None = None) -> Any:
    """GET `url` with the backends' HTTP library (httpx2: `import httpx` also loads its command line)."""
    import httpx2  # noqa: PLC0415 - only when detecting a provider or a model

    from asi_agent.backends.tls import verify_for  # noqa: PLC0415

    return httpx2.get(url, headers=headers, timeout=timeout, verify=verify_for(url))


def _ollama_answers(host: str) -> bool:
    import httpx2  # noqa: PLC0415

    try:
        return bool(_get(f"{host}/api/tags", 0.5).status_code == 200)
    except httpx2.HTTPError:
        return False


def _first_ollama_model(host: str) -> str:
    import httpx2  # noqa: PLC0415

    try:
        models = _get(f"{host}/api/tags", 5).json().get("models") or []
    except (httpx2.HTTPError, ValueError) as exc:
        raise BackendError(f"cannot reach Ollama at {host} ({exc}); is `ollama serve` running?") from None
    if not models:
        raise BackendError(f"Ollama at {host} has no models; run `ollama pull NAME` or pass --model")
    return str(models[0]["name"])


def _only_model(base_url: str, api_key: str | None) -> str:
    """With no --model, use the server's model when it offers exactly one (local servers usually do)."""
    import httpx2  # noqa: PLC0415

    from asi_agent.backends.chat_http import not_an_api  # noqa: PLC0415

    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        response = _get(f"{base_url.rstrip('/')}/models", 5, headers)
    except httpx2.HTTPError as exc:
        raise BackendError(
            f"cannot reach the model server at {base_url} ({exc}); is it running? "
            "set --base-url / ASI_BASE_URL"
        ) from None
    try:
        data = response.json().get("data") or []
    except (ValueError, AttributeError):
        kind = response.headers.get("content-type", "no content type").split(";")[0]
        what = f"GET /models answered {response.status_code} with {kind}, not the list of models"
        raise BackendError(not_an_api(base_url, what)) from None
    names = [str(m.get("id")) for m in data]
    if len(names) != 1:
        offered = ", ".join(names[:10]) or "none"
        raise ConfigError(
            f"no model configured: pass --model NAME or set ASI_MODEL (the server offers: {offered})"
        )
    return names[0]


def offered_tools(config: AsiConfig, backend: Backend) -> tuple[str, ...]:
    """The configured subset of tools to describe, or the small set for the embedded model, or all (empty)."""
    if config.offered_tools:
        return tuple(config.offered_tools)
    return SMALL_MODEL_TOOLS if backend.small_model else ()
