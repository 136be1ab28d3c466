"""Running `asi-agent acp`: standard output becomes the protocol's channel, the agent serves until the
editor closes standard input."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import IO

from asi_agent.config import load_config
from asi_agent.runsettings import config_flags, trusted_flag

__all__ = ["acp_command"]


def acp_command(args: argparse.Namespace) -> int:
    """Serve the Agent Client Protocol on stdin/stdout; 0 when the editor closed the connection.

    UserError (exit 1, before anything is served) for bad options or a bad user configuration."""
    flags = config_flags(args)
    trusted = trusted_flag(args)
    load_config(Path.cwd(), flags, trusted=trusted)  # a bad flag or config: reported now, not per session
    channel = _protocol_channel()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="asi-agent acp: %(message)s")
    from asi_agent.acp.server import serve  # noqa: PLC0415 - the protocol's SDK, only for this command

    asyncio.run(serve(flags, channel, trusted=trusted))
    return 0


def _protocol_channel() -> IO[bytes]:
    """Standard output, kept for the protocol alone: file descriptor 1 (and `print`, and the commands
    the tools start, which inherit it) goes to standard error from now on, so that nothing else can
    write into the protocol's stream."""
    sys.stdout.flush()
    channel = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return channel
