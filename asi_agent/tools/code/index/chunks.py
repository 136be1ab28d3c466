"""Symbol-aware chunks for search, and the identifier splitting shared by indexing and queries.

A file is cut into non-overlapping chunks: a function or class that fits in `MAX_BLOCK` lines is one
chunk; a larger class is cut into its members, its remaining lines (header, attributes) forming
windows labelled with the class; text outside any symbol is cut into windows of `WINDOW` lines.
Because the chunks do not overlap, a line search over them sees every line once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from asi_agent.tools.code.index.symbols import Symbol

__all__ = ["MAX_BLOCK", "WINDOW", "Chunk", "identifier_parts", "make_chunks", "query_terms"]

WINDOW = 40
"""Lines per window of text outside symbols."""
MAX_BLOCK = 150
"""A symbol longer than this is split into its members (or into windows when it has none)."""

_BLOCK_KINDS = frozenset({"class", "function", "method", "interface", "type"})
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_WORD = re.compile(r"\w+")
_STOPWORDS = frozenset(
    {
        *("a", "an", "and", "are", "as", "at", "be", "by", "does", "do", "for", "from", "how", "i", "in"),
        *("is", "it", "of", "on", "or", "that", "the", "this", "to", "what", "where", "which", "who"),
        *("why", "with", "find", "show", "me"),
    }
)


class Chunk(NamedTuple):
    """Lines `start`..`end` (1-based, inclusive) of a file, labelled with the symbol they belong to."""

    start: int
    end: int
    symbol: str
    names: str
    """Qualified names of the symbols defined in the chunk, space separated (an FTS column)."""
    text: str


class _Node(NamedTuple):
    symbol: Symbol
    children: list[_Node]


def make_chunks(lines: Sequence[str], symbols: Iterable[Symbol]) -> list[Chunk]:
    """Cut a file's lines into chunks along its symbols (see the module docstring)."""
    all_symbols = sorted(symbols, key=lambda s: (s.start, -s.end))
    blocks = [s for s in all_symbols if s.kind in _BLOCK_KINDS and s.end >= s.start]
    spans: list[tuple[int, int, str]] = []
    _partition(1, len(lines), _tree(blocks), "", spans)
    chunks: list[Chunk] = []
    index = 0
    for start, end, label in spans:
        body = lines[start - 1 : end]
        if not any(line.strip() for line in body):
            continue
        while index < len(all_symbols) and all_symbols[index].start < start:
            index += 1
        names = []
        probe = index
        while probe < len(all_symbols) and all_symbols[probe].start <= end:
            names.append(all_symbols[probe].qualname)
            probe += 1
        chunks.append(Chunk(start, end, label, " ".join(names), "\n".join(body)))
    return chunks


def _tree(blocks: list[Symbol]) -> list[_Node]:
    """Nest symbols (sorted by start, longest first) by their line ranges."""
    roots: list[_Node] = []
    stack: list[_Node] = []
    for symbol in blocks:
        while stack and symbol.start > stack[-1].symbol.end:
            stack.pop()
        node = _Node(symbol, [])
        if stack and symbol.end <= stack[-1].symbol.end:
            stack[-1].children.append(node)
        else:
            stack.clear()
            roots.append(node)
        stack.append(node)
    return roots


def _partition(
    first: int, last: int, nodes: list[_Node], label: str, out: list[tuple[int, int, str]]
) -> None:
    """Spans covering `first`..`last`: each node whole or split further, gaps as windows."""
    cursor = first
    for node in nodes:
        symbol = node.symbol
        if symbol.start < cursor or symbol.end > last:
            continue  # overlapping ranges (a parser oddity): the enclosing span already covers it
        _windows(cursor, symbol.start - 1, label, WINDOW, out)
        length = symbol.end - symbol.start + 1
        if length <= MAX_BLOCK or not node.children:
            _windows(symbol.start, symbol.end, symbol.qualname, MAX_BLOCK, out)
        else:
            _partition(symbol.start, symbol.end, node.children, symbol.qualname, out)
        cursor = symbol.end + 1
    _windows(cursor, last, label, WINDOW, out)


def _windows(first: int, last: int, label: str, size: int, out: list[tuple[int, int, str]]) -> None:
    """`first`..`last` in pieces of at most `size` lines."""
    for start in range(first, last + 1, size):
        out.append((start, min(start + size - 1, last), label))


def identifier_parts(text: str) -> str:
    """The camelCase parts of the identifiers in `text`, lower-cased, each once (an FTS column).

    The FTS tokenizer already splits snake_case at underscores; camelCase it cannot see.
    """
    parts: dict[str, None] = {}
    for identifier in set(_IDENTIFIER.findall(text)):
        if identifier.islower() or identifier.isupper():
            continue
        for part in _CAMEL.findall(identifier):
            parts[part.lower()] = None
    return " ".join(parts)


def query_terms(query: str) -> list[str]:
    """Search terms of a query: each word, and the camelCase and snake_case parts of identifiers."""
    terms: dict[str, None] = {}
    for word in _WORD.findall(query):
        lowered = word.lower()
        pieces = [p.lower() for chunk in word.split("_") for p in _CAMEL.findall(chunk)]
        if "_" not in word and lowered not in _STOPWORDS:
            terms[lowered] = None
        for piece in pieces:
            if piece not in _STOPWORDS and (len(piece) > 1 or piece.isdigit()):
                terms[piece] = None
    if not terms:  # a query of stop words only still deserves an answer
        terms = {word.lower(): None for word in _WORD.findall(query) if "_" not in word}
    return list(terms)
