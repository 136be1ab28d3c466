"""`asi-agent hooks`: the hooks active in a project folder, and where each comes from."""

from __future__ import annotations

import argparse
import sys

from asi_agent.config import load_config, user_config_dir
from asi_agent.hooks import load_hooks
from asi_agent.ui.cli import project_root

__all__ = ["hooks"]


def hooks(args: argparse.Namespace) -> int:
    """List the active hooks (event, matcher, timeout, how it runs, source, command)."""
    root = project_root(args)
    config = load_config(root, trusted=True if args.trust else None)
    trusted = config.trust.trusted
    found, ignored = load_hooks(root, user_config_dir(), trusted=trusted)
    if not found:
        print("no hooks are active (settings.json in your configuration folder, or a trusted project's)")
    for hook in found:
        runs = "sandbox" if hook.contained else "as you"
        matcher = hook.matcher or "*"
        print(f"{hook.event:<17} {matcher:<16} {hook.timeout:>5g}s  {runs:<8} {hook.source}: {hook.command}")
    if ignored:
        listed = "; ".join(ignored)
        print(f"asi-agent: note: {root} is not a trusted folder; not run: {listed}", file=sys.stderr)
    return 0
