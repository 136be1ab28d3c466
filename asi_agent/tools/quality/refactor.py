"""refactor: a rename across files with rope (`symbol` = "old->new"), or a rewrite of a range by the model.

The model's rewrite is applied only if the whole new file still parses (the edit guard's check, even
when the guard is off: Python `compile`, JS/TS/Go tree-sitter) and, for Python, adds no lint problem;
otherwise nothing is written and the reason is reported. `preview` returns the diff without writing;
`analyzeImpact` lists the references to what the change touches. Every write goes through
`commit_change` (journaled, undoable).
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import RefactorArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.code.index import query as q
from asi_agent.tools.code.index.symbols import language_of
from asi_agent.tools.exec.lint import lint_paths
from asi_agent.tools.files.guard import guard_change
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.files.ops import commit_change, read_existing
from asi_agent.tools.files.textio import TextFile, encode, split_lines, unified_diff
from asi_agent.tools.paths import display_path
from asi_agent.tools.quality.modelio import extract_code_block, index_query, require_model
from asi_agent.tools.quality.refactor_rope import parse_rename, rename_symbol

__all__ = ["refactor"]

WHOLE_FILE_LINES = 300
"""Up to this size a file without symbol or line range is rewritten whole."""
_AROUND = 8
_CALLERS = 5
_SHOWN_REFS = 30
_RUFF_CONFIGS = ("pyproject.toml", "ruff.toml", ".ruff.toml")
_SYSTEM = "You refactor code without changing what it does. You reply with exactly one fenced code block."
_GOALS = {
    "performance": "Make it faster or lighter (better algorithms and data structures, no repeated work), "
    "with exactly the same results.",
    "readability": "Make it easier to read: clear local names, simpler control flow, small helpers, "
    "a docstring or comment where it helps.",
    "structure": "Improve its structure: split long functions into helpers, remove duplication.",
    "error_handling": "Improve its error handling: validate inputs, catch specific exceptions, raise "
    "clear errors whose messages say what is wrong; no bare except.",
    "general": "Improve it where it matters most: correctness, clarity, simplicity.",
}


@dataclass(frozen=True, slots=True)
class _Range:
    """The lines to rewrite (1-based, inclusive) and the names defined in them."""

    start: int
    end: int
    names: tuple[str, ...]
    whole: bool


async def refactor(args: RefactorArgs, ctx: ToolContext) -> str:
    """Rename with rope (`symbol` = "old->new"), or have the model rewrite a symbol, a range or the file."""
    path = ctx.resolve(args.path, write=True)
    rename = parse_rename(args.symbol)
    if rename is not None:
        if path.suffix not in (".py", ".pyi"):
            raise ToolError(
                f"renaming ({args.symbol}) works on Python files; for {path.suffix or 'this'} files use "
                "find_code_location with findReferences=true, then replace_text at each place"
            )
        return await rename_symbol(ctx, path, *rename, preview=args.preview, analyze=args.analyzeImpact)
    model = require_model(ctx, "refactor")
    source = read_existing(ctx, path)
    rel = display_path(ctx.root, path)
    span = await _range(ctx, rel, source, args)
    context = await _context(ctx, rel, source, span) if args.includeContext else ""
    reply = await model.ask(_prompt(rel, source, span, args.refactorType, context), system=_SYSTEM)
    code = extract_code_block(reply, language_of(rel))
    if code is None:
        raise ToolError(f"the model replied without code, so {rel} was not changed; call refactor again")
    lines = source.lines
    lines[span.start - 1 : span.end] = _fit_indent(lines[span.start - 1 : span.end], split_lines(code))
    new_text = "\n".join(lines) + ("\n" if lines else "")
    if new_text.rstrip("\n") == source.text.rstrip("\n"):
        return f"The model proposed no change to {rel}; nothing was written."
    await _check(ctx, path, source.text, new_text)
    report = [unified_diff(source.text, new_text, rel)]
    if args.analyzeImpact:
        report += await _impact(ctx, rel, span)
    what = f"{rel}" if span.whole else f"lines {span.start}–{span.end} of {rel}"
    if args.preview:
        return "\n".join([f"Preview (nothing written): {args.refactorType} refactoring of {what}.", *report])
    commit_change(ctx, path, source.raw, encode(source, new_text), tool="refactor", mode=source.mode)
    head = (
        f"Refactored {what} ({args.refactorType}): it parses and adds no lint problem; "
        "`asi-agent undo` reverts it."
    )
    return "\n".join([head, *report])


async def _range(ctx: ToolContext, rel: str, source: TextFile, args: RefactorArgs) -> _Range:
    """The lines to rewrite: the given range, else the symbol's lines, else the whole (small) file."""
    total = len(source.lines)
    if args.startLine is not None or args.endLine is not None:
        start = args.startLine or 1
        end = args.endLine or start
        if not 1 <= start <= end <= total:
            raise ToolError(
                f"startLine={args.startLine}, endLine={args.endLine} is not a range of {rel}, which has "
                f"{total} lines; give 1 <= startLine <= endLine <= {total}"
            )
        names = await index_query(ctx, lambda conn: _names_in(conn, rel, start, end))
        return _Range(start, end, names, whole=False)
    if args.symbol and args.symbol.strip():
        return await _symbol_range(ctx, rel, args.symbol.strip())
    if total > WHOLE_FILE_LINES:
        raise ToolError(
            f"{rel} has {total} lines, too many to rewrite at once; give symbol (a function or class name) "
            "or startLine/endLine"
        )
    names = await index_query(ctx, lambda conn: _names_in(conn, rel, 1, total))
    return _Range(1, max(total, 1), names, whole=True)


