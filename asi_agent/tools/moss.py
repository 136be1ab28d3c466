"""The two write-class tools of spec §3.3: registering a plugin tool, and editing the user prompt.

`moss_register_plugin_tool` checks a definition exactly as the manifest loader does, adds it to the
project's `moss-tools.json` through the journaled write path (so `asi-agent undo` removes it again) and
registers it in the session's live registry (`ctx.state[REGISTRY_KEY]`), so it can be called at once.

`moss_update_asi_user_prompt` edits `.asi/USER_PROMPT.md` (scope "project", journaled like any write;
this fixed file is the one exception to "tools never write `.asi/`") or the user config folder's
`USER_PROMPT.md` (scope "global": atomic write, journaled in that folder's `history/`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from asi_agent.config import user_config_dir
from asi_agent.exceptions import ToolError
from asi_agent.plugins.loader import PROJECT_SOURCE, plugin_spec, python_entry_problem
from asi_agent.plugins.manifest import MANIFEST_NAME, PluginToolDef, check_tool
from asi_agent.tools.args import MossRegisterPluginToolArgs, MossUpdateAsiUserPromptArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.catalog import builtin_specs
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.files.ops import ChangePlanned, commit_change
from asi_agent.tools.files.textio import read_if_present, write_atomic
from asi_agent.tools.registry import REGISTRY_KEY, ToolRegistry

__all__ = ["USER_PROMPT_NAME", "moss_register_plugin_tool", "moss_update_asi_user_prompt"]

USER_PROMPT_NAME = "USER_PROMPT.md"
"""The user prompt's file name, in `.asi/` (project) and in the user config folder (global)."""


async def moss_register_plugin_tool(args: MossRegisterPluginToolArgs, ctx: ToolContext) -> str:
    """Add a tool to the project's `moss-tools.json` and, when the session allows it, register it now."""
    registry = ctx.state.get(REGISTRY_KEY)
    live = registry if isinstance(registry, ToolRegistry) else None
    path = ctx.root / MANIFEST_NAME
    before = read_if_present(path)
    data = _manifest_data(before)
    taken = set(live.names()) if live else {spec.name for spec in builtin_specs()}
    taken |= {str(tool.get("name")) for tool in data["tools"] if isinstance(tool, dict)}
    raw = {
        "name": args.name,
        "description": args.description,
        "parameters": args.parameters,
        "risk": args.risk,
        "run": args.run,
    }
    checked = check_tool(raw, manifest=MANIFEST_NAME, taken=taken)
    if isinstance(checked, list):
        raise ToolError("the tool was not registered:\n" + "\n".join(str(problem) for problem in checked))
    missing = python_entry_problem(checked, manifest=MANIFEST_NAME, plugin_dir=ctx.root)
    if missing:
        raise ToolError(f"the tool was not registered: {missing}. Create the module first")
    data["tools"].append(_entry(checked))
    after = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    commit_change(ctx, path, before, after, tool="moss_register_plugin_tool")
    if live is None:
        return f"{checked.name} was added to {MANIFEST_NAME}; it can be called from the next session on"
    live.register(plugin_spec(checked, source=PROJECT_SOURCE, plugin_dir=ctx.root))
    return f"{checked.name} was added to {MANIFEST_NAME} and registered; you can call it now"


async def moss_update_asi_user_prompt(args: MossUpdateAsiUserPromptArgs, ctx: ToolContext) -> str:
    """Append to or replace the project's or the person's standing instructions (USER_PROMPT.md)."""
    text = args.content.strip()
    if not text and args.mode == "append":
        raise ToolError("content is empty; give the instruction text to add to the user prompt")
    if args.scope == "project":
        # A fixed path, not one the model chose: resolve_in_project's `.asi/` refusal does not apply.
        path = ctx.root.resolve() / ".asi" / USER_PROMPT_NAME
        before = read_if_present(path)
        after = _updated(before, text, args.mode)
        commit_change(ctx, path, before, after, tool="moss_update_asi_user_prompt")
        where = f".asi/{USER_PROMPT_NAME}"
    else:
        user_dir = user_config_dir()
        path = user_dir / USER_PROMPT_NAME
        before = read_if_present(path)
        after = _updated(before, text, args.mode)
        _write_global(ctx, user_dir, before, after)
        where = f"the global {USER_PROMPT_NAME}"
    verb = "appended to" if args.mode == "append" else "replaced"
    return (
        f"{verb} {where} ({len(after.decode('utf-8'))} characters now); "
        "it is part of the system prompt from the next session on"
    )


def _write_global(ctx: ToolContext, user_dir: Path, before: bytes | None, after: bytes) -> None:
    """Write the global prompt atomically and journal it in the user folder (the project's journal
    only holds project files, so `asi-agent undo` keeps working there)."""
    path = user_dir / USER_PROMPT_NAME
    if ctx.dry_run:
        raise ChangePlanned(str(path), before, after)
    try:
        user_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(path, after)
    except OSError as exc:
        raise ToolError(f"cannot write the global {USER_PROMPT_NAME}: {exc.strerror or exc}") from exc
    Journal(user_dir / "history").record(
        USER_PROMPT_NAME, before, after, tool="moss_update_asi_user_prompt", session_id=ctx.session_id
    )


def _updated(before: bytes | None, text: str, mode: str) -> bytes:
    """The new prompt file: the old one plus `text` (append), or `text` alone (replace)."""
    old = (before or b"").decode("utf-8", "replace").rstrip()
    new = f"{old}\n\n{text}" if mode == "append" and old else text
    return (new + "\n").encode("utf-8") if new else b""



def _manifest_data(before: bytes | None) -> dict[str, Any]:
    """The project manifest as a dict with a `tools` list; a broken one is reported, never overwritten."""
    if before is None:
        return {"version": 1, "tools": []}
    try:
        data = json.loads(before.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        where = f" at line {exc.lineno}, column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise ToolError(
            f"{MANIFEST_NAME} is not valid JSON{where}; fix it (read_file, replace_text) before registering"
        ) from exc
    if not isinstance(data, dict) or not isinstance(data.setdefault("tools", []), list):
        raise ToolError(f'{MANIFEST_NAME} must hold an object with a "tools" list; fix it before registering')
    return data


def _entry(definition: PluginToolDef) -> dict[str, Any]:
    """The manifest entry written for a tool: its fields in the documented order, run defaults left out."""
    return {
        "name": definition.name,
        "description": definition.description,
        "parameters": definition.parameters,
        "risk": definition.risk,
        "run": {"type": definition.run.type} | definition.run.model_dump(mode="json", exclude_defaults=True),
    }
