"""The SQLite code index: schema, connection, and incremental update.

One database per project (`.asi/index/code.db`), in WAL mode so readers never wait for a writer.
An update stats every project file, compares modification time and size with the stored row, hashes
only what differs, and re-parses only files whose hash changed; files gone from disk are removed (a
rename is a removal plus an addition). Every file's rows are replaced inside one `BEGIN IMMEDIATE`
transaction, so a reader never sees half of a file, and two processes updating at once simply take
turns (the busy timeout makes the second wait).
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from asi_agent.events import report_progress
from asi_agent.tools.code.index import parse
from asi_agent.tools.code.index.parse import Job, Parsed, Result
from asi_agent.tools.ignore import is_ignored, iter_project_entries

__all__ = ["BUSY_TIMEOUT_MS", "SCHEMA_VERSION", "CodeIndex", "UpdateStats"]

SCHEMA_VERSION = "1"
"""Stored in the `meta` table; a database of another version is rebuilt from scratch."""

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL, sha256 TEXT NOT NULL, language TEXT NOT NULL);
CREATE TABLE symbols (
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, name TEXT NOT NULL, qualname TEXT NOT NULL,
    kind TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, signature TEXT NOT NULL);
CREATE INDEX symbols_name ON symbols (name);
CREATE INDEX symbols_qualname ON symbols (qualname);
CREATE INDEX symbols_file ON symbols (file_id, start_line);
CREATE TABLE refs (
    file_id INTEGER NOT NULL, name TEXT NOT NULL, line INTEGER NOT NULL, col INTEGER NOT NULL,
    call INTEGER NOT NULL);
CREATE INDEX refs_name ON refs (name);
CREATE INDEX refs_file ON refs (file_id, line);
CREATE TABLE chunks (
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL, symbol TEXT NOT NULL);
CREATE INDEX chunks_file ON chunks (file_id);
CREATE VIRTUAL TABLE chunks_fts USING fts5 (text, path, symbols, parts, tokenize = 'porter unicode61');
CREATE TABLE vectors (chunk_id INTEGER PRIMARY KEY, embedder TEXT NOT NULL, data BLOB NOT NULL);
"""
BUSY_TIMEOUT_MS = 30_000
_BATCH_FILES = 64
"""Files written per transaction: large enough to be fast, small enough to let another writer in."""
_POOL_THRESHOLD = 150
"""Below this many files to parse, a process pool costs more to start than it saves."""


@dataclass(frozen=True, slots=True)
class UpdateStats:
    """What one update did: `parsed` counts files whose content was (re-)parsed."""

    parsed: int = 0
    removed: int = 0
    touched: int = 0
    """Files whose time or size changed but whose content hash did not: only their row was updated."""
    files: int = 0
    seconds: float = 0.0


