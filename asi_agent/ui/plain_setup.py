"""First run of the line-mode chat: the same three choices as the full-screen setup screen, as questions;
and the question whether to trust a new project folder, as the full-screen chat's modal asks it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from asi_agent.exceptions import BackendError
from asi_agent.trust import trust_folder
from asi_agent.ui import firstrun

__all__ = ["ask_trust_in_terminal", "setup_in_terminal"]


async def ask_trust_in_terminal(root: Path, changes: list[str]) -> bool:
    """Show what the folder would change and ask: t trusts it (remembered), anything else is not now."""
    from prompt_toolkit import PromptSession  # noqa: PLC0415 - only for a new folder

    print(
        f"{root} has settings of its own. Untrusted, they can only narrow yours; trusted, asi-agent uses "
        "them in full, and these would change:",
        flush=True,
    )
    for change in changes:
        print(f"  • {change}", flush=True)
    session: PromptSession[str] = PromptSession()
    answer = (await session.prompt_async("[t] trust this folder (remembered)  [n] not now: ")).strip().lower()
    if answer in ("t", "trust"):
        folder, _ = trust_folder(root)
        print(f"trusted {folder}", flush=True)
        return True
    print("not now: this chat uses your settings, narrowed by the folder's", flush=True)
    return False


async def setup_in_terminal() -> dict[str, Any]:
    """Ask which model to use, write it to the user config, and return what was written."""
    from prompt_toolkit import PromptSession  # noqa: PLC0415 - only on a first run

    session: PromptSession[str] = PromptSession()
    host = firstrun.ollama_host()
    models = await asyncio.to_thread(firstrun.ollama_models, host)
    print("No model is configured. Choose one (it is saved to your user config):", flush=True)
    for number, name in enumerate(models, 1):
        print(f"  {number}. {name} (Ollama at {host})")
    if not models:
        print(f"  (no Ollama answered at {host})")
    print(
        "  u. an OpenAI-compatible server: URL and key\n  e. the embedded model (tiny, offline)", flush=True
    )
    values: dict[str, Any] | None = None
    while values is None:
        choice = (await session.prompt_async("choice: ")).strip().lower()
        if choice.isdigit() and 1 <= int(choice) <= len(models):
            values = {"provider": "ollama", "model": models[int(choice) - 1]}
            if host != firstrun.OLLAMA_DEFAULT:
                values["base_url"] = host
        elif choice == "e":
            values = {"provider": "local"}
        elif choice == "u":
            values = await _openai(session)
    path = firstrun.write_user_config(values)
    print(f"saved to {path}", flush=True)
    return values


async def _openai(session: Any) -> dict[str, Any] | None:
    url = (await session.prompt_async("base URL (…/v1): ")).strip()
    key = (await session.prompt_async("API key (empty for none): ", is_password=True)).strip()
    model = (await session.prompt_async("model (empty: the server's only one): ")).strip()
    try:
        offered = await asyncio.to_thread(firstrun.check_openai, url, key)
    except BackendError as exc:
        print(f"that did not work: {exc}", flush=True)
        return None
    if not model and len(offered) != 1:
        print(f"name a model; the server offers: {', '.join(offered[:8]) or 'none'}", flush=True)
        return None
    return {"provider": "openai", "base_url": url, "api_key": key, "model": model or offered[0]}
