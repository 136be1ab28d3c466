"""What a first request read back from the cache may be: only this run's own, to this run's own server.

The cache (`first-request.json`, see `asi_agent.prefetch`) is a file that anything running as the person
can write, so nothing read back from it is trusted. Before a recorded request is sent ahead it must be
the request this run would make anyway, but for the task and the system prompt:

- its URL is the chat endpoint of the server configured in THIS run (scheme, host, port and path equal
  to the configured base URL's `/chat/completions`, or Ollama's `/api/chat`; no user name, query or
  fragment), taken from the command line, the environment, the user's `config.toml` and — only in a
  folder the person trusts — the project's `.asi/config.toml`;
- its method is POST; its header names come from a short list (`Host` must name that server); the one
  credential header is `Authorization: Bearer <the configured key>`, rebuilt here, never read back;
- its body is a JSON object of the chat request's fields, whose messages are this run's system prompt
  and task, in that order and nothing else.

Whether to send ahead at all (`prefetch`) is read from the configuration too, not from the cache. A
forged or stale entry is dropped: at most one discarded request, never a key sent elsewhere.
Standard library only (it runs before the heavy imports).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from asi_agent.envsettings import env_layer
from asi_agent.userdirs import user_config_dir

__all__ = ["Configured", "checked_body", "checked_headers", "configured", "same_endpoint"]

OPENAI_DEFAULT = "https://api.openai.com/v1"
OLLAMA_DEFAULT = "http://127.0.0.1:11434"
_HEADERS = frozenset({"host", "accept", "accept-encoding", "connection", "content-type", "user-agent"})
"""The header names a recorded request may carry besides its credential (`Authorization`)."""
_CREDENTIAL = "authorization"
_BODY_KEYS = frozenset(
    {"model", "messages", "stream", "stream_options", "tools", "temperature", "max_tokens",
     "max_completion_tokens", "options"}
)  # fmt: skip
_SETTINGS = ("provider", "base_url", "api_key", "prefetch")


class Configured:
    """The settings of this run that decide where its first request goes and what it carries."""

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self.provider: str | None = _text(settings.get("provider"))
        self.base_url: str | None = _text(settings.get("base_url"))
        self.api_key: str | None = _text(settings.get("api_key"))
        prefetch = settings.get("prefetch")
        self.prefetch: bool | None = prefetch if isinstance(prefetch, bool) else None
        """The `prefetch` setting: None only to private servers, True to any `http://` one, False never."""
        self.ollama_host: str | None = _text(settings.get("ollama_host"))

    def endpoint(self) -> str | None:
        """The chat URL the backend will use (as `providers.create_backend` picks it); None for the
        in-process model, which makes no HTTP request."""
        provider = self.provider or ("openai" if self.base_url or self.api_key else "ollama")
        if provider == "openai":
            return (self.base_url or OPENAI_DEFAULT).rstrip("/") + "/chat/completions"
        if provider == "ollama":
            host = (self.base_url if self.provider == "ollama" else None) or self.ollama_host
            host = (host or OLLAMA_DEFAULT).strip().rstrip("/")
            return (host if "://" in host else f"http://{host}") + "/api/chat"
        return None


def configured(
    flags: Mapping[str, str | None], root: str, *, trusted: bool, env: Mapping[str, str] | None = None
) -> Configured:
    """This run's settings, merged as `config.load_config` merges them: the user's `config.toml`, the
    project's `.asi/config.toml` (only when `trusted`; an untrusted one may only turn `prefetch` off), the
    environment, then the command line (`flags`: `provider`, `base_url`)."""
    env = os.environ if env is None else env
    merged: dict[str, Any] = {}
    merged.update(_toml(user_config_dir(env) / "config.toml"))
    project = _toml(Path(root, ".asi", "config.toml"))
    if trusted:
        merged.update(project)
    elif project.get("prefetch") is False:
        merged["prefetch"] = False  # narrowing is always allowed
    merged.update(env_layer(env))
    merged.update({key: value for key, value in flags.items() if value is not None})
    merged["ollama_host"] = env.get("OLLAMA_HOST")
    return Configured(merged)


def same_endpoint(url: str, endpoint: str) -> bool:
    """Whether `url` is exactly `endpoint`: the same scheme, host, port and path, and nothing else."""
    try:
        got, want = urlsplit(url), urlsplit(endpoint)
        ports = (got.port or _default_port(got.scheme), want.port or _default_port(want.scheme))
    except ValueError:
        return False
    if got.username is not None or got.password is not None or got.query or got.fragment:
        return False
    return (
        got.scheme.lower() == want.scheme.lower()
        and (got.hostname or "").lower() == (want.hostname or "").lower() != ""
        and ports[0] == ports[1]
        and got.path == want.path
    )


def checked_headers(recorded: Any, url: str, key: str) -> list[tuple[str, str]] | None:
    """The recorded headers as sent: names from the allow-list, `Host` naming the server of `url`, the
    credential rebuilt from `key`; None when any of them is something else."""
    if not isinstance(recorded, list):
        return None
    host = urlsplit(url).netloc.lower()
    headers: list[tuple[str, str]] = []
    for item in recorded:
        if not isinstance(item, list) or not item or not isinstance(item[0], str):
            return None
        name = item[0]
        low = name.lower()
        if low == _CREDENTIAL and item[1:] == [None, "Bearer "]:
            headers.append((name, "Bearer " + key))
        elif low in _HEADERS and len(item) == 2 and isinstance(item[1], str):
            if low == "host" and item[1].lower() != host:
                return None
            headers.append((name, item[1]))
        else:
            return None
    return headers


def checked_body(body: str, system: str, task: str) -> bool:
    """Whether `body` is a chat request of the allowed fields whose messages are the system prompt
    (text mode appends its tool contract to it) and the task, and nothing else."""
    try:
        data = json.loads(body)
    except ValueError:
        return False
    if not isinstance(data, dict) or not set(data) <= _BODY_KEYS or not isinstance(data.get("model"), str):
        return False
    messages = data.get("messages")
    if not isinstance(messages, list) or len(messages) != 2:
        return False
    first, second = messages
    return (
        first == {"role": "system", "content": first.get("content")}
        and isinstance(first["content"], str)
        and first["content"].startswith(system)
        and second == {"role": "user", "content": task}
    )


def _toml(path: Path) -> dict[str, Any]:
    import tomllib  # noqa: PLC0415 - only when there is a request to check

    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, ValueError):
        return {}
    return {key: data[key] for key in _SETTINGS if key in data}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _default_port(scheme: str) -> int | None:
    return {"http": 80, "https": 443}.get(scheme.lower())