class CodeIndex:
    """The index of one project; thread-safe (one connection behind a lock)."""

    def __init__(self, root: Path, db_path: Path, *, workers: int = 2) -> None:
        self.root = root.resolve()
        self.db_path = db_path
        self.workers = workers
        self.lock = threading.RLock()
        db_path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = _connect(db_path)
        _ensure_schema(self.conn)

    def close(self) -> None:
        """Close the connection."""
        with self.lock:
            self.conn.close()

    def update(self, only: Iterable[Path] | None = None) -> UpdateStats:
        """Bring the index up to date with the files on disk (see the module docstring).

        With `only`, just those files are checked (a cheap refresh of files known to have changed).
        """
        begun = time.perf_counter()
        with self.lock:
            if only is None:
                entries = list(self._walk())
                rows = self.conn.execute("SELECT path, mtime_ns, size, sha256 FROM files").fetchall()
            else:
                entries, rels, folders = self._stat(only)
                rows = self._rows_of(rels, folders)
            known = {row[0]: (row[1], row[2], row[3]) for row in rows}
            jobs: list[Job] = []
            seen = 0
            for path, rel, mtime_ns, size in entries:
                seen += 1
                old = known.pop(rel, None)
                if old is None or old[0] != mtime_ns or old[1] != size:
                    jobs.append(Job(path, rel, mtime_ns, size, old[2] if old else ""))
            if jobs:
                report_progress(f"indexing {len(jobs)} files")
            removed = sorted(known)
            if removed:
                self._write([], removed)
            parsed = touched = 0
            batch: list[Result] = []
            for result in self._parse_all(jobs):
                parsed += isinstance(result, Parsed)
                touched += not isinstance(result, Parsed)
                batch.append(result)
                if len(batch) >= _BATCH_FILES:
                    self._write(batch, [])
                    batch = []
            if batch:
                self._write(batch, [])
        return UpdateStats(parsed, len(removed), touched, seen, time.perf_counter() - begun)

    def _walk(self, start: Path | None = None) -> Iterator[tuple[str, str, int, int]]:
        """(absolute path, relative path, mtime_ns, size) of every project file (under `start`)."""
        for entry in iter_project_entries(self.root, start=start):
            if entry.is_dir:
                continue
            try:
                info = os.stat(entry.path)
            except OSError:
                continue  # vanished between listing and stat
            yield str(entry.path), entry.rel, info.st_mtime_ns, info.st_size

    def _stat(self, paths: Iterable[Path]) -> tuple[list[tuple[str, str, int, int]], list[str], list[str]]:
        """`_walk`'s rows for the given paths that exist and are not ignored (a folder: everything in
        it), the paths themselves, and which of them are folders or gone (their indexed files below
        must be checked too: a folder that was moved or deleted takes its files with it)."""
        entries: list[tuple[str, str, int, int]] = []
        rels: list[str] = []
        folders: list[str] = []
        for path in paths:
            full = path if path.is_absolute() else self.root / path
            if not full.is_relative_to(self.root) or full == self.root:
                continue
            rel = full.relative_to(self.root).as_posix()
            rels.append(rel)
            try:
                info = os.stat(full)
            except OSError:
                folders.append(rel)  # gone: its row, or the rows of the folder it was, are removed
                continue
            if stat.S_ISDIR(info.st_mode):
                folders.append(rel)
                if not is_ignored(self.root, full):
                    entries += self._walk(full)
            elif stat.S_ISREG(info.st_mode) and not is_ignored(self.root, full):
                entries.append((str(full), rel, info.st_mtime_ns, info.st_size))
        return entries, rels, folders

    def _rows_of(self, rels: Sequence[str], folders: Sequence[str]) -> list[tuple[str, int, int, str]]:
        """The indexed rows of these files and of everything below these folders."""
        found: list[tuple[str, int, int, str]] = []
        query = "SELECT path, mtime_ns, size, sha256 FROM files WHERE "
        for start in range(0, len(rels), 500):
            chunk = rels[start : start + 500]
            found += self.conn.execute(query + f"path IN ({','.join('?' * len(chunk))})", chunk)
        for folder in folders:
            prefix = folder.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/%"
            found += self.conn.execute(query + "path LIKE ? ESCAPE '\\'", (prefix,))
        return found

    def _parse_all(self, jobs: Sequence[Job]) -> Iterator[Result]:
        """Parse in this process, or in a pool of worker processes when there is much to do."""
        if len(jobs) < _POOL_THRESHOLD or self.workers < 2:
            for job in jobs:
                yield parse.parse_job(job)
            return
        yield from parse.parse_in_pool(jobs, self.workers)

    def _write(self, results: Sequence[Result], removed: Sequence[str]) -> None:
        """Apply parse results and removals in one write transaction."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            for rel in removed:
                row = conn.execute("SELECT id FROM files WHERE path = ?", (rel,)).fetchone()
                if row is not None:
                    _delete_contents(conn, row[0])
                    conn.execute("DELETE FROM files WHERE id = ?", (row[0],))
            next_chunk = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM chunks").fetchone()[0]
            for result in results:
                next_chunk = _apply(conn, result, next_chunk)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


def _apply(conn: sqlite3.Connection, result: Result, next_chunk: int) -> int:
    """Store one file's result; returns the next free chunk id."""
    row = conn.execute("SELECT id, sha256 FROM files WHERE path = ?", (result.rel,)).fetchone()
    stamp = (result.mtime_ns, result.size, result.sha256)
    if not isinstance(result, Parsed) or (row is not None and row[1] == result.sha256):
        # Same content (or another process stored it meanwhile): only the stamp moves.
        if row is not None:
            conn.execute("UPDATE files SET mtime_ns = ?, size = ?, sha256 = ? WHERE id = ?", (*stamp, row[0]))
        return next_chunk
    if row is not None:
        _delete_contents(conn, row[0])
        conn.execute(
            "UPDATE files SET mtime_ns = ?, size = ?, sha256 = ?, language = ? WHERE id = ?",
            (*stamp, result.language, row[0]),
        )
        file_id = row[0]
    else:
        cursor = conn.execute(
            "INSERT INTO files (path, mtime_ns, size, sha256, language) VALUES (?, ?, ?, ?, ?)",
            (result.rel, *stamp, result.language),
        )
        file_id = cursor.lastrowid
    conn.executemany(
        "INSERT INTO symbols (file_id, name, qualname, kind, start_line, end_line, signature) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(file_id, *symbol) for symbol in result.symbols],
    )
    conn.executemany(
        "INSERT INTO refs (file_id, name, line, col, call) VALUES (?, ?, ?, ?, ?)",
        [(file_id, *ref) for ref in result.refs],
    )
    ids = range(next_chunk, next_chunk + len(result.chunks))
    conn.executemany(
        "INSERT INTO chunks (id, file_id, start_line, end_line, symbol) VALUES (?, ?, ?, ?, ?)",
        [(i, file_id, c.start, c.end, c.symbol) for i, c in zip(ids, result.chunks, strict=True)],
    )
    conn.executemany(
        "INSERT INTO chunks_fts (rowid, text, path, symbols, parts) VALUES (?, ?, ?, ?, ?)",
        [
            (i, c.text, result.rel, c.names, parts)
            for i, c, parts in zip(ids, result.chunks, result.parts, strict=True)
        ],
    )
    return next_chunk + len(result.chunks)


