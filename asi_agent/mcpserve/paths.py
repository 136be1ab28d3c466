"""The project folder an `asi-agent mcp` command works on."""

from __future__ import annotations

import argparse
from pathlib import Path

from asi_agent.exceptions import UserError

__all__ = ["project_root"]


def project_root(args: argparse.Namespace) -> Path:
    """`--cwd`, resolved; UserError when it is not a folder."""
    root = Path(args.cwd).expanduser().resolve()
    if not root.is_dir():
        raise UserError(f"--cwd {args.cwd}: not a directory")
    return root
