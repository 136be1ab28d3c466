"""Code intelligence tools over the project's code index: `find_code_location`, `codebase_search`,
`get_cursor_context`.

The index (`asi_agent.tools.code.index`) is the session's (`tools.code.sessionindex`), brought up to date
before each answer so that the agent's own edits are seen at once.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from asi_agent.exceptions import ModelFixableError, ToolError
from asi_agent.tools import beneath
from asi_agent.tools.args import CodebaseSearchArgs, FindCodeLocationArgs, GetCursorContextArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.beneath import anchor
from asi_agent.tools.code.index import query as q
from asi_agent.tools.code.index.chunks import query_terms
from asi_agent.tools.code.index.cursor import number_lines, resolve_cursor
from asi_agent.tools.code.index.embed import EMBEDDER_KEY, Embedder, reciprocal_rank_fusion, vector_ranking
from asi_agent.tools.code.sessionindex import IndexSession, indexed_session
from asi_agent.tools.files.ops import anchored
from asi_agent.tools.files.textio import read_text
from asi_agent.tools.paths import display_path, resolve_in_project

__all__ = [
    "RESULT_CAP",
    "codebase_search",
    "find_code_location",
    "get_cursor_context",
]

RESULT_CAP = 50
"""Most result lines `find_code_location` shows."""
_SEARCH_MAX = 50
_SNIPPET_LINES = 8
_VECTOR_ALL_MAX = 2000
"""Up to this many chunks in scope, every chunk is ranked by embedding; above, the lexical top hits."""
_KINDS: dict[str, tuple[str, ...]] = {
    "class": ("class", "interface", "type"),
    "function": ("function", "method"),
    "variable": ("variable", "constant"),
}

# -- find_code_location --------------------------------------------------------------------------


async def find_code_location(args: FindCodeLocationArgs, ctx: ToolContext) -> str:
    """Find definitions, references or code lines by name, text or regular expression."""
    search = args.search.strip()
    if not search:
        raise ToolError('"search" is empty; give a symbol name, a code fragment or a regular expression')
    if args.searchType == "regex":
        try:
            re.compile(search)
        except re.error as exc:
            raise ToolError(
                f"invalid regular expression {search!r}: {exc}; fix it or use searchType contains"
            ) from exc
    scope = _scope(ctx, args.path, args.fileType)
    session = await indexed_session(ctx)
    return await session.run(lambda conn: _locate(conn, _Lines(ctx.root), args, search, scope))


def _locate(
    conn: sqlite3.Connection, lines: _Lines, args: FindCodeLocationArgs, search: str, scope: q.Scope
) -> str:
    kinds = _KINDS.get(args.searchType, ())
    match = args.searchType if args.searchType in ("exact", "regex") else "contains"
    if args.findDefinition or args.findReferences:
        definitions = q.find_symbols(
            conn, scope, match="regex" if match == "regex" else "exact", value=search, kinds=kinds
        )
        out = _section(f"Definitions of {search}", [_symbol_line(s) for s in definitions])
        if args.findReferences:
            names = sorted({d.name for d in definitions} or {search.rsplit(".", 1)[-1]})
            refs = [ref for name in names for ref in q.find_refs(conn, scope, name)]
            out += "\n" + _section(f"References to {search}", [_ref_line(conn, lines, r) for r in refs])
        if not definitions and not args.findReferences:
            out += _similar(conn, scope, search)
        return out
    symbols = q.find_symbols(conn, scope, match=match, value=search, kinds=kinds)
    if kinds:
        # A kind search is about the symbol's own name, not its container's ("Order" ≠ Order.save).
        lowered = search.lower()
        symbols = [s for s in symbols if lowered in s.name.lower() or search == s.qualname]
        exact = [s for s in symbols if search in (s.name, s.qualname)]
        symbols = exact + [s for s in symbols if s not in exact]
    if symbols:
        return _section(f"Symbols matching {search}", [_symbol_line(s) for s in symbols])
    if kinds:
        return (
            f"No {args.searchType} named like {search!r} in {q.count_files(conn)} indexed files."
            + _similar(conn, scope, search)
        )
    hits, total = q.search_lines(conn, scope, match=match, value=search, cap=RESULT_CAP)
    if not hits:
        return (
            f"No symbol or code line matches {search!r} (searchType {args.searchType}) in "
            f"{q.count_files(conn)} indexed files. Try searchType contains or regex, or codebase_search."
        )
    rows = [f"{h.path}:{h.line}  code  {h.symbol or '<module>'} — {_preview(h.text)}" for h in hits]
    return _section(f"No symbol matches; code lines matching {search}", rows, total=total)


def _similar(conn: sqlite3.Connection, scope: q.Scope, search: str) -> str:
    """A hint listing names that contain the search, when an exact lookup found nothing."""
    near = q.find_symbols(conn, scope, match="contains", value=search.rsplit(".", 1)[-1])
    if not near:
        return ""
    names = sorted({s.qualname for s in near})[:10]
    return "\nSimilar names: " + ", ".join(names)


def _section(title: str, rows: list[str], *, total: int | None = None) -> str:
    """A titled, capped list of result lines, with a note saying how to narrow a long list."""
    total = len(rows) if total is None else total
    if not rows:
        return f"{title}: none found."
    shown = rows[:RESULT_CAP]
    text = f"{title} ({total}):\n" + "\n".join(shown)
    if total > len(shown):
        text += f"\n… {total - len(shown)} more not shown; narrow with path, fileType or searchType exact"
    return text


def _symbol_line(symbol: q.SymbolRow) -> str:
    return f"{symbol.path}:{symbol.start}  {symbol.kind}  {symbol.qualname} — {_preview(symbol.signature)}"


def _ref_line(conn: sqlite3.Connection, lines: _Lines, ref: q.RefRow) -> str:
    where = q.enclosing_symbol(conn, ref.path, ref.line, ("function", "method", "class"))
    kind = "call" if ref.call else "reference"
    owner = where.qualname if where else "<module>"
    return f"{ref.path}:{ref.line}:{ref.column}  {kind}  {owner} — {_preview(lines.get(ref.path, ref.line))}"


def _preview(text: str) -> str:
    stripped = " ".join(text.split())
    return stripped if len(stripped) <= 120 else stripped[:117] + "..."


class _Lines:
    """Lines of project files for previews, each file read once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, list[str]] = {}

    def get(self, rel: str, line: int) -> str:
        """Line `line` (1-based) of `rel`, or "" when it is gone."""
        if rel not in self.files:
            try:
                real = resolve_in_project(self.root, rel, write=False)
                data = beneath.read_bytes(anchor(real, (self.root,)))
            except (OSError, ModelFixableError):  # gone, or now a link leading out: shown as blank
                data = b""
            self.files[rel] = data.decode("utf-8", "replace").splitlines()
        lines = self.files[rel]
        return lines[line - 1] if 0 < line <= len(lines) else ""


