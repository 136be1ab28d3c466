"""A JSON call object (or an array of them) anywhere in the prose: Llama 3.2 without its tag, xLAM,
models that answer "Sure! {"name": ..., "arguments": ...}" — also several joined by `;`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from asi_agent.calls.dialects.base import (
    Dialect,
    ReadContext,
    Span,
    UnprovenSkip,
    balanced_end,
    line_end,
    value_span,
)
from asi_agent.messages import ToolCall

__all__ = ["JSON_PROSE"]

_KEY = r"[\"“](?:name|tool_name|tool|function|arguments|parameters)[\"”]\s*:"
_START_RE = re.compile(r"\{\s*" + _KEY)
_ARGS_KEY_RE = re.compile(r"[\"“](?:arguments|parameters)[\"”]\s*:")
_DESCRIPTION_RE = re.compile(r"[\"“]description[\"”]\s*:")
_SEPARATOR_RE = re.compile(r"\s*;\s*(?=\{)")
_FENCE_RE = re.compile(r"^[ \t]*```[ \t]*(?P<info>[^`\n]*)$", re.M)


def _code_ranges(text: str) -> list[tuple[int, int]]:
    """Fenced blocks that are code, not JSON: a dict literal in Python code is no call."""
    ranges: list[tuple[int, int]] = []
    opener = None
    if "```" not in text:  # every fence line holds one
        return ranges
    for line in _FENCE_RE.finditer(text):
        if opener is None:
            opener = line
        elif not line.group("info").strip():
            info = opener.group("info").strip().lower()
            if info and not info.startswith("json"):
                ranges.append((opener.start(), line.end()))
            opener = None
    return ranges


def _array_start(text: str, start: int) -> int:
    """Widen to `[` when the object opens an array of calls."""
    before = start  # the last character before `start` that is not whitespace (no copy of the text)
    while before > 0 and text[before - 1].isspace():
        before -= 1
    return before - 1 if before > 0 and text[before - 1] == "[" else start


def _owner(claimed: Sequence[Span], start: int) -> Span | None:
    """The claimed span `start` lies in, if any."""
    for span in claimed:
        if span.start <= start < span.end:
            return span
    return None


def _scan(
    text: str, ctx: ReadContext, claimed: Sequence[Span] = (), used: list[Span] | None = None
) -> Iterator[Span]:
    code = _code_ranges(text)
    position = 0
    for match in _START_RE.finditer(text):
        if match.start() < position or any(a <= match.start() < b for a, b in code):
            continue
        start = _array_start(text, match.start())
        end = balanced_end(text, start)
        owner = _owner(claimed, match.start()) if claimed else None
        if owner is not None and used is not None:
            _skip(text, owner, start, end)
            used.append(owner)
            continue
        if end is None:  # unclosed: the rest of the line is all there is
            end = line_end(text, start)
        fragment = text[start:end]
        # A tool definition ({"name", "description", "parameters"}) is shown, not called.
        strict = _ARGS_KEY_RE.search(fragment) is not None and _DESCRIPTION_RE.search(fragment) is None
        span = value_span(start, end, fragment, fragment, strict=strict, dialect="json", ctx=ctx)
        inner = _START_RE.search(text, match.end(), end) if span is not None and not span.calls else None
        if span is not None and inner is not None:  # a broken object, then a call: report one, read the other
            position = inner.start()
            yield Span(start, position, problems=span.problems, dialect="json")
            continue
        if span is not None:
            separator = _SEPARATOR_RE.match(text, end)  # Llama joins calls with "; "
            position = separator.end() if separator is not None else end
            yield Span(span.start, position, span.calls, span.problems, span.dialect)


def _skip(text: str, owner: Span, start: int, end: int | None) -> None:
    """Check that the object at `start` lies whole inside `owner` (with a `;` joining it to the next), so
    that `scan` would only have found spans inside `owner`, and left its next object where it is."""
    separator = _SEPARATOR_RE.match(text, end) if end is not None else None
    last = separator.end() if separator is not None else end
    if start < owner.start or last is None or last > owner.end:
        raise UnprovenSkip


def scan_outside(text: str, ctx: ReadContext, claimed: Sequence[Span]) -> tuple[list[Span], list[Span]]:
    """The spans `scan` finds but those starting inside a `claimed` span (another reader's, with calls):
    a JSON object inside a call already read is read once. Also returns the claimed spans that hid one.
    Equal to `scan` once the hiders are chosen (the parser checks: a span starting and ending inside a
    chosen span with calls is never chosen); raises `UnprovenSkip` when a hidden object reaches past its
    hider (`scan` would then skip what follows differently)."""
    used: list[Span] = []
    spans = list(_scan(text, ctx, claimed, used))
    return spans, used


def _render(calls: Sequence[ToolCall]) -> str:
    return "\n".join(
        json.dumps({"name": call.name, "arguments": call.arguments}, ensure_ascii=False) for call in calls
    )


JSON_PROSE = Dialect(
    name="json",
    scan=_scan,
    scan_outside=scan_outside,
    render=_render,
    rules=(
        'Write each call on its own line as one JSON object with the tool\'s "name" and its "arguments" '
        "object, with double quotes:",
        '{"name": "tool_name", "arguments": {"param": "value"}}',
        "- For several calls in one reply, write one line per call.",
    ),
    models=("xlam", "toolace", "hammer", "watt-tool"),
    # A call object opens with one of its keys in quotes (`_KEY`).
    needs=tuple(
        quote + key for quote in '"“' for key in ("name", "tool", "function", "arguments", "parameters")
    ),
)
