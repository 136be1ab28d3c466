"""The small subcommands: `tools`, `undo`, `sessions`, and `chat`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from asi_agent.exceptions import UserError

__all__ = ["chat", "sessions", "tools", "undo"]


def tools(args: argparse.Namespace) -> int:
    """List every tool with its source and class (or as JSON); report manifest problems (`--check`)."""
    import asyncio  # noqa: PLC0415 - the subcommands stay cheap to import

    from asi_agent.config import user_config_dir  # noqa: PLC0415
    from asi_agent.plugins import check_plugins, describe_tools  # noqa: PLC0415
    from asi_agent.tools.schema import tool_schema  # noqa: PLC0415

    registry, problems = asyncio.run(check_plugins(_root(args), user_config_dir()))
    rows = describe_tools(registry)
    if args.json:
        for row in rows:
            row["schema"] = tool_schema(registry.get(row["name"]))
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for row in rows:
            print(f"{row['name']:<32} {row['risk']:<8} {row['source']}")
    for problem in problems:
        print(f"asi-agent: {'error' if args.check else 'warning'}: {problem}", file=sys.stderr)
    return 1 if args.check and problems else 0


def undo(args: argparse.Namespace) -> int:
    """Revert the last N journaled changes, newest first."""
    from asi_agent.tools.files.journal import Journal  # noqa: PLC0415

    root = _root(args)
    reverted = Journal(root / ".asi").undo(root, args.count)
    if not reverted:
        print("nothing to undo")
    for entry in reverted:
        print(f"reverted #{entry.seq} {entry.tool} {entry.path}")
    return 0


def sessions(args: argparse.Namespace) -> int:
    """List the saved sessions of the project, newest first."""
    from asi_agent.session import SessionStore  # noqa: PLC0415

    found = SessionStore(_root(args) / ".asi").list()
    if not found:
        print("no sessions yet")
    for info in found:
        print(f"{info.id}  {info.started[:19]}  {info.status:<10} {info.task}")
    return 0


def chat(args: argparse.Namespace) -> int:
    """The TUI chat is not part of this version: say so, and point to what works."""
    raise UserError("the interactive chat is not available in this version; use `asi-agent run TASK`")


def _root(args: argparse.Namespace) -> Path:
    root = Path(args.cwd).expanduser().resolve()
    if not root.is_dir():
        raise UserError(f"--cwd {args.cwd}: not a directory")
    return root