def _scope(ctx: ToolContext, path: str | None, file_type: str | None) -> q.Scope:
    """The files a search covers, from the `path` and `fileType` arguments."""
    suffixes = q.Scope.file_type(file_type)
    if path is None or not path.strip() or path.strip() in (".", "./"):
        return q.Scope(suffixes=suffixes)
    resolved = ctx.resolve(path, write=False)
    rel = display_path(ctx.root, resolved)
    if resolved.is_dir():
        return q.Scope(folder=None if rel == "." else rel + "/", suffixes=suffixes)
    if not resolved.exists():
        raise ToolError(f"{path} does not exist; give a file or folder of the project, or leave path out")
    return q.Scope(file=rel, suffixes=suffixes)


# -- codebase_search -----------------------------------------------------------------------------


async def codebase_search(args: CodebaseSearchArgs, ctx: ToolContext) -> str:
    """Ranked code snippets for a natural-language or identifier query."""
    terms = query_terms(args.query)
    if not terms:
        raise ToolError('"query" has no words to search for; describe the code or name an identifier')
    limit = max(1, min(int(args.limit), _SEARCH_MAX))
    scope = q.Scope(suffixes=q.Scope.file_type(args.fileType))
    session = await indexed_session(ctx)
    embedder = ctx.state.get(EMBEDDER_KEY)
    if isinstance(embedder, Embedder):
        hits = await _hybrid(session, embedder, args.query, scope, limit)
    else:
        hits = await session.run(lambda conn: q.search_chunks(conn, scope, terms, limit))
    if not hits:
        return (
            f"No code matches {args.query!r}. Try other words, an identifier, or grep_search for exact text."
        )
    blocks = [f"Top {len(hits)} results for {args.query!r}:"]
    for rank, hit in enumerate(hits, start=1):
        blocks.append(
            f"{rank}. {hit.path}:{hit.start}-{hit.end}  ({hit.symbol or 'module'})\n{_snippet(hit)}"
        )
    return "\n\n".join(blocks)


async def _hybrid(
    session: IndexSession, embedder: Embedder, text: str, scope: q.Scope, limit: int
) -> list[q.ChunkHit]:
    """Lexical and embedding rankings fused by reciprocal rank fusion."""
    terms = query_terms(text)
    pool = max(limit * 5, 50)
    lexical = await session.run(lambda conn: q.search_chunks(conn, scope, terms, pool))
    candidates = await session.run(lambda conn: _chunk_ids(conn, scope, _VECTOR_ALL_MAX + 1))
    if len(candidates) > _VECTOR_ALL_MAX:
        candidates = [hit.chunk_id for hit in lexical]
    by_vector = await vector_ranking(session.run, embedder, text, candidates)
    fused = reciprocal_rank_fusion([[hit.chunk_id for hit in lexical], by_vector[:pool]])[:limit]
    return await session.run(lambda conn: _chunks_by_id(conn, fused))


