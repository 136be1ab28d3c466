"""Loading plugin tools: the project's and the user's `moss-tools.json`, installed plugin packages, then
the manifests' MCP servers.

The project manifest is read first (only in a trusted folder: an untrusted one supplies no tools and no
MCP servers), then the user's, then the installed packages (`installed.py`): on a name clash the earlier
tool is kept and the later one reported. Manifest tools are registered without
running any plugin code; MCP servers start
when their tools are listed (`attach_mcp_servers`, at session start) and stop with the session.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from asi_agent.events import report_progress
from asi_agent.plugins.installed import installed_specs
from asi_agent.plugins.mcp import MCP_KEY, McpHub, McpServerEntry
from asi_agent.plugins.problems import MANIFEST_NAME, PluginProblem
from asi_agent.plugins.runners import command_runner, find_module, http_runner, python_runner
from asi_agent.tools.base import PluginArgs, ToolContext, ToolFunction, ToolSpec
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import ToolRegistry, default_registry
from asi_agent.tools.schema import DEFAULT_LOCALE

if TYPE_CHECKING:
    from asi_agent.plugins.manifest import PluginToolDef

__all__ = [
    "PROJECT_SOURCE",
    "USER_SOURCE",
    "attach_mcp_servers",
    "build_registry",
    "check_plugins",
    "declared_servers",
    "describe_tools",
    "load_plugin_tools",
    "plugin_spec",
    "project_supplies",
    "python_entry_problem",
]

PROJECT_SOURCE = MANIFEST_NAME
"""`ToolSpec.source` of tools from the project's manifest."""
USER_SOURCE = f"user:{MANIFEST_NAME}"
"""`ToolSpec.source` of tools from the user config folder's manifest."""


def plugin_spec(definition: PluginToolDef, *, source: str, plugin_dir: Path) -> ToolSpec:
    """The registry entry of one manifest tool (its runner reads files relative to `plugin_dir`)."""
    from asi_agent.plugins.manifest import CommandRun, HttpRun  # noqa: PLC0415 - see `_load`

    run: ToolFunction
    if isinstance(definition.run, CommandRun):
        run = command_runner(definition.name, definition.run, plugin_dir)
    elif isinstance(definition.run, HttpRun):
        run = http_runner(definition.name, definition.run)
    else:
        run = python_runner(definition.name, definition.run, plugin_dir)
    return ToolSpec(
        name=definition.name,
        args=PluginArgs,
        run=run,
        risk=definition.effective_risk(),
        source=source,
        description=definition.description,
        parameters=definition.parameters,
    )


def python_entry_problem(
    definition: PluginToolDef, *, manifest: str, plugin_dir: Path
) -> PluginProblem | None:
    """A python run whose module file does not exist (checked without importing anything)."""
    if definition.run.type != "python":
        return None
    module = definition.run.entry.split(":", 1)[0]
    if find_module(module, plugin_dir) is not None:
        return None
    rel = module.replace(".", "/")
    return PluginProblem(
        manifest,
        f"no module {module!r}: expected plugins/{rel}.py or {rel}.py next to the manifest",
        tool=definition.name,
        field="run.entry",
    )


def _manifests(root: Path, user_dir: Path, *, trusted: bool) -> list[tuple[Path, str, str]]:
    """(folder, source, name shown in problems) of the project's (if trusted) and the user's manifest."""
    project = [(root, PROJECT_SOURCE, MANIFEST_NAME)] if trusted else []
    return [*project, (user_dir, USER_SOURCE, str(user_dir / MANIFEST_NAME))]


def project_supplies(root: Path) -> list[str]:
    """What the project's own manifest declares, one phrase each ("moss-tools.json: tool 'x'",
    "moss-tools.json: MCP server 'y'"), read without running anything; [] without a manifest."""
    if not os.path.lexists(root / MANIFEST_NAME):
        return _mcp_json_supplies(root)
    from asi_agent.plugins.manifest import read_manifest  # noqa: PLC0415

    contents = read_manifest(root / MANIFEST_NAME, PROJECT_SOURCE, shown=MANIFEST_NAME, taken=set())
    found = [f"{MANIFEST_NAME}: tool {tool.name!r}" for tool in contents.tools]
    found += [f"{MANIFEST_NAME}: MCP server {name!r}" for name in contents.servers]
    if not found and contents.problems:
        found = [f"{MANIFEST_NAME} (which has problems)"]
    return found + _mcp_json_supplies(root)


def _mcp_json_supplies(root: Path) -> list[str]:
    """The project's `.mcp.json` servers, one phrase each."""
    from asi_agent.plugins.mcp_sources import PROJECT_MCP_FILE, read_mcp_json  # noqa: PLC0415

    found, problems = read_mcp_json(root / PROJECT_MCP_FILE, PROJECT_MCP_FILE)
    if not found and problems:
        return [f"{PROJECT_MCP_FILE} (which has problems)"]
    return [f"{PROJECT_MCP_FILE}: MCP server {name!r}" for name in found]


