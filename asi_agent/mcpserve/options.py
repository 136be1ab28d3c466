"""The `mcp` command line (argparse only, so that `asi-agent --help` stays instant)."""

from __future__ import annotations

from typing import Any

__all__ = ["add_mcp_parser"]

MODES = ("ask", "auto-edit", "plan", "yolo")


def add_mcp_parser(sub: Any) -> None:
    """The `mcp` subcommand and its `list`, `login` and `serve` (called by the CLI parser)."""
    mcp = sub.add_parser(
        "mcp",
        help="MCP servers: their state, OAuth sign-in; asi-agent as an MCP server",
        description="The MCP servers asi-agent would start here, signing in to a remote one, and serving "
        "asi-agent's own tools to MCP clients.",
    )
    commands = mcp.add_subparsers(
        dest="mcp_command", metavar="COMMAND", required=True, help="list, login, approve or serve"
    )
    listing = commands.add_parser(
        "list",
        help="each MCP server configured here and its state",
        description="Each MCP server asi-agent would start here, where it is declared, its transport and its "
        "state (ready, failed, needs sign-in, awaiting approval, untrusted folder); the startable ones are "
        "started to list their tools and stopped again.",
    )
    listing.add_argument("--cwd", default=".", help="project root (default: .)")
    listing.add_argument("--json", action="store_true", help="the servers as JSON")
    listing.add_argument(
        "--trust", action="store_true", help="trust the folder for this listing (not stored)"
    )
    login = commands.add_parser(
        "login",
        help="sign in to a remote MCP server (OAuth)",
        description="Sign in to a remote MCP server with OAuth: the sign-in address is printed (and opened "
        "in a browser when one is at hand); the tokens are kept, private, in the user's configuration "
        "folder.",
    )
    login.add_argument("name", metavar="NAME", help="the server, as `asi-agent mcp list` names it")
    login.add_argument("--cwd", default=".", help="project root (default: .)")
    login.add_argument("--trust", action="store_true", help="trust the folder for this sign-in (not stored)")
    approve = commands.add_parser(
        "approve",
        help="let the project's .mcp.json servers start in this folder",
        description="Approve the MCP servers of the project's .mcp.json for this folder (all, or those "
        "named). The approval is kept with the server's definition: a changed server asks again.",
    )
    approve.add_argument("names", nargs="*", metavar="NAME", help="servers to approve (default: all)")
    approve.add_argument("--cwd", default=".", help="project root (default: .)")
    serve = commands.add_parser(
        "serve",
        help="serve the ASI tools of one project folder over MCP (stdio, or streamable HTTP)",
        description="An MCP server on standard input and output offering the project's tools, every call "
        "gated by the policy, journaled (asi-agent undo reverts edits) and sandboxed. Approvals go to the "
        "client's person through MCP elicitation where the client supports it; otherwise a call the "
        "policy would ask about is refused. With --tools all (or a list naming server__tool), the MCP "
        "servers asi-agent uses here are started too (a project's only in a trusted folder) and their "
        "tools served, gated the same way.",
    )
    add = serve.add_argument
    add("--cwd", default=".", help="the project folder served (default: .)")
    add(
        "--http",
        type=int,
        metavar="PORT",
        help="serve streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio; requests need the bearer "
        "token in ASI_MCP_TOKEN (else one is made and printed on standard error)",
    )
    add(
        "--tools",
        default="asi",
        help="asi (the spec's 22 tools and the two moss tools, default), all (with the tools of the MCP "
        "servers asi-agent uses here, named server__tool), or a comma-separated list",
    )
    add(
        "--approval", choices=list(MODES), help="the permission mode (default: the configuration's, else ask)"
    )
    add("--yes", action="store_true", help="never ask (same as --approval yolo)")
    add("--policy", help="policy preset name or TOML file")
    add("--no-sandbox", action="store_true", help="run commands without the OS sandbox, as you (explicit)")
    add("--allow-network", action="store_true", help="let sandboxed commands use the network")
    add("--trust", action="store_true", help="trust the folder while serving (not stored)")
    # What `config_flags` reads that has no meaning without a model.
    serve.set_defaults(
        provider=None,
        model=None,
        base_url=None,
        tool_mode=None,
        call_format=None,
        max_turns=None,
        timeout=None,
    )