def _delete_contents(conn: sqlite3.Connection, file_id: int) -> None:
    """Remove everything derived from one file (its `files` row stays)."""
    conn.execute("DELETE FROM symbols WHERE file_id = ?", (file_id,))
    conn.execute("DELETE FROM refs WHERE file_id = ?", (file_id,))
    chunk_ids = "SELECT id FROM chunks WHERE file_id = ?"
    conn.execute(f"DELETE FROM chunks_fts WHERE rowid IN ({chunk_ids})", (file_id,))
    conn.execute(f"DELETE FROM vectors WHERE chunk_id IN ({chunk_ids})", (file_id,))
    conn.execute("DELETE FROM chunks WHERE file_id = ?", (file_id,))


def _connect(db_path: Path) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit) with WAL and a busy timeout."""
    conn = sqlite3.connect(
        db_path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
    )
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            break
        except sqlite3.OperationalError:
            # Switching to WAL needs a moment alone with the file; another process may be creating it.
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def _ensure_schema(conn: sqlite3.Connection) -> None:
    """Create the tables, or rebuild them when the stored schema version differs."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        version = None
        if "meta" in tables:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            version = row[0] if row else None
        if version != SCHEMA_VERSION:
            for name in ("chunks_fts", *sorted(tables - {"chunks_fts"})):
                if name in tables and not name.startswith(("sqlite_", "chunks_fts_")):
                    conn.execute(f'DROP TABLE IF EXISTS "{name}"')
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute("INSERT INTO meta (key, value) VALUES ('schema', ?)", (SCHEMA_VERSION,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
