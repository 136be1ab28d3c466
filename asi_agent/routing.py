"""Tool routing: with many plugin tools, send the model only the relevant ones each turn.

Below `threshold` registered tools every tool is sent. Above it a turn gets the core tools (the
built-ins), the tools the model called in recent messages, and the `top_k` plugin tools that best
match the recent conversation (latest messages weigh most). Matching is BM25 over each tool's name
parts, description and parameter names/descriptions, with a tokenizer that splits camelCase and
snake_case and turns Chinese text into character bigrams; when an `Embedder` is given, its cosine
ranking is fused with the lexical one by reciprocal rank. `select_tools` is async because embedders
are; without one it never awaits anything.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Collection, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from asi_agent.messages import Message
from asi_agent.tools.base import ToolSpec
from asi_agent.tools.code.index.embed import RRF_K, Embedder
from asi_agent.tools.registry import ToolRegistry
from asi_agent.tools.schema import parameters_schema, tool_schema

__all__ = [
    "RoutingConfig",
    "VectorCache",
    "builtin_names",
    "rank_tools",
    "routed_schemas",
    "select_tools",
    "tokenize",
]

VectorCache = MutableMapping[tuple[str, str], list[float]]
"""Tool vectors by (embedder name, tool name), kept by the caller across turns."""

_K1, _B = 1.2, 0.75
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[a-z0-9]+|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# Words that say nothing about which tool is needed.
_STOP = frozenset(
    re.findall(
        r"\S+",
        "a an and are as at be by can do for from get give how i in into is it its me my of on or "
        "please show some that the their them then there this to up us use want we what when which will "
        "with you your",
    )
)


@dataclass(frozen=True, slots=True, kw_only=True)
class RoutingConfig:
    """When and how much to route."""

    threshold: int = 40
    """Route only when more tools than this are registered."""
    top_k: int = 8
    """Plugin tools sent per turn, besides the core and recently used ones."""
    recent_messages: int = 6
    """How many latest user/assistant messages describe what the conversation is about."""


def tokenize(text: str) -> list[str]:
    """Lower-case terms: camelCase/snake_case/kebab-case split, stop words dropped, CJK as bigrams."""
    spaced = _CAMEL.sub(" ", re.sub(r"[_\-./:]+", " ", text)).lower()
    terms: list[str] = []
    for word in _WORD.findall(spaced):
        if _CJK.match(word):
            terms.extend([word[i : i + 2] for i in range(len(word) - 1)] or [word])
        elif word not in _STOP and len(word) > 1:
            terms.append(_stem(word))
    return terms


def _stem(word: str) -> str:
    """Plural to singular, enough to match "issues" with "issue" and "policies" with "policy"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _document(spec: ToolSpec) -> list[str]:
    """The searchable terms of a tool; its name counts twice, being the densest description."""
    schema = parameters_schema(spec)
    parts = [spec.name, spec.name, spec.description]
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        for name, prop in properties.items():
            parts.append(str(name))
            if isinstance(prop, Mapping) and prop.get("description"):
                parts.append(str(prop["description"]))
    return tokenize(" ".join(parts))


def _query(messages: Sequence[Message], recent: int) -> dict[str, float]:
    """Weighted query terms from the latest user/assistant texts: each older message weighs half."""
    weights: dict[str, float] = {}
    texts = [m.content for m in messages if m.role in ("user", "assistant") and m.content.strip()]
    for age, text in enumerate(reversed(texts[-recent:])):
        for term, count in Counter(tokenize(text)).items():
            weights[term] = weights.get(term, 0.0) + count * 0.5**age
    return weights


def rank_tools(specs: Sequence[ToolSpec], query: Mapping[str, float]) -> list[str]:
    """Tool names by BM25 score for the weighted query terms, best first; ties keep registry order."""
    documents = {spec.name: Counter(_document(spec)) for spec in specs}
    if not documents:
        return []
    average = sum(sum(d.values()) for d in documents.values()) / len(documents) or 1.0
    frequency = Counter(term for d in documents.values() for term in d)
    total = len(documents)
    scores: dict[str, float] = {}
    for name, counts in documents.items():
        length = sum(counts.values())
        score = 0.0
        for term, weight in query.items():
            tf = counts.get(term, 0)
            if tf:
                idf = math.log(1 + (total - frequency[term] + 0.5) / (frequency[term] + 0.5))
                score += weight * idf * tf * (_K1 + 1) / (tf + _K1 * (1 - _B + _B * length / average))
        scores[name] = score
    order = {name: index for index, name in enumerate(documents)}
    return sorted((n for n in documents if scores[n] > 0), key=lambda n: (-scores[n], order[n]))


