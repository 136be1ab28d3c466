"""The `plugins` command line (argparse only, so that `asi-agent --help` stays instant)."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_plugins_parser"]


def add_plugins_parser(sub: Any) -> None:
    """`plugins [list]`, `plugins install`, `plugins new` and `plugins add` (called by the CLI parser)."""
    plugins = sub.add_parser(
        "plugins",
        help="list, install, create and register plugins",
        description="Plugin packages (Python packages with an entry point in the asi_agent.plugins group): "
        "list the installed ones and their tools (the default), install one with pip, start a new one, "
        "or add a @tool function of the project to moss-tools.json.",
    )
    plugins.add_argument("--json", action="store_true", help="list the plugin packages as JSON")
    plugins.add_argument("--cwd", default=".", help="project root, for its disabled_plugins (default: .)")
    nested = plugins.add_subparsers(
        dest="plugins_command", metavar="ACTION", help="list (the default), install, new or add"
    )
    listing = nested.add_parser(
        "list",
        help="the installed plugin packages and their tools (the default)",
        description="The installed plugin packages, their versions, status and tools.",
    )
    listing.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="as JSON")
    listing.add_argument("--cwd", default=argparse.SUPPRESS, help="project root (default: .)")
    install = nested.add_parser(
        "install",
        help="pip install a plugin package into asi-agent's environment",
        description="Run pip install for the Python environment asi-agent runs in. Everything after the "
        "options is passed to pip as given: package names, folders, and pip options after them "
        "(`asi-agent plugins install ./my-plugin --no-index`).",
    )
    install.add_argument("-e", "--editable", action="store_true", help="install a folder in editable mode")
    install.add_argument("-U", "--upgrade", action="store_true", help="upgrade the package if installed")
    install.add_argument("pip_args", nargs=argparse.REMAINDER, metavar="PACKAGE", help="what to install")
    new = nested.add_parser(
        "new",
        help="start a plugin package: pyproject, one example tool, its test, a README",
        description="Write a small installable plugin project NAME/ (entry point, one example tool, one "
        "test using asi_agent.sdk.testing, a README).",
    )
    new.add_argument("name", metavar="NAME", help="the package name, e.g. word-stats")
    new.add_argument("--dir", default=".", help="where to create NAME/ (default: .)")
    add = nested.add_parser(
        "add",
        help="write the moss-tools.json entry of a @tool function",
        description="Write or update the project's moss-tools.json entry of a @tool function: name, "
        "description, parameters and risk come from the function.",
    )
    add.add_argument("target", metavar="PATH:FUNC", help="e.g. plugins/shout.py:shout (PATH from the root)")
    add.add_argument("--cwd", default=argparse.SUPPRESS, help="project root (default: .)")
