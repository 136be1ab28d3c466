"""Configuration: defaults < user config.toml < project .asi/config.toml < environment < flags.

Every layer is validated on its own so that an error names where the bad value came from.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from asi_agent.exceptions import ConfigError
from asi_agent.userdirs import user_config_dir

Provider = Literal["openai", "ollama", "local", "scripted"]
ToolMode = Literal["auto", "native", "text"]
Approval = Literal["ask", "auto-edit", "plan", "yolo"]
CallFormat = Literal[
    "auto",
    "asi",
    "hermes",
    "qwen-xml",
    "glm",
    "mistral",
    "llama",
    "pythonic",
    "function-tag",
    "tool-calls",
    "deepseek",
    "kimi",
    "harmony",
    "functiongemma",
    "functionary",
    "command-r",
    "json",
]

__all__ = [
    "SANDBOX_CACHES", "SANDBOX_HIDDEN", "Approval", "AsiConfig", "CallFormat", "Provider", "ToolMode",
    "load_config", "user_config_dir", "user_locale",
]  # fmt: skip

ENV_KEYS = {
    "ASI_PROVIDER": "provider",
    "ASI_MODEL": "model",
    "ASI_BASE_URL": "base_url",
    "ASI_API_KEY": "api_key",
}


class OllamaSection(BaseModel):
    """Settings only the Ollama provider reads."""

    model_config = ConfigDict(extra="forbid")

    num_ctx: int = Field(8192, ge=512)
    """Context window requested from Ollama with every request (`options.num_ctx`)."""


SANDBOX_HIDDEN = (
    "~/.ssh", "~/.aws", "~/.azure", "~/.config/gcloud", "~/.netrc", "~/.docker", "~/.kube", "~/.gnupg",
    "~/.local/share/keyrings", "~/.password-store", "~/.pypirc", "~/.npmrc", "~/.git-credentials",
    "~/.config/gh",
)  # fmt: skip
"""Secrets no command may read."""
SANDBOX_CACHES = (
    "~/.cache", "~/.npm", "~/.cargo/registry", "~/.cargo/git", "~/.rustup", "~/.m2", "~/.gradle", "~/go/pkg",
    "~/.local/share/uv", "~/.yarn", "~/.pnpm-store", "~/.bun/install/cache",
)  # fmt: skip
"""Build and package caches a command may write, besides the project and the temp folder."""


class SandboxSection(BaseModel):
    """How the processes the agent starts are contained (see `asi_agent.sandbox`)."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = True
    """Run every command, test run, linter and plugin process in the OS sandbox; false (or `--no-sandbox`)
    runs them as the user, gated by the policy only."""
    network: bool = False
    """Let sandboxed commands use the network (`--allow-network`); else a command that wants it asks."""
    writable: list[str] = Field(default_factory=list)
    """Folders commands may write besides the project, the temp folder and the caches."""
    caches: list[str] = Field(default_factory=lambda: list(SANDBOX_CACHES))
    """Build and package caches commands may write (those that exist)."""
    hidden: list[str] = Field(default_factory=lambda: list(SANDBOX_HIDDEN))
    """Files and folders commands cannot read (the user's secrets)."""


class LocalSection(BaseModel):
    """Settings of the in-process GGUF provider."""

    model_config = ConfigDict(extra="forbid")

    model_path: Path | None = None
    """A GGUF file; empty means the embedded default model."""
    n_ctx: int = Field(4096, ge=256)
    """Context size in tokens."""
    threads: int | None = Field(None, ge=1)
    """CPU threads; empty means all cores."""
    grounding: bool = True
    """Narrow each turn to the task's tools and the project's real paths, symbols and text (see README)."""