async def _vector_ranking(
    specs: Sequence[ToolSpec], text: str, embedder: Embedder, cache: VectorCache
) -> list[str]:
    """Tool names by cosine similarity of `name: description` to the conversation text."""
    missing = [spec for spec in specs if (embedder.name, spec.name) not in cache]
    if missing:
        vectors = await embedder.embed([f"{spec.name}: {spec.description}" for spec in missing])
        for spec, vector in zip(missing, vectors, strict=True):
            cache[(embedder.name, spec.name)] = vector
    (query,) = await embedder.embed([text])
    return sorted(
        (spec.name for spec in specs), key=lambda name: -_cosine(query, cache[(embedder.name, name)])
    )


def _fuse(rankings: Sequence[Sequence[str]]) -> list[str]:
    """Reciprocal rank fusion of several rankings of names."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, name in enumerate(ranking, start=1):
            scores[name] = scores.get(name, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(scores, key=lambda name: -scores[name])


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def _recently_used(messages: Sequence[Message], recent: int) -> set[str]:
    """Tools the model called in the latest `recent` assistant messages."""
    calls = [m for m in messages if m.role == "assistant" and m.tool_calls][-recent:]
    return {call.name for message in calls for call in message.tool_calls}


async def select_tools(
    registry: ToolRegistry,
    messages: Sequence[Message],
    *,
    core: Collection[str],
    threshold: int,
    top_k: int,
    embedder: Embedder | None = None,
    cache: VectorCache | None = None,
    recent: int = 6,
) -> list[str]:
    """The names of the tools to send this turn, in registry order (all of them below `threshold`)."""
    names = registry.names()
    if len(names) <= threshold:
        return list(names)
    keep = set(core) | (_recently_used(messages, recent) & set(names))
    candidates = [spec for spec in registry.specs() if spec.name not in keep]
    query = _query(messages, recent)
    ranking = rank_tools(candidates, query)
    if embedder is not None and candidates:
        texts = [m.content for m in messages if m.role in ("user", "assistant")][-recent:]
        vector = await _vector_ranking(candidates, "\n".join(texts), embedder, {} if cache is None else cache)
        ranking = _fuse([ranking, vector])
    keep.update(ranking[:top_k])
    return [name for name in names if name in keep]


def builtin_names(registry: ToolRegistry) -> list[str]:
    """The core tools: every built-in and extension tool of the registry."""
    return [spec.name for spec in registry.specs() if spec.source in ("builtin", "extension")]


async def routed_schemas(
    registry: ToolRegistry,
    messages: Sequence[Message],
    *,
    locale: str,
    config: RoutingConfig,
    embedder: Embedder | None = None,
    cache: VectorCache | None = None,
) -> list[dict[str, Any]]:
    """The tool schemas of one turn: what the agent passes to `Backend.complete` instead of all of them."""
    chosen = set(
        await select_tools(
            registry,
            messages,
            core=builtin_names(registry),
            threshold=config.threshold,
            top_k=config.top_k,
            embedder=embedder,
            cache=cache,
            recent=config.recent_messages,
        )
    )
    specs = [spec for spec in registry.specs() if spec.name in chosen and spec.run is not None]
    return _schemas(specs, locale)


_SCHEMAS: dict[tuple[str, tuple[int, ...]], tuple[list[ToolSpec], str]] = {}
_SCHEMAS_KEPT = 16


def _schemas(specs: list[ToolSpec], locale: str) -> list[dict[str, Any]]:
    """The schemas of `specs`, generated once per set of specs (a turn only parses them again: callers
    may change what they get, e.g. grounding narrows parameters)."""
    key = (locale, tuple(id(spec) for spec in specs))
    known = _SCHEMAS.get(key)
    if known is None or any(a is not b for a, b in zip(known[0], specs, strict=True)):
        known = (specs, json.dumps([tool_schema(spec, locale, enums=True) for spec in specs]))
        if len(_SCHEMAS) >= _SCHEMAS_KEPT:
            _SCHEMAS.clear()
        _SCHEMAS[key] = known
    schemas: list[dict[str, Any]] = json.loads(known[1])
    return schemas
