"""Read-only questions to the code index: symbols, references, code lines, ranked chunks.

Every function takes the connection and a `Scope` (which files to look at) and returns plain rows.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "ChunkHit",
    "LineHit",
    "RefRow",
    "Scope",
    "SymbolRow",
    "callees_in",
    "count_files",
    "enclosing_symbol",
    "find_refs",
    "find_symbols",
    "search_chunks",
    "search_lines",
]

_FILE_TYPES: dict[str, tuple[str, ...]] = {
    "python": (".py", ".pyi"),
    "py": (".py", ".pyi"),
    "javascript": (".js", ".mjs", ".cjs", ".jsx"),
    "js": (".js", ".mjs", ".cjs", ".jsx"),
    "typescript": (".ts", ".mts", ".cts", ".tsx"),
    "ts": (".ts", ".mts", ".cts", ".tsx"),
    "go": (".go",),
    "golang": (".go",),
    "markdown": (".md", ".markdown"),
}
_SYMBOL_COLUMNS = "f.path, s.name, s.qualname, s.kind, s.start_line, s.end_line, s.signature"


class SymbolRow(NamedTuple):
    """One definition."""

    path: str
    name: str
    qualname: str
    kind: str
    start: int
    end: int
    signature: str


class RefRow(NamedTuple):
    """One use of a name."""

    path: str
    name: str
    line: int
    column: int
    call: bool


class LineHit(NamedTuple):
    """A code line matching a text search, with the symbol its chunk belongs to."""

    path: str
    line: int
    symbol: str
    text: str


class ChunkHit(NamedTuple):
    """A ranked search result."""

    chunk_id: int
    path: str
    start: int
    end: int
    symbol: str
    text: str


@dataclass(frozen=True, slots=True)
class Scope:
    """Which files a question covers: one file, one folder (prefix ending in "/"), and/or suffixes."""

    file: str | None = None
    folder: str | None = None
    suffixes: tuple[str, ...] = ()

    @staticmethod
    def file_type(value: str | None) -> tuple[str, ...]:
        """Suffixes of a `fileType` argument: ".py", "py", "*.py", "python", or a comma-separated list."""
        found: list[str] = []
        for item in (value or "").split(","):
            name = item.strip().lower().lstrip("*").lstrip(".")
            if name:
                found.extend(_FILE_TYPES.get(name, (f".{name}",)))
        return tuple(found)

    def sql(self, column: str = "f.path") -> tuple[str, list[str]]:
        """A WHERE fragment (starting with AND, or empty) and its parameters."""
        clauses: list[str] = []
        params: list[str] = []
        if self.file is not None:
            clauses.append(f"{column} = ?")
            params.append(self.file)
        if self.folder:
            clauses.append(f"substr({column}, 1, ?) = ?")
            params.extend([str(len(self.folder)), self.folder])
        if self.suffixes:
            clauses.append("(" + " OR ".join(f"{column} LIKE ?" for _ in self.suffixes) + ")")
            params.extend(f"%{suffix}" for suffix in self.suffixes)
        return "".join(f" AND {clause}" for clause in clauses), params


def count_files(conn: sqlite3.Connection) -> int:
    """Indexed text files."""
    return int(
        conn.execute("SELECT count(*) FROM files WHERE language NOT IN ('binary', 'large')").fetchone()[0]
    )


def find_symbols(
    conn: sqlite3.Connection, scope: Scope, *, match: str, value: str, kinds: tuple[str, ...] = ()
) -> list[SymbolRow]:
    """Definitions whose name or qualified name matches: `match` is "exact", "contains" or "regex"."""
    where, params = scope.sql()
    args: list[object] = []
    if match == "exact":
        # The name index finds candidates; dotted names are checked below.
        condition = "s.name = ?"
        args = [value.rsplit(".", 1)[-1]]
    elif match == "contains":
        condition = "(instr(lower(s.name), ?) > 0 OR instr(lower(s.qualname), ?) > 0)"
        args = [value.lower(), value.lower()]
    else:
        _register_regexp(conn)
        condition = "(s.name REGEXP ? OR s.qualname REGEXP ?)"
        args = [value, value]
    if kinds:
        condition += " AND s.kind IN (" + ",".join("?" * len(kinds)) + ")"
        args.extend(kinds)
    rows = conn.execute(
        f"SELECT {_SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id "
        f"WHERE {condition}{where} ORDER BY f.path, s.start_line",
        [*args, *params],
    ).fetchall()
    found = [SymbolRow(*row) for row in rows]
    if match == "exact" and "." in value:
        found = [s for s in found if _dotted_match(s, value)]
    return found


def _dotted_match(symbol: SymbolRow, value: str) -> bool:
    """Whether "A.b", "pkg.module.b" or "module.A.b" names this symbol (a suffix at a dot boundary)."""
    module = symbol.path.rsplit(".", 1)[0].replace("/", ".").removesuffix(".__init__")
    for full in (symbol.qualname, f"{module}.{symbol.qualname}"):
        if full == value or full.endswith("." + value):
            return True
    return False


def find_refs(conn: sqlite3.Connection, scope: Scope, name: str) -> list[RefRow]:
    """Uses of `name` (the last part of a dotted name)."""
    where, params = scope.sql()
    rows = conn.execute(
        "SELECT f.path, r.name, r.line, r.col, r.call FROM refs r JOIN files f ON f.id = r.file_id "
        f"WHERE r.name = ?{where} ORDER BY f.path, r.line, r.col",
        [name, *params],
    ).fetchall()
    return [RefRow(path, ref_name, line, col, bool(call)) for path, ref_name, line, col, call in rows]


def search_lines(
    conn: sqlite3.Connection, scope: Scope, *, match: str, value: str, cap: int
) -> tuple[list[LineHit], int]:
    """Code lines containing `value` ("exact": as written, "contains": any case) or matching a regex.

    Returns up to `cap` hits and the total number of matching lines.
    """
    where, params = scope.sql()
    test: Callable[[str], bool]
    if match == "regex":
        pattern = re.compile(value, re.MULTILINE)
        _register_regexp(conn)
        condition, needle = "t.text REGEXP ?", value
        test = lambda line: pattern.search(line) is not None  # noqa: E731
    elif match == "exact":
        condition, needle = "instr(t.text, ?) > 0", value
        test = lambda line: value in line  # noqa: E731
    else:
        lowered = value.lower()
        condition, needle = "instr(lower(t.text), ?) > 0", lowered
        test = lambda line: lowered in line.lower()  # noqa: E731
    rows = conn.execute(
        "SELECT f.path, c.start_line, c.symbol, t.text FROM chunks_fts t JOIN chunks c ON c.id = t.rowid "
        f"JOIN files f ON f.id = c.file_id WHERE {condition}{where} ORDER BY f.path, c.start_line",
        [needle, *params],
    )
    hits: list[LineHit] = []
    total = 0
    for path, start, symbol, text in rows:
        for offset, line in enumerate(text.split("\n")):
            if test(line):
                total += 1
                if len(hits) < cap:
                    hits.append(LineHit(path, start + offset, symbol, line))
    return hits, total


def search_chunks(conn: sqlite3.Connection, scope: Scope, terms: list[str], limit: int) -> list[ChunkHit]:
    """Chunks ranked by BM25 for any of `terms` (symbol names and paths weigh more than body text)."""
    if not terms:
        return []
    where, params = scope.sql()
    expression = " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)
    rows = conn.execute(
        "SELECT c.id, f.path, c.start_line, c.end_line, c.symbol, t.text FROM chunks_fts t "
        "JOIN chunks c ON c.id = t.rowid JOIN files f ON f.id = c.file_id "
        f"WHERE chunks_fts MATCH ?{where} ORDER BY bm25(chunks_fts, 1.0, 2.0, 4.0, 1.5) LIMIT ?",
        [expression, *params, limit],
    ).fetchall()
    return [ChunkHit(*row) for row in rows]


def enclosing_symbol(
    conn: sqlite3.Connection, path: str, line: int, kinds: tuple[str, ...]
) -> SymbolRow | None:
    """The innermost symbol of one of `kinds` whose range holds `line`."""
    marks = ",".join("?" * len(kinds))
    row = conn.execute(
        f"SELECT {_SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id "
        f"WHERE f.path = ? AND s.start_line <= ? AND s.end_line >= ? AND s.kind IN ({marks}) "
        "ORDER BY s.end_line - s.start_line, s.start_line DESC LIMIT 1",
        [path, line, line, *kinds],
    ).fetchone()
    return SymbolRow(*row) if row else None


def callees_in(
    conn: sqlite3.Connection, path: str, start: int, end: int
) -> list[tuple[RefRow, list[SymbolRow]]]:
    """Calls made in lines `start`..`end` of `path` to functions, methods or classes of the project."""
    rows = conn.execute(
        "SELECT f.path, r.name, r.line, r.col, r.call FROM refs r JOIN files f ON f.id = r.file_id "
        "WHERE f.path = ? AND r.line BETWEEN ? AND ? AND r.call = 1 ORDER BY r.line, r.col",
        [path, start, end],
    ).fetchall()
    found: list[tuple[RefRow, list[SymbolRow]]] = []
    seen: set[str] = set()
    for row in rows:
        ref = RefRow(row[0], row[1], row[2], row[3], bool(row[4]))
        if ref.name in seen:
            continue
        seen.add(ref.name)
        targets = find_symbols(
            conn, Scope(), match="exact", value=ref.name, kinds=("function", "method", "class")
        )
        # Nearest first: the same file, then the same folder, then the rest of the project.
        folder = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
        targets.sort(key=lambda t: (t.path != path, not t.path.startswith(folder), t.path, t.start))
        if targets:
            found.append((ref, targets))
    return found


def _register_regexp(conn: sqlite3.Connection) -> None:
    """SQLite's REGEXP operator, backed by Python's `re` with compiled patterns cached."""
    cache: dict[str, re.Pattern[str]] = {}

    def regexp(pattern: str, value: str | None) -> bool:
        if value is None:
            return False
        compiled = cache.get(pattern)
        if compiled is None:
            compiled = cache[pattern] = re.compile(pattern, re.MULTILINE)
        return compiled.search(value) is not None

    conn.create_function("REGEXP", 2, regexp, deterministic=True)
