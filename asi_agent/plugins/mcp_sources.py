"""MCP servers configured in Claude Code's format: the user's `mcp.json` (in the configuration folder)
and a project's `.mcp.json` — read only in a trusted folder, and each of its servers started only after
the person approved it there once (`asi-agent mcp approve`), as Claude Code asks before a project's
servers start. An approval is kept per folder (real path) with a digest of the server's definition, so
a server the folder changes afterwards waits for approval again.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from asi_agent.plugins.mcp import McpServerEntry
from asi_agent.plugins.problems import PluginProblem

__all__ = [
    "APPROVALS_FILE", "EDITOR_SERVERS_KEY", "PROJECT_MCP_FILE", "USER_MCP_FILE", "McpSources",
    "approve_servers", "digest", "editor_entries", "is_approved", "mcp_json_servers", "read_mcp_json",
]  # fmt: skip

PROJECT_MCP_FILE = ".mcp.json"
USER_MCP_FILE = "mcp.json"
EDITOR_SERVERS_KEY = "asi_agent.plugins.editor_mcp_servers"
"""The `ctx.state` key of the MCP servers an editor sent ({name: definition}), started as the user's."""
APPROVALS_FILE = "mcp-approvals.json"
"""In the user's configuration folder: {"folders": {real path: {server: digest}}}."""


@dataclass(slots=True)
class McpSources:
    """The servers of both files that may start, the problems, and the project's awaiting approval."""

    servers: dict[str, McpServerEntry] = field(default_factory=dict)
    problems: list[PluginProblem] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)


def read_mcp_json(path: Path, shown: str) -> tuple[dict[str, McpServerEntry], list[PluginProblem]]:
    """The valid servers of one `{"mcpServers": {...}}` file and what was wrong with the others."""
    from asi_agent.plugins.manifest import McpServerDef  # noqa: PLC0415 - pydantic models, built on use

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, []
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return {}, [PluginProblem(shown, f"cannot read the file: {exc}")]
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        return {}, [PluginProblem(shown, 'expected an object {"mcpServers": {NAME: {...}}}')]
    found: dict[str, McpServerEntry] = {}
    problems: list[PluginProblem] = []
    for name, raw in servers.items():
        try:
            definition = McpServerDef.model_validate(raw)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(["mcpServers", name, *(str(p) for p in error["loc"])])
            problems.append(PluginProblem(shown, error["msg"], tool=name, field=where))
            continue
        found[name] = McpServerEntry(name, definition, shown, path.parent)
    return found, problems


def mcp_json_servers(root: Path, user_dir: Path, *, trusted: bool, taken: set[str]) -> McpSources:
    """The project's `.mcp.json` servers (trusted and approved ones only), then the user's `mcp.json`;
    a name in `taken` (declared elsewhere already) is a problem."""
    sources = McpSources()
    files = [(user_dir / USER_MCP_FILE, str(user_dir / USER_MCP_FILE), False)]
    if trusted:
        files.insert(0, (root / PROJECT_MCP_FILE, PROJECT_MCP_FILE, True))
    for path, shown, project in files:
        if not os.path.lexists(path):
            continue
        found, problems = read_mcp_json(path, shown)
        sources.problems += problems
        for name, entry in found.items():
            if name in taken or name in sources.servers:
                problem = PluginProblem(shown, "an MCP server of this name is already declared", tool=name)
                sources.problems.append(problem)
            elif project and not is_approved(root, user_dir, entry):
                sources.pending.append(name)
            else:
                sources.servers[name] = entry
    return sources


def editor_entries(servers: dict[str, Any], root: Path, taken: set[str]) -> McpSources:
    """The servers an editor sent, checked as a configuration file's are."""
    from asi_agent.plugins.manifest import McpServerDef  # noqa: PLC0415

    sources = McpSources()
    for name, raw in servers.items():
        if name in taken:
            sources.problems.append(
                PluginProblem("editor", "an MCP server of this name is already declared", tool=name)
            )
            continue
        try:
            definition = McpServerDef.model_validate(raw)
        except ValidationError as exc:
            sources.problems.append(PluginProblem("editor", exc.errors()[0]["msg"], tool=name))
            continue
        sources.servers[name] = McpServerEntry(name, definition, "editor", root)
    return sources


def digest(entry: McpServerEntry) -> str:
    """What an approval is bound to: the server's definition as the folder wrote it."""
    text = json.dumps(entry.definition.model_dump(mode="json"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _approvals(user_dir: Path) -> dict[str, dict[str, str]]:
    try:
        data = json.loads((user_dir / APPROVALS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    folders = data.get("folders") if isinstance(data, dict) else None
    return folders if isinstance(folders, dict) else {}


def is_approved(root: Path, user_dir: Path, entry: McpServerEntry) -> bool:
    """Whether the person approved this exact server for this folder."""
    return _approvals(user_dir).get(str(root.resolve()), {}).get(entry.name) == digest(entry)


def approve_servers(root: Path, user_dir: Path, names: list[str] | None) -> tuple[list[str], list[str]]:
    """Approve the project's `.mcp.json` servers `names` (None: all) for this folder; (approved, unknown)."""
    found, _ = read_mcp_json(root / PROJECT_MCP_FILE, PROJECT_MCP_FILE)
    wanted = list(found) if names is None else names
    unknown = [name for name in wanted if name not in found]
    folders = _approvals(user_dir)
    mine = folders.setdefault(str(root.resolve()), {})
    approved = [name for name in wanted if name in found]
    for name in approved:
        mine[name] = digest(found[name])
    user_dir.mkdir(parents=True, exist_ok=True)
    path = user_dir / APPROVALS_FILE
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps({"folders": folders}, indent=2) + "\n", encoding="utf-8")
    os.chmod(temporary, 0o600)
    temporary.replace(path)
    return approved, unknown