def _load(
    root: Path, user_dir: Path, taken: Collection[str], *, trusted: bool
) -> tuple[list[ToolSpec], dict[str, McpServerEntry], list[PluginProblem]]:
    """Specs of the manifest tools, the declared MCP servers (name → entry), and the problems."""
    names = set(taken)
    specs: list[ToolSpec] = []
    servers: dict[str, McpServerEntry] = {}
    problems: list[PluginProblem] = []
    for folder, source, shown in _manifests(root, user_dir, trusted=trusted):
        if not os.path.lexists(folder / MANIFEST_NAME):
            continue  # read_manifest would find nothing; its models take ~30 ms to build (field docstrings)
        from asi_agent.plugins.manifest import read_manifest  # noqa: PLC0415

        contents = read_manifest(folder / MANIFEST_NAME, source, shown=shown, taken=names)
        problems.extend(contents.problems)
        for definition in contents.tools:
            missing = python_entry_problem(definition, manifest=shown, plugin_dir=folder)
            if missing:
                problems.append(missing)
                continue
            names.add(definition.name)
            specs.append(plugin_spec(definition, source=source, plugin_dir=folder))
        for name, server in contents.servers.items():
            if name in servers:
                problems.append(
                    PluginProblem(
                        shown, "an MCP server of this name is already declared", tool=name, field="mcpServers"
                    )
                )
                continue
            servers[name] = McpServerEntry(name, server, shown, folder)
    return specs, servers, problems


def declared_servers(root: Path, user_dir: Path, *, trusted: bool) -> dict[str, McpServerEntry]:
    """The MCP servers both manifests declare (the project's only when `trusted`), by name."""
    return _load(root, user_dir, (), trusted=trusted)[1]


def load_plugin_tools(
    root: Path, user_dir: Path, *, trusted: bool, disabled_plugins: Collection[str] = ()
) -> tuple[list[ToolSpec], list[PluginProblem]]:
    """The tools of both manifests (the project's only when `trusted`) and of the installed plugin packages
    (MCP servers excluded: see `attach_mcp_servers`), and the problems; `disabled_plugins` names packages
    left out."""
    builtin = default_registry(extensions=True).names()
    specs, _, problems = _load(root, user_dir, builtin, trusted=trusted)
    installed, more = installed_specs({*builtin, *(spec.name for spec in specs)}, disabled_plugins)
    return [*specs, *installed], [*problems, *more]


def build_registry(
    root: Path,
    user_dir: Path,
    *,
    trusted: bool,
    locale: str = DEFAULT_LOCALE,
    disabled_plugins: Collection[str] = (),
    extensions: bool = False,
) -> tuple[ToolRegistry, list[PluginProblem]]:
    """The built-in tools (with `extensions`, the extension tools too) plus the manifests' (the project's
    only when `trusted`) and the installed packages' tools; problems are returned, never raised.
    `disabled_plugins` names plugin packages not to load (the configuration's)."""
    registry = default_registry(locale=locale, extensions=extensions)
    specs, _, problems = _load(root, user_dir, registry.names(), trusted=trusted)
    for spec in specs:
        registry.register(spec)
    installed, more = installed_specs(registry.names(), disabled_plugins)
    for spec in installed:
        registry.register(spec)
    return registry, [*problems, *more]


async def attach_mcp_servers(
    registry: ToolRegistry, ctx: ToolContext, *, user_dir: Path, trusted: bool
) -> list[PluginProblem]:
    """Start the manifests' MCP servers (the project's only when `trusted`), register their tools, and
    stop them when the session ends."""
    _, servers, _ = _load(ctx.root, user_dir, (), trusted=trusted)
    from asi_agent.plugins.mcp_sources import EDITOR_SERVERS_KEY, editor_entries, mcp_json_servers  # noqa: PLC0415

    sources = mcp_json_servers(ctx.root, user_dir, trusted=trusted, taken=set(servers))
    servers.update(sources.servers)
    early = [*sources.problems, *(_awaiting(name) for name in sources.pending)]
    editor = editor_entries(ctx.state.get(EDITOR_SERVERS_KEY) or {}, ctx.root, set(servers))
    servers.update(editor.servers)
    early += editor.problems
    if not servers:
        return early
    report_progress("starting MCP servers", ", ".join(servers))
    hub = McpHub(servers, ctx.root, ctx.sandbox, user_dir)
    ctx.cleanups.append(hub.aclose)
    ctx.state[MCP_KEY] = hub
    specs, problems = await hub.start(set(registry.names()))
    for spec in specs:
        registry.register(spec)
    hub.follow(registry)
    return [*early, *problems]


def _awaiting(name: str) -> PluginProblem:
    """A project `.mcp.json` server the person has not approved for this folder yet."""
    reason = "not started: approve it once for this folder with `asi-agent mcp approve " + name + "`"
    return PluginProblem(".mcp.json", reason, tool=name)


async def check_plugins(
    root: Path,
    user_dir: Path,
    *,
    trusted: bool,
    locale: str = DEFAULT_LOCALE,
    disabled_plugins: Collection[str] = (),
    extensions: bool = True,
) -> tuple[ToolRegistry, list[PluginProblem]]:
    """Everything `asi-agent tools [--check]` shows: all tools (MCP servers started, then stopped); the
    project's manifest only when `trusted`; the extension tools unless `extensions` is False."""
    registry, problems = build_registry(
        root,
        user_dir,
        trusted=trusted,
        locale=locale,
        disabled_plugins=disabled_plugins,
        extensions=extensions,
    )
    ctx = ToolContext(root, Journal(root / ".asi"))
    try:
        problems += await attach_mcp_servers(registry, ctx, user_dir=user_dir, trusted=trusted)
    finally:
        await ctx.aclose()
    return registry, problems


def describe_tools(registry: ToolRegistry) -> list[dict[str, Any]]:
    """One row per tool for `asi-agent tools`: name, source, risk, implemented."""
    return [
        {"name": spec.name, "source": spec.source, "risk": spec.risk, "implemented": spec.run is not None}
        for spec in registry.specs()
    ]
