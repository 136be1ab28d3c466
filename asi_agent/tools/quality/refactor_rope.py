"""Cross-file rename of a Python symbol with rope (the optional extra `refactor`).

rope only computes the changes (`Rename.get_changes`); every changed file is written by us through
`commit_change`, one journal entry per file, so `asi-agent undo N` reverts the whole rename.
"""

from __future__ import annotations

import asyncio
import io
import keyword
import re
import tokenize
import warnings
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools.base import ToolContext
from asi_agent.tools.code.index import query as q
from asi_agent.tools.exec.lint import iter_project_files
from asi_agent.tools.files.ops import commit_change, read_existing
from asi_agent.tools.files.textio import encode, unified_diff
from asi_agent.tools.paths import display_path
from asi_agent.tools.quality.modelio import index_query

__all__ = ["parse_rename", "rename_symbol"]

_RENAME = re.compile(r"^\s*([\w.]+)\s*(?:->|=>|→|⇒)\s*(\w+)\s*$")
_INSTALL = "pip install 'rope>=1.13' (it comes with asi-agent: reinstall asi-agent)"
_SHOWN_REFS = 30


def parse_rename(symbol: str | None) -> tuple[str, str] | None:
    """(old, new) of a rename written `old->new` (also `old=>new`, `old → new`); None for anything else."""
    match = _RENAME.match(symbol or "")
    return (match[1], match[2]) if match else None


async def rename_symbol(
    ctx: ToolContext, path: Path, old: str, new: str, *, preview: bool, analyze: bool
) -> str:
    """Rename `old` (defined or used in `path`) to `new` across the project's Python files."""
    name = old.rsplit(".", 1)[-1]
    if not new.isidentifier() or keyword.iskeyword(new):
        raise ToolError(f"{new!r} is not a valid Python name; write symbol as old_name->new_name")
    source = read_existing(ctx, path)
    rel = display_path(ctx.root, path)
    offset = _offset_of(source.text, name)
    if offset is None:
        raise ToolError(f"{name!r} does not occur as a name in {rel}; give the file that defines or uses it")
    files = [
        display_path(ctx.root, p)
        for p in iter_project_files(ctx.root, ctx.root)
        if p.suffix in (".py", ".pyi")
    ]
    changes = await asyncio.to_thread(_rope_changes, ctx.root, rel, offset, new, files)
    if not changes:
        return f"Renaming {name} to {new} changes nothing."
    impact = await _impact(ctx, name) if analyze else []
    diffs: list[str] = []
    for changed_rel, text in changes:
        target = ctx.resolve(changed_rel, write=True)
        before = read_existing(ctx, target)
        diffs.append(unified_diff(before.text, text, changed_rel))
        if not preview:
            commit_change(ctx, target, before.raw, encode(before, text), tool="refactor", mode=before.mode)
    shown = ", ".join(rel for rel, _ in changes)
    head = (
        f"Preview (nothing written): renaming {name} to {new} would change {len(changes)} file(s): {shown}"
        if preview
        else f"Renamed {name} to {new} in {len(changes)} file(s): {shown}. "
        f"`asi-agent undo {len(changes)}` reverts it."
    )
    return "\n".join([head, *impact, *diffs])


def _offset_of(text: str, name: str) -> int | None:
    """The character offset of `name`'s definition in `text` (`def`/`class`), else of its first use."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError) as exc:
        raise ToolError(f"the file cannot be read as Python ({exc}); fix its syntax before renaming") from exc
    found: tuple[int, int] | None = None
    previous = ""
    for token in tokens:
        if token.type == tokenize.NAME and token.string == name:
            if previous in ("def", "class"):
                found = token.start
                break
            found = found or token.start
        if token.type == tokenize.NAME:
            previous = token.string
    if found is None:
        return None
    row, column = found
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts[row - 1] + column


def _rope_changes(root: Path, rel: str, offset: int, new: str, files: list[str]) -> list[tuple[str, str]]:
    """(file, new text) of every file rope's rename changes; rope itself writes nothing."""
    try:
        from rope.base import change, exceptions  # noqa: PLC0415 - heavy
        from rope.base.project import Project  # noqa: PLC0415
        from rope.refactor.rename import Rename  # noqa: PLC0415
    except ImportError as exc:
        raise ToolError(f"renaming needs the rope library, which is not installed: {_INSTALL}") from exc
    # ropefolder=None: rope keeps no `.ropeproject` folder in the person's project.
    with warnings.catch_warnings():
        # rope warns about its own internals on every project it opens; nothing the person can act on.
        warnings.simplefilter("ignore", DeprecationWarning)
        project = Project(str(root), ropefolder=None)
    try:
        resources = [project.get_resource(path) for path in files]
        renamer = Rename(project, project.get_resource(rel), offset)
        changeset = renamer.get_changes(new, resources=resources, docs=True)
    except exceptions.RopeError as exc:
        raise ToolError(f"rope cannot rename here: {exc}") from exc
    finally:
        project.close()
    result: list[tuple[str, str]] = []
    for item in changeset.changes:
        if not isinstance(item, change.ChangeContents):
            raise ToolError(
                "this rename would move or create files (renaming a module); do it with run_terminal_cmd "
                "(git mv) and fix the imports with replace_text"
            )
        result.append((item.resource.path, item.new_contents))
    return result


async def _impact(ctx: ToolContext, name: str) -> list[str]:
    """The index's references to `name` (the places the rename touches), as `file:line`."""
    refs = await index_query(ctx, lambda conn: q.find_refs(conn, q.Scope(), name))
    places = list(dict.fromkeys(f"{ref.path}:{ref.line}" for ref in refs))
    lines = [f"Impact: {len(places)} place(s) use {name}:"]
    lines += [f"  {place}" for place in places[:_SHOWN_REFS]]
    if len(places) > _SHOWN_REFS:
        lines.append(f"  … and {len(places) - _SHOWN_REFS} more")
    return lines
