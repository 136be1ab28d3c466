"""The small subcommands: `tools`, `undo`, `sessions`, and `chat`."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from asi_agent.exceptions import UserError

__all__ = ["chat", "sessions", "tools", "undo"]


def tools(args: argparse.Namespace) -> int:
    """List every tool with its class and source, or print the schemas as JSON."""
    from asi_agent.tools.registry import default_registry  # noqa: PLC0415

    registry = default_registry()
    if args.json:
        print(json.dumps(registry.schemas("zh", only_implemented=False), ensure_ascii=False, indent=2))
        return 0
    for spec in registry.specs():
        state = "" if spec.run else "  (not available yet)"
        print(f"{spec.name:<30} {spec.risk:<8} {spec.source}{state}")
    return 0


def undo(args: argparse.Namespace) -> int:
    """Revert the last N journaled changes, newest first."""
    from asi_agent.tools.journal import Journal  # noqa: PLC0415

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
