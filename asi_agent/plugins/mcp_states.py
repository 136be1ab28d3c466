"""What `asi-agent mcp list` shows: every MCP server asi-agent knows of here, where it is declared, its
transport and its state — started to list its tools, failed (why), awaiting approval, or ignored because
the folder is untrusted."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.plugins.loader import declared_servers
from asi_agent.plugins.mcp import McpConnection, McpHub, McpServerEntry
from asi_agent.plugins.mcp_oauth import FileTokenStorage, login_provider, token_path, wants_oauth
from asi_agent.plugins.mcp_sources import PROJECT_MCP_FILE, mcp_json_servers, read_mcp_json
from asi_agent.plugins.problems import MANIFEST_NAME
from asi_agent.sandbox import Sandbox

__all__ = ["ServerState", "find_server", "server_states", "sign_in"]


@dataclass(frozen=True, slots=True)
class ServerState:
    """One row of `asi-agent mcp list`."""

    name: str
    declared_in: str
    transport: str
    state: str
    """"ready", "failed", "awaiting approval" or "untrusted folder"."""
    detail: str = ""
    tools: tuple[str, ...] = ()


async def server_states(
    root: Path, user_dir: Path, *, trusted: bool, sandbox: Sandbox | None
) -> list[ServerState]:
    """Every server's state; the startable ones are started (in `sandbox`) and stopped again, and the
    sandbox's placeholders in the project go with them."""
    servers = declared_servers(root, user_dir, trusted=trusted)
    sources = mcp_json_servers(root, user_dir, trusted=trusted, taken=set(servers))
    servers.update(sources.servers)
    try:
        rows = [await _started(name, entry, root, sandbox, user_dir) for name, entry in servers.items()]
    finally:
        if sandbox is not None:  # the process ends without running exit handlers
            await sandbox.release()
    if trusted:
        found, _ = read_mcp_json(root / PROJECT_MCP_FILE, PROJECT_MCP_FILE)
        for name in sources.pending:
            rows.append(_row(found[name], "awaiting approval", f"asi-agent mcp approve {name}"))
    else:
        rows += _untrusted(root)
    return rows


async def _started(
    name: str, entry: McpServerEntry, root: Path, sandbox: Sandbox | None, user_dir: Path
) -> ServerState:
    hub = McpHub({name: entry}, root, sandbox, user_dir)
    try:
        specs, problems = await hub.start(set())
    finally:
        await hub.aclose()
    if name not in hub.connections and problems:
        state = "needs sign-in" if "asi-agent mcp login" in problems[0].message else "failed"
        return _row(entry, state, problems[0].message)
    return _row(entry, "ready", tools=tuple(spec.name for spec in specs))


def _untrusted(root: Path) -> list[ServerState]:
    """The project's servers, which an untrusted folder does not start."""
    from asi_agent.plugins.manifest import read_manifest  # noqa: PLC0415

    manifest = read_manifest(root / MANIFEST_NAME, MANIFEST_NAME, shown=MANIFEST_NAME, taken=set())
    found, _ = read_mcp_json(root / PROJECT_MCP_FILE, PROJECT_MCP_FILE)
    entries = [McpServerEntry(n, d, MANIFEST_NAME, root) for n, d in manifest.servers.items()]
    hint = "asi-agent trust, then it starts (a .mcp.json server after approval)"
    return [_row(entry, "untrusted folder", hint) for entry in [*entries, *found.values()]]


def _row(entry: McpServerEntry, state: str, detail: str = "", tools: tuple[str, ...] = ()) -> ServerState:
    return ServerState(entry.name, entry.manifest, entry.definition.transport, state, detail, tools)


def find_server(root: Path, user_dir: Path, name: str, *, trusted: bool) -> McpServerEntry | None:
    """The server of that name as a session here would see it (approval aside), or None."""
    servers = declared_servers(root, user_dir, trusted=trusted)
    sources = mcp_json_servers(root, user_dir, trusted=trusted, taken=set(servers))
    servers.update(sources.servers)
    if name not in servers and trusted:
        found, _ = read_mcp_json(root / PROJECT_MCP_FILE, PROJECT_MCP_FILE)
        servers.update(found)
    return servers.get(name)


async def sign_in(entry: McpServerEntry, root: Path, user_dir: Path, *, wait: float = 600) -> list[str]:
    """Run the OAuth sign-in for a remote server and keep its tokens; the tool names it then lists.
    ToolError when it fails (or `wait` seconds pass)."""
    definition = entry.definition
    if not definition.url or not wants_oauth(definition):
        raise ToolError(f"{entry.name} is not a remote server that signs in with OAuth")
    storage = FileTokenStorage(token_path(user_dir, entry.name), definition.url, signing_in=True)
    provider, callback = await login_provider(definition.url, storage)
    patient = replace(entry, definition=definition.model_copy(update={"timeout": wait}))
    connection = McpConnection(patient, root, None)
    connection.auth = provider
    try:
        tools = await connection.start()
    finally:
        await connection.aclose()
        callback.close()
    return [str(tool.name) for tool in tools]
