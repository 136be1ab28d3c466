"""Whether a model's reply is Markdown or plain text, so the chat shows it as what it is.

Rendering plain text as Markdown loses it: `__name__` turns into a bold "name", single newlines are
joined (a function or a file listing ends up on one line) and `# comment` becomes a heading. A reply
is shown as Markdown only when it uses Markdown's own marks (a fence, inline code, emphasis with
asterisks, links, lists, headings, tables, quotes) and holds no unfenced code; anything else is shown
as plain text, line for line.
"""

from __future__ import annotations

import re

__all__ = ["looks_like_markdown"]

_FENCE = re.compile(r"^\s*(```|~~~)", re.MULTILINE)
_MARKS = (
    re.compile(r"`[^`\n]+`"),  # inline code
    re.compile(r"\*\*[^*\n]+\*\*"),  # strong emphasis with asterisks
    re.compile(r"\[[^\]\n]+\]\([^)\s]+\)"),  # a link
    re.compile(r"^\s{0,3}[-*+]\s+\S", re.MULTILINE),  # a bullet
    re.compile(r"^\s{0,3}\d{1,3}[.)]\s+\S", re.MULTILINE),  # a numbered item
    re.compile(r"^#{1,6}\s+[A-Za-z\u00c0-\uffff]", re.MULTILINE),  # a heading (not `#!` or `#include`)
    re.compile(r"^\s*\|?\s*:?-{3,}:?\s*\|", re.MULTILINE),  # a table's rule
    re.compile(r"^>\s", re.MULTILINE),  # a quote
)
_CODE_LINE = re.compile(
    r"^(?:\s{4,}|\t)\S"  # indented by four spaces or a tab (a block, or a body)
    r"|^\s*(?:def|class|import|from\s+\S+\s+import|if|elif|for|while|return|function|const|let|var|"
    r"public|private|package|#include|fn|func)\b.*[:;{(=]\s*$"  # a statement of a common language
    r"|^\s*[})\]];?\s*$",  # a closing bracket on its own line
    re.MULTILINE,
)


def looks_like_markdown(text: str) -> bool:
    """True when `text` is meant as Markdown; False for plain text (code, listings, prose without marks)."""
    if _FENCE.search(text):
        return True
    if _CODE_LINE.search(_without_list_items(text)):
        return False
    return any(mark.search(text) for mark in _MARKS)


def _without_list_items(text: str) -> str:
    """The text without the continuation lines of list items (indented, but not code)."""
    kept: list[str] = []
    in_item = False
    for line in text.splitlines():
        if re.match(r"\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+\S", line):
            in_item = True
        elif not line.strip():
            in_item = False
        elif in_item and line.startswith((" ", "\t")):
            continue
        kept.append(line)
    return "\n".join(kept)
