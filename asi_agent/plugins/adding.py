"""`asi-agent plugins add PATH:FUNC`: the project's `moss-tools.json` entry of a `@tool` function.

The function is imported exactly as the `python` runner will import it at call time (the file found
from its `module:function` entry, under a private name), so an entry that is written also resolves.
Its name, description, parameters and risk come from the decorator; the entry is checked as the
loader checks it, then added, or replaces the entry of the same name or the same function. The rest
of the manifest (other tools, `mcpServers`, `$schema`) is kept as it was; the file is written atomically.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from asi_agent.exceptions import ToolError, UserError
from asi_agent.plugins.problems import MANIFEST_NAME
from asi_agent.plugins.runners import find_module, load_entry

__all__ = ["add_tool", "entry_of"]


def entry_of(root: Path, target: str) -> tuple[Path, str]:
    """The file and the `module:function` entry of `PATH:FUNC` (PATH relative to `root`)."""
    path_text, sep, function = target.rpartition(":")
    if not sep or not path_text or not function.isidentifier():
        raise UserError(f"{target!r}: expected PATH:FUNC, e.g. plugins/shout.py:shout")
    path = (root / path_text).resolve()
    if path.suffix != ".py" or not path.is_file():
        raise UserError(f"{path_text}: not a Python file; give the .py file that defines {function}")
    if not path.is_relative_to(root):
        raise UserError(f"{path_text}: outside the project {root}; move the file into plugins/")
    base = root / "plugins" if path.is_relative_to(root / "plugins") else root
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    if not parts or not all(part.isidentifier() for part in parts):
        raise UserError(f"{path_text}: its path is not an importable module name; rename it (letters, _)")
    module = ".".join(parts)
    found = find_module(module, root)
    if found is None or found.resolve() != path:
        raise UserError(
            f"{path_text}: the module name {module!r} would load {found} instead; rename one of the two"
        )
    return path, f"{module}:{function}"


def add_tool(root: Path, target: str, *, builtin: set[str]) -> str:
    """Write or update the manifest entry of `PATH:FUNC`; returns what was done, in one line."""
    from asi_agent.plugins.manifest import check_tool  # noqa: PLC0415 - its models are costly to build
    from asi_agent.tools.files.textio import write_atomic  # noqa: PLC0415

    _, entry = entry_of(root, target)
    module, function = entry.split(":")
    try:
        tool = load_entry(function, module, function, root)
    except ToolError as exc:
        raise UserError(str(exc)) from None
    manifest = root / MANIFEST_NAME
    data = _read(manifest)
    tools: list[Any] = data["tools"]
    same = [
        index
        for index, item in enumerate(tools)
        if isinstance(item, dict) and (item.get("name") == tool.name or _entry(item) == entry)
    ]
    others = [item for index, item in enumerate(tools) if isinstance(item, dict) and index not in same]
    taken = builtin | {str(item.get("name")) for item in others}
    checked = check_tool(tool.manifest_entry(entry), manifest=MANIFEST_NAME, taken=taken)
    if isinstance(checked, list):
        problems = "\n".join(f"  {problem}" for problem in checked)
        raise UserError(f"{tool.name} was not added:\n{problems}")
    written = {
        "name": checked.name,
        "description": checked.description,
        "parameters": checked.parameters,
        "risk": checked.risk,
        "run": {"type": "python", "entry": entry},
    }
    if same:
        tools[same[0]] = written
        for index in reversed(same[1:]):
            del tools[index]
    else:
        tools.append(written)
    write_atomic(manifest, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    verb = "updated" if same else "added"
    return f"{verb} tool {checked.name!r} ({checked.risk}, entry {entry}) in {MANIFEST_NAME}"


def _entry(item: dict[str, Any]) -> object:
    run = item.get("run")
    return run.get("entry") if isinstance(run, dict) else None


def _read(manifest: Path) -> dict[str, Any]:
    """The manifest as a dict with a `tools` list; a broken one is reported, never overwritten."""
    try:
        text = manifest.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {"version": 1, "tools": []}
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{manifest}: cannot read it: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(
            f"{manifest}:{exc.lineno}:{exc.colno}: invalid JSON ({exc.msg}); fix it, then add the tool again"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.setdefault("tools", []), list):
        raise UserError(
            f'{manifest}: must hold an object with a "tools" list; fix it, then add the tool again'
        )
    return data
