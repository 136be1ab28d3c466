"""First run: no model is configured. Find what is available and write the person's choice to the user
config (`config.toml` in the user config folder, which `ASI_CONFIG_DIR` overrides)."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx

from asi_agent.config import AsiConfig, user_config_dir
from asi_agent.exceptions import BackendError

__all__ = ["check_openai", "needs_setup", "ollama_host", "ollama_models", "write_user_config"]

OLLAMA_DEFAULT = "http://127.0.0.1:11434"


def needs_setup(config: AsiConfig) -> bool:
    """True when nothing says which model to use (no provider, model, server address or key)."""
    return not (config.provider or config.model or config.base_url or config.api_key)


def ollama_host() -> str:
    """Where a local Ollama would answer (`OLLAMA_HOST`, else its default port)."""
    host = os.environ.get("OLLAMA_HOST") or OLLAMA_DEFAULT
    return host if "://" in host else f"http://{host}"


def ollama_models(host: str, timeout: float = 1.0) -> list[str]:
    """The models of the Ollama at `host` (`/api/tags`); empty when none answers."""
    try:
        response = httpx.get(f"{host.rstrip('/')}/api/tags", timeout=timeout)
        models = (response.json().get("models") or []) if response.status_code == 200 else []
    except (httpx.HTTPError, ValueError, AttributeError):
        return []
    return [str(m.get("name")) for m in models if isinstance(m, dict) and m.get("name")]


def check_openai(base_url: str, api_key: str, timeout: float = 10.0) -> list[str]:
    """One request (`GET {base_url}/models`) to check an OpenAI-compatible server and key.

    Returns the model ids offered; raises BackendError saying what went wrong.
    """
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    url = f"{base_url.rstrip('/')}/models"
    try:
        response = httpx.get(url, headers=headers, timeout=timeout)
    except httpx.HTTPError as exc:
        raise BackendError(f"cannot reach {url}: {exc}") from None
    if response.status_code in (401, 403):
        raise BackendError(f"{url} refused the key (HTTP {response.status_code})")
    if response.status_code != 200:
        raise BackendError(f"{url} answered HTTP {response.status_code}; is it an OpenAI-compatible /v1 URL?")
    try:
        data = response.json().get("data") or []
    except (ValueError, AttributeError):
        raise BackendError(f"{url} did not answer JSON; is it an OpenAI-compatible /v1 URL?") from None
    return [str(m.get("id")) for m in data if isinstance(m, dict)]


def write_user_config(values: Mapping[str, Any]) -> Path:
    """Merge `values` into the user `config.toml` (other keys are kept) and return its path."""
    folder = user_config_dir()
    path = folder / "config.toml"
    current: dict[str, Any] = {}
    if path.is_file():
        with path.open("rb") as handle:
            current = tomllib.load(handle)
    current.update({k: v for k, v in values.items() if v not in (None, "")})
    AsiConfig.model_validate(current)  # never write a file that would not load
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(_dump(current), encoding="utf-8")
    if current.get("api_key"):
        path.chmod(0o600)  # it holds a secret
    return path


def _dump(table: Mapping[str, Any]) -> str:
    """TOML for the flat keys and the one level of tables that the configuration has."""
    lines = [f"{key} = {_value(value)}" for key, value in table.items() if not isinstance(value, Mapping)]
    for key, value in table.items():
        if isinstance(value, Mapping):
            lines += ["", f"[{key}]", *(f"{k} = {_value(v)}" for k, v in value.items())]
    return "\n".join(lines) + "\n"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'
