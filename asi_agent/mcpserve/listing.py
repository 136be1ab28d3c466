"""`asi-agent mcp list` and `asi-agent mcp approve`: the MCP servers of this folder and the person's
approval of a project's `.mcp.json` servers."""

from __future__ import annotations

import argparse
import asyncio
import json
from dataclasses import asdict

from asi_agent.assembly import contain
from asi_agent.config import load_config, user_config_dir
from asi_agent.exceptions import ToolError, UserError
from asi_agent.mcpserve.paths import project_root
from asi_agent.plugins.mcp_sources import approve_servers
from asi_agent.plugins.mcp_states import find_server, server_states, sign_in
from asi_agent.policy import load_policy
from asi_agent.runsettings import trusted_flag

__all__ = ["approve_command", "list_command", "login_command"]


def list_command(args: argparse.Namespace) -> int:
    """One line (or JSON object) per server: name, state, transport, where it is declared, tools."""
    root = project_root(args)
    config = load_config(root, trusted=trusted_flag(args))
    sandbox, _ = contain(root, config, load_policy(config.policy, root), "ask")
    rows = asyncio.run(server_states(root, user_config_dir(), trusted=config.trust.trusted, sandbox=sandbox))
    if args.json:
        print(json.dumps([asdict(row) for row in rows], ensure_ascii=False, indent=2))
        return 0
    if not rows:
        print("no MCP servers configured (moss-tools.json, .mcp.json, or mcp.json in the user's folder)")
    for row in rows:
        print(f"{row.name:<20} {row.state:<18} {row.transport:<6} {row.declared_in}")
        if row.tools:
            print(f"  tools: {', '.join(row.tools)}")
        if row.detail:
            print(f"  {row.detail}")
    return 0


def login_command(args: argparse.Namespace) -> int:
    """Sign in to a remote MCP server with OAuth; its tokens are kept in the user's configuration."""
    root = project_root(args)
    config = load_config(root, trusted=trusted_flag(args))
    entry = find_server(root, user_config_dir(), args.name, trusted=config.trust.trusted)
    if entry is None:
        raise UserError(f"no MCP server {args.name!r} is configured here (`asi-agent mcp list` shows them)")
    try:
        tools = asyncio.run(sign_in(entry, root, user_config_dir()))
    except ToolError as exc:
        raise UserError(f"signing in to {args.name} failed: {exc}") from None
    print(f"signed in to {args.name}: {len(tools)} tools")
    return 0


def approve_command(args: argparse.Namespace) -> int:
    """Approve the project's `.mcp.json` servers (all, or those named) for this folder."""
    root = project_root(args)
    approved, unknown = approve_servers(root, user_config_dir(), args.names or None)
    if unknown:
        raise UserError(f"no server {', '.join(unknown)} in {root / '.mcp.json'}")
    if not approved:
        print(f"{root / '.mcp.json'} declares no MCP server")
    for name in approved:
        print(f"approved {name} for {root}")
    return 0
