"""`asi-agent plugins`: list the installed plugin packages, install one, start one, add a manifest tool."""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from asi_agent.exceptions import UserError
from asi_agent.ui.cli import project_root

__all__ = ["plugins_command"]


def plugins_command(args: argparse.Namespace) -> int:
    """Dispatch `plugins [list|install|new|add]`."""
    handlers = {"list": list_plugins, "install": install, "new": new, "add": add}
    return handlers[args.plugins_command or "list"](args)


def list_plugins(args: argparse.Namespace) -> int:
    """The installed plugin packages with their status and tools (as loaded in this project)."""
    from asi_agent.config import load_config, user_config_dir  # noqa: PLC0415
    from asi_agent.plugins import build_registry  # noqa: PLC0415
    from asi_agent.plugins.installed import find_installed_plugins  # noqa: PLC0415

    root = project_root(args)
    config = load_config(root)
    disabled = config.disabled_plugins
    found = find_installed_plugins(disabled)
    registry, _ = build_registry(
        root, user_config_dir(), trusted=config.trust.trusted, disabled_plugins=disabled
    )
    rows = [_row(plugin, registry) for plugin in found]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    if not rows:
        print(
            f"no plugin packages are installed in {sys.prefix}: `asi-agent plugins new NAME` starts one, "
            "`asi-agent plugins install NAME` installs one"
        )
    for row in rows:
        print(f"{row['package']} {row['version']}  entry point {row['name']} = {row['entry_point']}")
        if row["status"] == "disabled":
            print("  disabled: named in disabled_plugins of the configuration")
        elif row["status"] == "broken":
            print(f"  broken: {row['problem']}")
        for tool in row["tools"]:
            note = "" if tool["loaded"] else f"  (not loaded: the name is taken by {tool['taken_by']})"
            print(f"  {tool['name']:<30} {tool['risk']:<8} {tool['description']}{note}")
    return 0


def _row(plugin: Any, registry: Any) -> dict[str, Any]:
    """One package of the listing; a tool is loaded when the registry holds it from this package."""
    tools = []
    for tool in plugin.tools:
        held = registry.get(tool.name).source if tool.name in registry else None
        loaded = plugin.status == "enabled" and held == plugin.source
        taken_by = held if plugin.status == "enabled" and not loaded else None
        tools.append(
            {
                "name": tool.name,
                "risk": tool.risk,
                "description": tool.description,
                "loaded": loaded,
                "taken_by": taken_by,
            }
        )
    return {
        "name": plugin.name,
        "package": plugin.package,
        "version": plugin.version,
        "entry_point": plugin.target,
        "status": plugin.status,
        "problem": plugin.problem or None,
        "tools": tools,
    }


def install(args: argparse.Namespace) -> int:
    """`pip install` for the Python environment asi-agent runs in; then say which plugin packages came."""
    import importlib.util  # noqa: PLC0415

    from asi_agent.plugins.installed import plugin_packages  # noqa: PLC0415

    if not args.pip_args:
        raise UserError("plugins install needs what to install: a package name, a folder or a wheel")
    if importlib.util.find_spec("pip") is None:
        raise UserError(
            f"pip is not installed in asi-agent's environment ({sys.prefix}): run `{sys.executable} -m "
            f"ensurepip`, or `uv pip install --python {sys.executable} {shlex.join(args.pip_args)}`"
        )
    argv = [sys.executable, "-m", "pip", "install"]
    argv += ["--upgrade"] * args.upgrade + ["--editable"] * args.editable + args.pip_args
    print(
        f"asi-agent: installing into the environment asi-agent runs in ({sys.prefix}): {shlex.join(argv)}",
        file=sys.stderr,
        flush=True,
    )
    before = plugin_packages()
    code = subprocess.call(argv)
    if code != 0:
        print(f"asi-agent: error: pip failed (exit code {code}); nothing new is loaded", file=sys.stderr)
        return code
    came = sorted(plugin_packages() - before)
    if came:
        print(f"installed plugin package {', '.join(came)}; `asi-agent plugins` lists its tools")
    else:
        print(
            "pip finished, but no new plugin package appeared: what was installed declares no entry point "
            "in the asi_agent.plugins group, or this version was installed already (`asi-agent plugins`)"
        )
    return 0


def new(args: argparse.Namespace) -> int:
    """Write a new plugin project NAME/ and say what to do next."""
    from asi_agent.plugins.scaffold import plugin_names, write_scaffold  # noqa: PLC0415
    from asi_agent.tools.registry import default_registry  # noqa: PLC0415

    parent = Path(args.dir).expanduser().resolve()
    if not parent.is_dir():
        raise UserError(f"--dir {args.dir}: not a directory")
    names = plugin_names(args.name, set(default_registry().names()))
    folder = parent / args.name
    written = write_scaffold(names, folder)
    for path in written:
        print(f"created {path.relative_to(parent)}")
    # The test runs with asi-agent's own interpreter: the plugin (and pytest, its `test` extra) are
    # installed there, not in whatever `python` is first on PATH.
    print(
        f"\nthe plugin {names.package} offers the tool {names.tool} (src/{names.module}/tools.py). Next, "
        "install it (with pytest) into asi-agent's environment, see it listed, and run its test there:\n"
        f"  asi-agent plugins install -e {shlex.quote(f'{folder}[test]')}\n"
        "  asi-agent plugins\n"
        f"  {shlex.quote(sys.executable)} -m pytest {shlex.quote(str(folder / 'tests'))}"
    )
    return 0


def add(args: argparse.Namespace) -> int:
    """Write or update the project's moss-tools.json entry of a @tool function."""
    from asi_agent.plugins.adding import add_tool  # noqa: PLC0415
    from asi_agent.tools.registry import default_registry  # noqa: PLC0415

    print(add_tool(project_root(args), args.target, builtin=set(default_registry().names())))
    return 0
