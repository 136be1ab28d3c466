"""Configuration: defaults < user config.toml < project .asi/config.toml < environment < flags.

Every layer is validated on its own so that an error names where the bad value came from.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from asi_agent.config_sections import (
    SANDBOX_PROTECTED,
    LocalSection,
    OllamaSection,
    SandboxSection,
    SkillsSection,
    WebSection,
)
from asi_agent.envsettings import ENV_KEYS, env_layer
from asi_agent.exceptions import ConfigError
from asi_agent.trust import ProjectTrust, inside_project, is_trusted
from asi_agent.userdirs import user_config_dir

Provider = Literal["openai", "ollama", "local", "scripted", "anthropic"]
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
    "APPROVAL_ORDER", "PROJECT_KEYS", "SANDBOX_PROTECTED", "Approval", "AsiConfig", "CallFormat", "KeyRule",
    "Provider", "ToolMode", "load_config", "user_config_dir", "user_locale",
]  # fmt: skip


KeyRule = Literal[
    "kept", "ignored", "only-true", "only-false", "union", "subset", "inside", "stricter", "narrowing"
]  # fmt: skip
"""What an untrusted project's `.asi/config.toml` may do with one key: `kept` (harmless or narrowing by
nature); `ignored`; `only-true`/`only-false` (kept only at that value, which narrows); `union` (its items are
added to the user's); `subset` (only items the user's list has too); `inside` (a file inside the project);
`stricter` (an approval mode stricter than the user's); `narrowing` (a policy of which only deny and ask
rules, stricter modes and more secrets are used)."""
PROJECT_KEYS: dict[str, KeyRule] = {
    "provider": "ignored", "model": "ignored", "base_url": "ignored", "api_key": "ignored",
    "local.model_path": "ignored",
    "approval": "stricter", "policy": "narrowing", "chat_template": "inside",
    "sandbox.enabled": "only-true", "sandbox.network": "only-false", "sandbox.writable": "subset",
    "sandbox.caches": "subset", "sandbox.hidden": "union", "sandbox.unprotect": "subset",
    "sandbox.env": "subset", "verify": "ignored", "test_command": "ignored", "subagent_depth": "ignored",
    "sandbox.limits.processes": "ignored", "sandbox.limits.file_size_mb": "ignored",
    "sandbox.limits.memory_mb": "ignored", "sandbox.limits.cpu_seconds": "ignored",
    "sandbox.limits.output_mb": "ignored", "sandbox.limits.background_seconds": "ignored",
    "auto_commit": "only-false", "prefetch": "only-false", "disabled_plugins": "union",
    "tool_mode": "kept", "call_format": "kept", "max_turns": "kept", "timeout": "kept",
    "offered_tools": "kept", "tool_locale": "kept", "request_timeout": "kept", "idle_timeout": "kept",
    "notify_idle_after": "kept",
    "max_tokens": "kept",
    "stream": "kept", "max_retries": "kept", "temperature": "kept", "read_max_bytes": "kept",
    "edit_guard": "kept", "context_window": "kept", "ollama.num_ctx": "kept", "local.n_ctx": "kept",
    "local.threads": "kept", "local.grounding": "kept", "tools": "kept",
    "skills.max_listed": "kept", "skills.embeddings": "kept", "skills.embedding_model": "ignored",
    "edit_correction": "kept", "output_summary": "kept",
    "web.allow_private_hosts": "only-false", "web.timeout": "kept", "web.max_bytes": "kept",
    "web.max_chars": "kept", "web.allowed_hosts": "ignored", "web.search": "ignored",
    "web.search_url": "ignored", "web.search_api_key": "ignored",
}  # fmt: skip
"""The rule of each key of an untrusted project's `.asi/config.toml` (a key not listed is ignored);
`docs/configuration.md` shows the same table."""
APPROVAL_ORDER: tuple[Approval, ...] = ("plan", "ask", "auto-edit", "yolo")
"""Approval modes from the strictest to the loosest."""


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
    subagent_depth: int = Field(1, ge=0, le=4)
    """How deep `task` child agents may nest: 0 offers no `task` tool, 1 (default) lets the session's agent
    start children but not theirs."""
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
    notify_idle_after: float = Field(60.0, gt=0)
    """Seconds a chat waits for the person's next message after a turn before the `Notification` hook
    fires (`idle_prompt`, as Claude Code's after 60 s)."""
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
    edit_correction: bool | None = None
    """When `replace_text`'s oldText is not in the file (not even ignoring whitespace or escapes), let one
    model call find the text it meant; empty: on, except for the embedded and the scripted model."""
    output_summary: bool | None = None
    """Summarise, with one model call, a command's output that is too long to send whole (the full log stays
    in a file the model can read); empty: on, except for the embedded and the scripted model."""
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
    skills: SkillsSection = Field(default_factory=SkillsSection)
    web: WebSection = Field(default_factory=WebSection)
    tools: Literal["all", "asi"] | None = None
    """`asi`: offer exactly the spec's 22 tools and the two `moss_*` tools; `all`: the extension tools too
    (`todo_write`, `save_memory`, `web_fetch`, `web_search`, `task`, `execute_skill`). Empty: `all`, but
    `asi` for `eval` and `data export`."""
    _trust: ProjectTrust = PrivateAttr(default_factory=ProjectTrust)

    @property
    def trust(self) -> ProjectTrust:
        """How far this run trusts the project folder (set by `load_config`; a config made in code is
        untrusted), what the folder supplied that was ignored, and who turned the sandbox off."""
        return self._trust

    def trusting(self, trust: ProjectTrust) -> AsiConfig:
        """A copy with `trust` as its project trust (e.g. `eval`, which trusts its own fixtures)."""
        copy = self.model_copy(deep=True)
        copy._trust = trust
        return copy


def load_config(
    project: Path,
    flags: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    *,
    trusted: bool | None = None,
) -> AsiConfig:
    """Merge all layers; raise ConfigError naming the file (or variable) and key of a bad value.

    `trusted`: whether the project folder's `.asi/config.toml` is read in full; None asks the stored
    decisions (`asi_agent.trust`). Untrusted, each of its keys is kept only as `PROJECT_KEYS` allows."""
    env = os.environ if env is None else env
    trust = ProjectTrust(trusted=is_trusted(project) if trusted is None else trusted)
    merged: dict[str, Any] = {"tool_locale": user_locale(env)}  # a default: every layer overrides it
    user_file, project_file = user_config_dir() / "config.toml", project / ".asi" / "config.toml"
    layers: list[tuple[str, dict[str, Any]]] = []  # (who turned the sandbox off if this layer did, layer)
    if user_file.is_file():
        layers.append((f"user config {user_file}", _checked(_read_toml(user_file), str(user_file))))
    if project_file.is_file():
        layer = _checked(_read_toml(project_file), str(project_file))
        if not trust.trusted:
            base = _merged([merged, *(data for _, data in layers)])
            layer = _narrowed(layer, AsiConfig.model_validate(base), project, trust)
        layers.append((f"project config {project_file}", layer))
    layers.append(("environment", _checked(env_layer(env), "environment")))
    given = _checked({k: v for k, v in (flags or {}).items() if v is not None}, "command line")
    layers.append(("--no-sandbox", given))  # the command line's only way to turn it off
    for name, data in layers:
        _merge(merged, data)
        if data.get("sandbox", {}).get("enabled") is not None:
            trust.sandbox_off = None if data["sandbox"]["enabled"] else name
    if any(data.get("approval") for _, data in layers[-2:]):  # the environment and the command line
        trust.approval = None  # the person chose the mode for this run: the project's does not apply
    if given.get("policy"):
        trust.policy = None
    config = AsiConfig.model_validate(merged)
    config._trust = trust  # set once, here, by its owner
    return config


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


def _narrowed(layer: dict[str, Any], base: AsiConfig, project: Path, trust: ProjectTrust) -> dict[str, Any]:
    """An untrusted project's layer with only what `PROJECT_KEYS` allows; the rest goes to `trust.ignored`,
    the approval and the policy to `trust` (the assembly applies them where they narrow)."""
    kept: dict[str, Any] = {}
    for key, value in _flat(layer):
        rule = PROJECT_KEYS.get(key, "ignored")
        current = _value_at(base, key)
        verdict = _judge(rule, value, current, project)
        if rule == "stricter" and verdict is not None:
            trust.approval = verdict
        elif rule == "narrowing" and verdict is not None:
            trust.policy = verdict
        elif verdict is not None:
            section, _, name = key.rpartition(".")
            (kept.setdefault(section, {}) if section else kept)[name] = verdict
        if verdict is None or (isinstance(value, list) and verdict != value):
            trust.ignored.append(f".asi/config.toml: {_shown(key, value, rule)}")
    return kept


def _judge(rule: KeyRule, value: Any, current: Any, project: Path) -> Any:
    """The value kept under `rule` (None: nothing is kept)."""
    if rule == "kept" or (rule == "only-true" and value is True) or (rule == "only-false" and value is False):
        return value
    if rule == "union":
        return [*current, *(item for item in value if item not in current)]
    if rule == "subset":
        return [item for item in value if item in current]
    if rule in ("inside", "narrowing"):  # a policy preset's name is a path inside the project too
        return value if inside_project(project / Path(str(value)).expanduser(), project) else None
    if rule == "stricter":
        return value
    return None


def _shown(key: str, value: Any, rule: KeyRule) -> str:
    """How an ignored key is named: with its value, but never a key's, and lists by what was kept."""
    if rule == "union":
        return f"{key} (yours kept, its items added)"
    if rule == "subset":
        return f"{key} (only the items yours has)"
    return key if key == "api_key" or isinstance(value, list) else f"{key} = {_toml(value)}"


def _flat(layer: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """Dotted keys and their values (sections opened, lists kept whole)."""
    found: list[tuple[str, Any]] = []
    for key, value in layer.items():
        if isinstance(value, Mapping):
            found += _flat(value, f"{prefix}{key}.")
        else:
            found.append((f"{prefix}{key}", value))
    return found


def _value_at(config: AsiConfig, key: str) -> Any:
    value: Any = config
    for part in key.split("."):
        value = getattr(value, part, None)
    return list(value) if isinstance(value, list) else value


def _toml(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else repr(value)


def _merged(layers: list[dict[str, Any]]) -> dict[str, Any]:
    into: dict[str, Any] = {}
    for layer in layers:
        _merge(into, layer)
    return into


def _merge(into: dict[str, Any], layer: Mapping[str, Any]) -> None:
    for key, value in layer.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = dict(value) if isinstance(value, Mapping) else value
