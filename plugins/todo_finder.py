"""Example SDK plugin: lists the TODO / FIXME notes of the project's source files.

It imports nothing but `asi_agent.sdk`. asi-agent imports it on the first call (entry
`todo_finder:find_todos` in `moss-tools.json`); `find_todos.manifest_entry("todo_finder:find_todos")`
prints the manifest entry, parameters included.
"""

from __future__ import annotations

import re

from asi_agent.sdk import BaseModel, Field, PluginContext, ToolError, ToolResult, tool

SKIP = {".git", ".asi", ".venv", "node_modules", "__pycache__"}


class FindTodosArgs(BaseModel):
    path: str = Field(".", description="Folder (or file) to search, relative to the project root")
    tags: list[str] = Field(default=["TODO", "FIXME"], description="Markers to look for")
    limit: int = Field(50, ge=1, le=500, description="Most notes to return")


@tool(description="List TODO/FIXME notes (file:line: text) in the project's source files", risk="read")
def find_todos(args: FindTodosArgs, ctx: PluginContext) -> ToolResult:
    """Walk the files under `path` and collect lines holding one of the tags."""
    base = (ctx.root / args.path).resolve()
    if not base.is_relative_to(ctx.root.resolve()) or not base.exists():
        raise ToolError(
            f"{args.path} is not a folder or file of the project; give a path relative to its root"
        )
    pattern = re.compile(r"\b(" + "|".join(re.escape(tag) for tag in args.tags) + r")\b[:\s]*(.*)")
    files = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
    notes: list[str] = []
    for file in files:
        if SKIP & set(file.relative_to(ctx.root.resolve()).parts):
            continue
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, OSError):
            continue  # binary or unreadable: no notes there
        for number, line in enumerate(lines, start=1):
            found = pattern.search(line)
            if found:
                rel = file.relative_to(ctx.root.resolve()).as_posix()
                notes.append(f"{rel}:{number}: {found.group(1)} {found.group(2).strip()}")
    ctx.logger.info("todo_finder: %d notes under %s", len(notes), args.path)
    shown = notes[: args.limit]
    more = f"\n({len(notes) - len(shown)} more not shown)" if len(notes) > len(shown) else ""
    return ToolResult("\n".join(shown) + more if shown else "no notes found")