class AsiConfig(BaseModel):
    """The whole configuration, after merging every layer."""

    model_config = ConfigDict(extra="forbid")

    provider: Provider | None = None
    """Model provider; empty means auto-detect (environment, then Ollama, then the embedded model)."""
    model: str | None = None
    """Model name (or, for `scripted`, the script file; for `local`, a GGUF file)."""
    base_url: str | None = None
    """Server address for `openai` (…/v1) or `ollama`."""
    api_key: str | None = None
    """API key for OpenAI-compatible servers."""
    tool_mode: ToolMode = "auto"
    """`native` tool calls, `text` emulation, or `auto` (native, falling back to text)."""
    call_format: CallFormat = "auto"
    """Text mode's call dialect: `auto` picks it from the model name (then from the model's first call),
    or name one (`hermes`, `qwen-xml`, `mistral`, `llama`, `pythonic`, …) to prompt a fine-tuned model in
    the format it was trained on."""
    chat_template: str | None = None
    """A Jinja chat template file for the model: how it writes calls is learned from it and read first.
    Empty asks the server (llama.cpp `/props`, Ollama `/api/show`) or the local GGUF file."""
    approval: Approval | None = None
    """Permission mode; empty means the policy's mode (`ask` for the default policy)."""
    policy: str | None = None
    """Policy preset name or TOML file."""
    max_turns: int = Field(30, ge=1, le=1000)
    """Upper bound on model requests in one run."""
    timeout: float | None = Field(None, gt=0)
    """Wall-clock seconds one run may take; then it ends with status TIMEOUT and its partial result.
    Empty means no limit."""
    offered_tools: list[str] | None = None
    """Tools described to the model each turn (a small model copes better with few); empty means all.
    A registered tool the model names anyway still runs."""
    disabled_plugins: list[str] = Field(default_factory=list)
    """Installed plugin packages not to load, by package or entry-point name (`asi-agent plugins` lists
    them): e.g. `disabled_plugins = ["word-stats"]` in the project's `.asi/config.toml`."""
    tool_locale: Literal["zh", "en"] = "en"
    """Language of the tool descriptions sent to the model and of the errors that quote them. Unset, it
    follows the user's locale (`LC_ALL`, `LC_MESSAGES`, `LANG`): `zh` when that is Chinese, else `en`."""
    request_timeout: float = Field(600.0, gt=0)
    """Seconds allowed for one whole model reply, retries included (an absolute deadline)."""
    idle_timeout: float = Field(120.0, gt=0)
    """Seconds the model server may send nothing (first token included) before the attempt fails."""
    max_tokens: int | None = Field(None, ge=16)
    """Upper bound on the tokens of one reply; empty means the provider's default (openai 4096,
    ollama 4096 but at most half of num_ctx, local 512)."""
    stream: bool = True
    """Stream each model reply as it is written; false asks `openai` and `ollama` servers for the whole
    reply at once (for servers that stream badly): it shows when complete, and only `request_timeout`
    bounds the wait for it."""
    max_retries: int = Field(3, ge=0, le=10)
    """Retries of a model request on 429, 5xx and connection errors."""
    temperature: float = Field(0.2, ge=0, le=2)
    """Sampling temperature (low keeps tool-call formats stable)."""
    read_max_bytes: int = Field(256_000, ge=1024)
    """Largest slice of a file `read_file` returns at once."""
    edit_guard: bool = True
    """Refuse an edit or `create_file` that would turn a file which parsed into one that does not (Python,
    JSON, TOML, YAML, JavaScript, TypeScript, Go): the file stays as it was and the model gets the
    parser's message with the lines around it. A file that did not parse before is not held to it."""
    context_window: int | None = Field(None, ge=256)
    """The model's context window in tokens; empty asks the server (Ollama `/api/show`, llama.cpp
    `/props`, the local model's `n_ctx`). The history is kept inside it, compacting older turns."""
    auto_commit: bool = False
    """Commit each completed task to git (a message from the task, an asi-agent trailer); a run refuses to
    start on a dirty working tree unless `--allow-dirty` is given."""
    prefetch: bool | None = None
    """Send `asi-agent run`'s first model request ahead, before the program has loaded, when the previous
    run's first request was the same but for the task; the reply is used only if the request turns out
    byte for byte the same, else it is discarded. Empty: only for plain-HTTP servers on this machine or a
    private network (a discarded request to a paid API is still charged); true: for any `http://` server;
    false: never."""
    verify: Literal["tests", "parse", "off"] = "tests"
    """What the runtime checks before a run may end DONE: `tests` runs the project's tests itself when the
    run changed source files (unless the agent's own last test run came after its last edit), through the
    policy and the sandbox like any command; `parse` keeps the other checks (changed files parse, a change
    was made, the agent's own test runs pass) without running tests; `off` checks nothing, so no run is
    `verified`."""
    test_command: str | None = None
    """The shell command that runs the project's tests (e.g. `make check`); empty detects it: pytest or
    unittest, jest/vitest/mocha/`node --test`, `go test ./...`, `cargo test`, `npm test`, `make test`."""
    ollama: OllamaSection = Field(default_factory=OllamaSection)
    local: LocalSection = Field(default_factory=LocalSection)
    sandbox: SandboxSection = Field(default_factory=SandboxSection)


def load_config(
    project: Path, flags: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None
) -> AsiConfig:
    """Merge all layers; raise ConfigError naming the file (or variable) and key of a bad value."""
    env = os.environ if env is None else env
    merged: dict[str, Any] = {"tool_locale": user_locale(env)}  # a default: every layer overrides it
    for path in (user_config_dir() / "config.toml", project / ".asi" / "config.toml"):
        if path.is_file():
            _merge(merged, _checked(_read_toml(path), str(path)))
    _merge(merged, _checked(_env_layer(env), "environment"))
    _merge(merged, _checked({k: v for k, v in (flags or {}).items() if v is not None}, "command line"))
    return AsiConfig.model_validate(merged)


def user_locale(env: Mapping[str, str]) -> Literal["zh", "en"]:
    """`zh` when the locale is Chinese (the first set of LC_ALL, LC_MESSAGES, LANG), else `en`."""
    value = next((env[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)), "")
    return "zh" if value.lower().startswith("zh") else "en"


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None


def _env_layer(env: Mapping[str, str]) -> dict[str, Any]:
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


def _checked(layer: dict[str, Any], origin: str) -> dict[str, Any]:
    """Validate one layer alone, so that the error names its origin and key."""
    try:
        AsiConfig.model_validate(layer)
    except ValidationError as exc:
        error = exc.errors()[0]
        key = ".".join(str(part) for part in error["loc"]) or "(top level)"
        if origin == "environment":
            key = next((var for var, name in ENV_KEYS.items() if name == key), key)
        reason = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
        raise ConfigError(f"{origin}: key '{key}': {reason}") from None
    return layer


def _merge(into: dict[str, Any], layer: Mapping[str, Any]) -> None:
    for key, value in layer.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = dict(value) if isinstance(value, Mapping) else value
