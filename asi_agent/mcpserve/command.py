"""Running `asi-agent mcp list|serve`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path

from asi_agent.assembly import trust_notice
from asi_agent.config import AsiConfig, load_config
from asi_agent.exceptions import UserError
from asi_agent.mcpserve.paths import project_root
from asi_agent.runsettings import config_flags, trusted_flag

__all__ = ["mcp_command"]

log = logging.getLogger("asi_agent.mcpserve")


def mcp_command(args: argparse.Namespace) -> int:
    """Dispatch `mcp list|login|approve|serve`."""
    if args.mcp_command == "serve":
        return serve_command(args)
    from asi_agent.mcpserve import listing  # noqa: PLC0415

    handlers = {"approve": listing.approve_command, "login": listing.login_command}
    return handlers.get(args.mcp_command, listing.list_command)(args)


def serve_command(args: argparse.Namespace) -> int:
    """Serve the project's tools over MCP on stdin/stdout until the client closes the connection."""
    from asi_agent.mcpserve.tools import parse_tools_option  # noqa: PLC0415

    root = project_root(args)
    config = load_config(root, config_flags(args), trusted=trusted_flag(args))
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="asi-agent mcp: %(message)s")
    tools = parse_tools_option(args.tools)
    asyncio.run(_serve(root, config, tools, port=args.http))
    return 0


async def _serve(root: Path, config: AsiConfig, tools: str | tuple[str, ...], *, port: int | None) -> None:
    from asi_agent.mcpserve.server import AsiToolServer  # noqa: PLC0415 - the MCP SDK, only here

    try:
        served = AsiToolServer(root, config, tools)
    except ValueError as exc:
        raise UserError(f"--tools: {exc}") from None
    print(f"asi-agent mcp: serving {root} ({served.agent.runner.ctx.sandbox_note})", file=sys.stderr)
    if notice := trust_notice(root, config):  # why the folder's own MCP servers and tools are not served
        log.warning("%s", notice)
    try:
        for problem in await served.attach():
            log.warning("%s", problem)
        server = served.build()
        if port is not None:
            from asi_agent.mcpserve.http import serve_http  # noqa: PLC0415

            await serve_http(server, port=port, token=os.environ.get("ASI_MCP_TOKEN"))
            return
        from mcp.server.stdio import stdio_server  # noqa: PLC0415 - heavy, only here

        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    finally:
        await served.aclose()