async def _symbol_range(ctx: ToolContext, rel: str, symbol: str) -> _Range:
    """The lines of `symbol`'s definition in `rel`, or a ToolError naming what the file defines."""
    scope = q.Scope(file=rel)
    found = await index_query(ctx, lambda conn: q.find_symbols(conn, scope, match="exact", value=symbol))
    if found:
        return _Range(found[0].start, found[0].end, (found[0].name,), whole=False)
    known = await index_query(ctx, lambda conn: q.find_symbols(conn, scope, match="contains", value=""))
    names = ", ".join(dict.fromkeys(s.qualname for s in known if s.kind != "variable")) or "nothing"
    raise ToolError(
        f"{symbol!r} is not defined in {rel}; it defines: {names[:600]}. "
        "To rename, write symbol as old_name->new_name"
    )


def _names_in(conn: sqlite3.Connection, rel: str, start: int, end: int) -> tuple[str, ...]:
    """Functions and classes defined within lines start..end of `rel`."""
    symbols = q.find_symbols(conn, q.Scope(file=rel), match="contains", value="")
    inside = [s.name for s in symbols if start <= s.start and s.end <= end and s.kind != "variable"]
    return tuple(dict.fromkeys(inside))


async def _context(ctx: ToolContext, rel: str, source: TextFile, span: _Range) -> str:
    """Lines around the range and a few call sites of what it defines, for the model to keep them working."""
    lines = source.lines
    parts: list[str] = []
    if not span.whole:
        before = lines[max(0, span.start - 1 - _AROUND) : span.start - 1]
        after = lines[span.end : span.end + _AROUND]
        parts.append("Code just before (unchanged):\n```\n" + "\n".join(before) + "\n```" if before else "")
        parts.append("Code just after (unchanged):\n```\n" + "\n".join(after) + "\n```" if after else "")
    calls = [ref for ref in await _refs(ctx, rel, span) if ref.call][:_CALLERS]
    if calls:
        shown = [f"{ref.path}:{ref.line}: {_line(ctx, ref.path, ref.line)}" for ref in calls]
        parts.append("Callers (they must keep working):\n" + "\n".join(shown))
    return "\n\n".join(part for part in parts if part)


