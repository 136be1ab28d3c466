"""From command-line flags (and a resumed session's settings) to the configuration a run loads.

`config_flags` turns the options every front end shares into `load_config`'s overrides; `resumed_config`
puts a resumed session's settings under them (only the harmless ones in an untrusted folder);
`session_settings` is what a new session records for its resumption.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from asi_agent.config import PROJECT_KEYS, AsiConfig, load_config
from asi_agent.exceptions import UserError
from asi_agent.providers import provider_of
from asi_agent.session import Session
from asi_agent.trust import is_trusted

__all__ = [
    "MODEL_SETTINGS", "config_flags", "read_chat_template", "resumed_config", "session_settings",
    "trusted_flag", "with_session",
]  # fmt: skip

MODEL_SETTINGS = ("provider", "model", "base_url")
"""Reused by `resume` together, or not at all: another provider's model name would be meaningless."""


def config_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The configuration the command-line options set (None where an option was not given), for `load_config`.

    UserError for `--yes` with an `--approval` other than yolo."""
    if args.yes and args.approval not in (None, "yolo"):
        raise UserError(
            f"--yes means --approval yolo and conflicts with --approval {args.approval}: give one of them"
        )
    return {
        "policy": args.policy,
        "provider": args.provider,
        "model": args.model,
        "base_url": args.base_url,
        "tool_mode": args.tool_mode,
        "call_format": args.call_format,
        "chat_template": _template_path(getattr(args, "chat_template", None)),
        "approval": "yolo" if args.yes else args.approval,
        "max_turns": args.max_turns,
        "auto_commit": True if getattr(args, "auto_commit", False) else None,
        "timeout": args.timeout,
        "sandbox": _sandbox_flags(args),
    }


def trusted_flag(args: argparse.Namespace) -> bool | None:
    """`--trust` as `load_config`'s `trusted`: True for this run, else None (the stored decisions)."""
    return True if getattr(args, "trust", False) else None


def _sandbox_flags(args: argparse.Namespace) -> dict[str, bool] | None:
    """`--no-sandbox` and `--allow-network` as the `[sandbox]` settings they override."""
    flags = {}
    if getattr(args, "no_sandbox", False):
        flags["enabled"] = False
    if getattr(args, "allow_network", False):
        flags["network"] = True
    return flags or None


def _template_path(value: str | None) -> str | None:
    """`--chat-template` as an absolute path (it names a file relative to where the command runs)."""
    return str(Path(value).expanduser().resolve()) if value else None


def read_chat_template(path: str | None, root: Path) -> str | None:
    """The text of the configured chat template file (relative paths from the project root); UserError
    when it cannot be read."""
    if not path:
        return None
    file = (root / Path(path).expanduser()).resolve()
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(
            f"chat template {file}: {exc.strerror if isinstance(exc, OSError) else exc}; "
            "give a readable Jinja chat template file (--chat-template FILE or chat_template in the config)"
        ) from None


def with_session(flags: dict[str, Any], resumed: Session | None) -> dict[str, Any]:
    """The flags, completed with the resumed session's settings where no flag overrides them."""
    return flags if resumed is None else _with_settings(flags, resumed.settings())


def _with_settings(flags: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    if any(flags.get(key) is not None for key in MODEL_SETTINGS):
        settings = {k: v for k, v in settings.items() if k not in MODEL_SETTINGS}
    given = {k: v for k, v in flags.items() if v is not None}
    return {**settings, **given}


def resumed_config(
    root: Path, flags: dict[str, Any], resumed: Session | None, *, trusted: bool | None
) -> AsiConfig:
    """`load_config` with a resumed session's settings under the flags (`with_session`). The transcript
    lives in the project's `.asi/`: in an untrusted folder only its harmless settings are reused (its
    provider, model, server and policy are the folder's to suggest, not to choose), the rest is ignored."""
    trusted = is_trusted(root) if trusted is None else trusted
    settings = resumed.settings() if resumed is not None else {}
    dropped = {} if trusted else {k: v for k, v in settings.items() if PROJECT_KEYS.get(k) != "kept"}
    kept = {k: v for k, v in settings.items() if k not in dropped}
    config = load_config(root, _with_settings(flags, kept) if resumed else flags, trusted=trusted)
    config.trust.ignored.extend(
        f".asi/sessions (resumed): {key}"
        for key, value in dropped.items()
        if flags.get(key) is None and getattr(config, key) != value
    )
    return config


def session_settings(config: AsiConfig, backend: Any) -> dict[str, Any]:
    """What a resumed session reuses: the provider actually used, its model, tool mode and policy."""
    provider = config.provider or provider_of(backend)
    model = config.model
    if provider in ("scripted", "local") and model and Path(model).is_file():
        model = str(Path(model).resolve())  # a script or GGUF file, resumed from any folder
    elif provider in ("openai", "ollama"):
        model = backend.model_name  # the model auto-detection chose
    return {
        "provider": provider,
        "model": model,
        "base_url": config.base_url,
        "tool_mode": config.tool_mode,
        "policy": config.policy,
    }
