"""The Textual chat (`asi-agent`, `asi-agent chat`). Imported only when the chat starts."""

from __future__ import annotations

import argparse

__all__ = ["run_tui"]


def run_tui(args: argparse.Namespace) -> int:
    """Run the full-screen chat until the person quits; returns the exit code."""
    from asi_agent.threads import leave  # noqa: PLC0415
    from asi_agent.ui.tui.app import ChatApp  # noqa: PLC0415 - textual loads only here

    app = ChatApp(args)
    code = app.run()
    return leave(code or 0)  # a model still writing an interrupted reply must not hold the process