def _chunk_ids(conn: sqlite3.Connection, scope: q.Scope, cap: int) -> list[int]:
    where, params = scope.sql()
    rows = conn.execute(
        f"SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE 1{where} LIMIT ?", [*params, cap]
    )
    return [row[0] for row in rows]


def _chunks_by_id(conn: sqlite3.Connection, ids: list[int]) -> list[q.ChunkHit]:
    found: list[q.ChunkHit] = []
    for chunk_id in ids:
        row = conn.execute(
            "SELECT c.id, f.path, c.start_line, c.end_line, c.symbol, t.text FROM chunks c "
            "JOIN files f ON f.id = c.file_id JOIN chunks_fts t ON t.rowid = c.id WHERE c.id = ?",
            (chunk_id,),
        ).fetchone()
        if row is not None:
            found.append(q.ChunkHit(*row))
    return found


def _snippet(hit: q.ChunkHit) -> str:
    """The first non-blank lines of a chunk, numbered."""
    lines = hit.text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    shown = lines[first : first + _SNIPPET_LINES]
    body = "\n".join(f"{hit.start + first + i:>6} | {line}" for i, line in enumerate(shown))
    if first + _SNIPPET_LINES < len(lines):
        body += f"\n       … {len(lines) - first - _SNIPPET_LINES} more lines"
    return body


# -- get_cursor_context --------------------------------------------------------------------------


async def get_cursor_context(args: GetCursorContextArgs, ctx: ToolContext) -> str:
    """The lines around the cursor, its enclosing symbol, and optionally its callers and callees."""
    cursor = resolve_cursor(ctx)
    try:
        where = anchored(ctx, cursor.path)
        lines = read_text(where, name=cursor.rel, buffer=ctx.buffers.get(cursor.path)).lines
    except OSError as exc:
        raise ToolError(f"cannot read {cursor.rel} at the cursor: {exc}") from exc
    if not lines:
        return f"Cursor: {cursor.rel}:1 ({cursor.source}); the file is empty."
    line = min(cursor.line, len(lines))
    note = f" (line {cursor.line} is past the end; showing the last line)" if line != cursor.line else ""
    first = max(1, line - max(0, int(args.linesBefore)))
    last = min(len(lines), line + max(0, int(args.linesAfter)))
    parts = [
        f"Cursor: {cursor.rel}:{line}:{cursor.column} ({cursor.source}){note}",
        number_lines(lines, first, last, line),
    ]
    if args.semanticContext or args.includeCallers or args.includeCallees:
        session = await indexed_session(ctx)
        parts.extend(
            await session.run(lambda conn: _semantic(conn, _Lines(ctx.root), cursor.rel, line, args))
        )
    return "\n\n".join(parts)


def _semantic(
    conn: sqlite3.Connection, lines: _Lines, rel: str, line: int, args: GetCursorContextArgs
) -> list[str]:
    """The enclosing symbol, its callers and its callees, as requested."""
    symbol = q.enclosing_symbol(conn, rel, line, ("function", "method")) or q.enclosing_symbol(
        conn, rel, line, ("class", "interface", "type")
    )
    if symbol is None:
        return ["Enclosing symbol: none (module level)."]
    parts: list[str] = []
    if args.semanticContext:
        outer = q.enclosing_symbol(conn, rel, line, ("class", "interface"))
        text = "Enclosing " + _describe(symbol)
        if outer is not None and outer.qualname != symbol.qualname:
            text += "\nInside " + _describe(outer)
        parts.append(text)
    if args.includeCallers:
        refs = [
            r
            for r in q.find_refs(conn, q.Scope(), symbol.name)
            if not (r.path == rel and symbol.start <= r.line <= symbol.end)
        ]
        rows = [_ref_line(conn, lines, r) for r in refs]
        parts.append(_section(f"Callers of {symbol.qualname}", rows))
    if args.includeCallees:
        rows = []
        for ref, targets in q.callees_in(conn, rel, symbol.start, symbol.end):
            places = ", ".join(f"{t.path}:{t.start} {t.kind} {t.qualname}" for t in targets[:3])
            more = f" (+{len(targets) - 3} more)" if len(targets) > 3 else ""
            rows.append(f"{ref.name}() at line {ref.line} → {places}{more}")
        parts.append(_section(f"Project functions called by {symbol.qualname}", rows))
    return parts


def _describe(symbol: q.SymbolRow) -> str:
    """`kind qualname (lines a-b)` and its signature line."""
    return f"{symbol.kind}: {symbol.qualname} (lines {symbol.start}-{symbol.end})\n  {symbol.signature}"
