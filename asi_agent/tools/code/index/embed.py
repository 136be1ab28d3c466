"""Optional embeddings for `codebase_search`, fused with the lexical ranking by reciprocal rank fusion.

Nothing here runs unless a session puts an `Embedder` in `ctx.state[EMBEDDER_KEY]` (for example one
calling the model server's embeddings endpoint). Vectors are computed for chunks on first need and
stored in the index (`vectors` table), so only new or changed chunks are embedded again; they are
removed together with their chunk.
"""

from __future__ import annotations

import functools
import math
import sqlite3
from array import array
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, runtime_checkable

__all__ = ["EMBEDDER_KEY", "RRF_K", "DbRunner", "Embedder", "reciprocal_rank_fusion", "vector_ranking"]

EMBEDDER_KEY = "asi_agent.tools.code.index.embed"
"""The `ctx.state` key under which a session may place its `Embedder`."""
RRF_K = 60
"""The usual reciprocal-rank-fusion constant: damps the weight of the very first ranks."""
_BATCH = 64


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors of one fixed dimension; `name` identifies the model (vectors are per name)."""

    name: str

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order."""
        ...


DbRunner = Callable[[Callable[[sqlite3.Connection], Any]], Awaitable[Any]]
"""Runs a function on the index connection (off the event loop, under the index's lock)."""


async def vector_ranking(
    run_db: DbRunner, embedder: Embedder, query: str, candidate_ids: Sequence[int]
) -> list[int]:
    """`candidate_ids` ordered by cosine similarity to the query (missing vectors are computed first)."""
    if not candidate_ids:
        return []
    name = embedder.name
    vectors: dict[int, list[float]] = await run_db(lambda conn: _stored(conn, name, candidate_ids))
    missing = [chunk_id for chunk_id in candidate_ids if chunk_id not in vectors]
    for start in range(0, len(missing), _BATCH):
        batch = missing[start : start + _BATCH]
        texts: list[str] = await run_db(functools.partial(_chunk_texts, ids=batch))
        computed = await embedder.embed(texts)
        if len(computed) != len(batch):
            raise ValueError(f"embedder {name!r} returned {len(computed)} vectors for {len(batch)} texts")
        fresh = dict(zip(batch, computed, strict=True))
        await run_db(functools.partial(_store, name=name, vectors=fresh))
        vectors.update(fresh)
    (query_vector,) = await embedder.embed([query])
    return sorted(candidate_ids, key=lambda i: -_cosine(query_vector, vectors[i]))


def reciprocal_rank_fusion(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[int]:
    """Merge rankings: each item scores the sum of 1 / (k + rank) over the rankings that hold it."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores, key=lambda item: -scores[item])


def _stored(conn: sqlite3.Connection, name: str, ids: Sequence[int]) -> dict[int, list[float]]:
    """Vectors already in the index for these chunks and this embedder."""
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        f"SELECT chunk_id, data FROM vectors WHERE embedder = ? AND chunk_id IN ({marks})", [name, *ids]
    )
    return {chunk_id: list(array("f", data)) for chunk_id, data in rows}


def _store(conn: sqlite3.Connection, name: str, vectors: dict[int, list[float]]) -> None:
    """Keep computed vectors, except for chunks removed meanwhile (their ids may be reused)."""
    rows = [(i, name, array("f", vector).tobytes(), i) for i, vector in vectors.items()]
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany(
            "INSERT OR REPLACE INTO vectors (chunk_id, embedder, data) "
            "SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM chunks WHERE id = ?)",
            rows,
        )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _chunk_texts(conn: sqlite3.Connection, ids: Sequence[int]) -> list[str]:
    """The texts of some chunks, in order ("" for a chunk removed meanwhile)."""
    texts: list[str] = []
    for chunk_id in ids:
        row = conn.execute("SELECT text FROM chunks_fts WHERE rowid = ?", (chunk_id,)).fetchone()
        texts.append(str(row[0]) if row else "")
    return texts


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity; 0 for a zero vector."""
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0