def _line(ctx: ToolContext, rel: str, number: int) -> str:
    """One stripped line of a project file ("" when it cannot be read)."""
    try:
        lines = read_existing(ctx, ctx.resolve(rel, write=False)).lines
    except ToolError:
        return ""
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def _prompt(rel: str, source: TextFile, span: _Range, kind: str, context: str) -> str:
    """The rewrite request: the goal, the lines, the context, and what to reply."""
    selected = "\n".join(source.lines[span.start - 1 : span.end])
    what = f"the file {rel}" if span.whole else f"lines {span.start}-{span.end} of {rel}"
    extra = f"{context}\n\n" if context else ""
    reply = (
        "the whole new file"
        if span.whole
        else f"only the new version of lines {span.start}-{span.end} (it replaces them exactly)"
    )
    return (
        f"Refactor {what}. Goal: {_GOALS.get(kind, _GOALS['general'])}\n"
        "Keep the behaviour, and keep public names and signatures so that other code keeps working.\n\n"
        f"```\n{selected}\n```\n\n{extra}"
        f"Reply with one fenced code block containing {reply}, in the original indentation, nothing else."
    )


def _fit_indent(old: list[str], new: list[str]) -> list[str]:
    """Re-indent `new` when the model dropped the common indentation of the lines it replaces."""
    want, have = _common_indent(old), _common_indent(new)
    if len(have) >= len(want):
        return new
    pad = want[: len(want) - len(have)]
    return [pad + line if line.strip() else line for line in new]


def _common_indent(lines: list[str]) -> str:
    """The leading whitespace of the least indented non-blank line."""
    indents = [line[: len(line) - len(line.lstrip())] for line in lines if line.strip()]
    return min(indents, key=len) if indents else ""


async def _check(ctx: ToolContext, path: Path, before: str, after: str) -> None:
    """Refuse (ToolError, nothing written) a result that does not parse or adds lint problems.

    The parse check is the edit guard's, applied even when the guard is switched off: a refactoring
    promises code that still parses.
    """
    retry = "Call refactor again, or make the change with replace_lines."
    change = "the model's rewrite"
    guard_change(ctx, path, before, after, tool="refactor", change=change, retry=retry, always=True)
    rel = display_path(ctx.root, path)
    if language_of(rel) != "python":
        return
    added = await _added_lint(ctx, rel, before, after)
    if added:
        raise ToolError(
            f"refused: the model's rewrite of {rel} adds lint problems, so {rel} is unchanged:\n"
            + "\n".join(f"  {problem}" for problem in added[:10])
        )


async def _added_lint(ctx: ToolContext, rel: str, before: str, after: str) -> list[str]:
    """Lint problems (code and message) the new text has more of than the old one.

    Both versions are checked in a scratch copy holding the project's ruff configuration, so that
    nothing is written into the project.
    """
    with tempfile.TemporaryDirectory(prefix="asi-refactor-") as work:
        root = Path(work)
        for name in _RUFF_CONFIGS:
            if (ctx.root / name).is_file():
                shutil.copyfile(ctx.root / name, root / name)
        scratch = ToolContext(root=root, journal=Journal(root / ".asi"), command_timeout=ctx.command_timeout)
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        counts: list[Counter[str]] = []
        for text in (before, after):
            target.write_text(text, encoding="utf-8")
            problems, _notes, _checked = await lint_paths(scratch, target, [target])
            counts.append(Counter(f"{p.code} {p.message}" for p in problems))
    return sorted((counts[1] - counts[0]).elements())


async def _refs(ctx: ToolContext, rel: str, span: _Range) -> list[q.RefRow]:
    """References to the names defined in the range, outside the range itself."""

    def query(conn: sqlite3.Connection) -> list[q.RefRow]:
        return [ref for name in span.names for ref in q.find_refs(conn, q.Scope(), name)]

    refs = await index_query(ctx, query)
    return [r for r in refs if not (r.path == rel and span.start <= r.line <= span.end)]


async def _impact(ctx: ToolContext, rel: str, span: _Range) -> list[str]:
    """`file:line` of every reference to what the range defines."""
    if not span.names:
        return ["Impact: the range defines no function or class, so no references elsewhere are affected."]
    places = list(dict.fromkeys(f"{ref.path}:{ref.line}" for ref in await _refs(ctx, rel, span)))
    lines = [f"Impact: {len(places)} reference(s) to {', '.join(span.names)} outside the changed lines:"]
    lines += [f"  {place}" for place in places[:_SHOWN_REFS]]
    if len(places) > _SHOWN_REFS:
        lines.append(f"  … and {len(places) - _SHOWN_REFS} more")
    return lines
