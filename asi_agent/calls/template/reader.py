"""Reading replies with a learned `CallShape`.

A call is read only when it is whole: its JSON balanced, each argument's closer present and the call's
own closer written. A call the reply stopped inside is a problem the model is told about (the text-mode
retry), never a call with what was written so far. Wrapper pieces around all calls are optional (the
generation prompt or the server may have taken them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from asi_agent.calls.dialects.base import (
    ReadContext,
    Span,
    balanced_end,
    named_span,
    problem,
    typed_value,
    value_span,
)
from asi_agent.calls.jsonish import new_call_id
from asi_agent.calls.template.shape import CallShape
from asi_agent.memo import LastValue
from asi_agent.messages import ToolCall

__all__ = ["scan_shape", "starts_inside"]

_NAME_RE = re.compile(r"[A-Za-z_][\w.\-:/]*")
_KEY_RE = re.compile(r"""([{,]\s*)([A-Za-z_][\w\-]*)\s*:""")
_MAX_CALLS = 64


class CutOff(ValueError):
    """The reply ended inside a call."""


def _flex(piece: str) -> re.Pattern[str] | None:
    """A piece matched with any whitespace around and inside it; None for a blank piece."""
    parts = piece.split()
    if not parts:
        return None
    return re.compile(r"\s*" + r"\s+".join(re.escape(part) for part in parts))


_FIELDS = (
    "call_open",
    "call_close",
    "wrap_open",
    "wrap_close",
    "name_close",
    "key_open",
    "pair_sep",
    "key_close",
    "string_open",
    "other_open",
    "string_close",
    "other_close",
)


def _ending(piece: str) -> re.Pattern[str] | None:
    """A piece that ends a value: only the whitespace the template itself writes before it may go with
    it (a value's own trailing line breaks are data)."""
    parts = piece.split()
    if not parts:
        return None
    lead = piece[: len(piece) - len(piece.lstrip())]
    return re.compile(f"(?:{re.escape(lead)})?" + r"\s+".join(re.escape(part) for part in parts))


def _compile(shape: CallShape) -> dict[str, re.Pattern[str] | None]:
    patterns = {field: _flex(getattr(shape, field)) for field in _FIELDS}
    patterns |= {f"{field}$": _ending(getattr(shape, field)) for field in _FIELDS}
    return patterns


_patterns: LastValue[CallShape, dict[str, re.Pattern[str] | None]] = LastValue(_compile)


class _Cursor:
    """A position in the reply and the shape's pieces."""

    def __init__(self, text: str, pos: int, shape: CallShape) -> None:
        self.text, self.pos, self.shape = text, pos, shape
        self.p: dict[str, re.Pattern[str] | None] = _patterns(shape)

    def take(self, field: str) -> bool:
        """Consume the piece `field` here (a blank piece is always there)."""
        pattern = self.p[field]
        if pattern is None:
            return True
        found = pattern.match(self.text, self.pos)
        if found is None:
            return False
        self.pos = found.end()
        return True

    def until(self, field: str) -> str:
        """The text up to the next `field` piece, consumed with it; CutOff when it never comes."""
        pattern = self.p[f"{field}$"]
        assert pattern is not None
        found = pattern.search(self.text, self.pos)
        if found is None:
            raise CutOff(f"`{getattr(self.shape, field).strip()}` never came")
        value, self.pos = self.text[self.pos : found.start()], found.end()
        return value

    def at_end(self) -> bool:
        return not self.text[self.pos :].strip()


def _markup_breaks(raw: str, shape: CallShape, opener: str, closer: str) -> str:
    """A value without the line breaks its template writes around every value (Qwen's
    `<parameter=K>\nV\n</parameter>`): those belong to the markup, any others to the value."""
    if (shape.key_close + opener).endswith("\n") and raw.startswith("\n"):
        raw = raw[1:]
    if closer.startswith("\n") and raw.endswith("\n"):
        raw = raw[:-1]
    return raw


def _quoted_json(raw: str, quote: str) -> Any:
    """A value written with a template's own string quote token (Gemma's `<|"|>`) and bare keys."""
    pieces = raw.split(quote)
    out = []
    for index, piece in enumerate(pieces):
        out.append(json.dumps(piece) if index % 2 else _KEY_RE.sub(r'\1"\2":', piece))
    return json.loads("".join(out))


def _other_value(raw: str, shape: CallShape) -> Any:
    raw = raw.strip()
    try:
        return json.loads(raw)
    except ValueError:
        pass
    quote = shape.string_open.strip()
    if quote and quote == shape.string_close.strip():
        try:
            return _quoted_json(raw, quote)
        except ValueError:
            pass
    return raw


def _bare_value(cur: _Cursor) -> str:
    """A value with no closer of its own (`K:7,` / `K:{…}}`): up to the separator or the call's closer
    outside brackets and quoted text."""
    quote = cur.shape.string_open.strip()
    depth, index, text = 0, cur.pos, cur.text
    while index < len(text):
        if quote and text.startswith(quote, index):
            close = text.find(quote, index + len(quote))
            if close < 0:
                raise CutOff("a quoted value never ended")
            index = close + len(quote)
            continue
        char = text[index]
        if char in "{[":
            depth += 1
        elif char in "}]":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and text.startswith(cur.shape.pair_sep.strip() or "\0", index):
            break
        index += 1
    else:
        raise CutOff("a value never ended")
    value, cur.pos = text[cur.pos : index], index
    return value


def _argument(cur: _Cursor, tool: str, ctx: ReadContext) -> tuple[str, Any]:
    shape = cur.shape
    key = cur.until("key_close").strip() if cur.p["key_close"] else ""
    distinct = shape.string_open.strip() != shape.other_open.strip()
    if distinct and cur.p["string_open"] is not None and cur.take("string_open"):
        if cur.p["string_close"] is None:
            return key, _bare_value(cur).strip()
        return key, _markup_breaks(cur.until("string_close"), shape, shape.string_open, shape.string_close)
    if (distinct and cur.take("other_open")) or not distinct:
        if not distinct:
            cur.take("string_open")
        close = "other_close" if cur.p["other_close"] is not None else None
        raw = cur.until(close) if close else _bare_value(cur)
        if not distinct and shape.string_close.strip() == shape.other_close.strip():
            raw = _markup_breaks(raw, shape, shape.other_open, shape.other_close)
            return key, typed_value(raw, tool, key, ctx)
        return key, _other_value(raw, shape)
    raise ValueError(f"the value of `{key}` is not written the way this model's template writes values")


def _pairs(cur: _Cursor, name: str, ctx: ReadContext) -> dict[str, Any]:
    arguments: dict[str, Any] = {}
    cur.take("name_close")
    while True:
        if cur.at_end():
            raise CutOff(f"`{cur.shape.call_close.strip() or 'the call end'}` never came")
        if cur.p["call_close"] is not None and cur.take("call_close"):
            return arguments
        if arguments:
            cur.take("pair_sep")
        if not cur.take("key_open"):
            raise ValueError("an argument does not start the way this model's template starts one")
        key, value = _argument(cur, name, ctx)
        arguments[key] = value


def _name(cur: _Cursor) -> str:
    found = _NAME_RE.match(
        cur.text, cur.pos + len(cur.text[cur.pos :]) - len(cur.text[cur.pos :].lstrip(" \t"))
    )
    if found is None:
        raise ValueError("the tool name is missing")
    cur.pos = found.end()
    return found.group()


def _read(cur: _Cursor, start: int, ctx: ReadContext) -> Span:
    shape, text = cur.shape, cur.text
    if shape.style == "named-json":
        begin = cur.pos + len(text[cur.pos :]) - len(text[cur.pos :].lstrip())
        end = balanced_end(text, begin) if text.startswith(("{", "["), begin) else None
        if end is None:
            raise CutOff("its JSON is not complete")
        cur.pos = end
        cur.take("call_close")
        span = value_span(
            start, cur.pos, text[start : cur.pos], text[begin:end], strict=True, dialect=shape.name, ctx=ctx
        )
        assert span is not None
        return span
    name = _name(cur)
    if shape.style == "json":
        if not cur.take("name_close"):
            raise ValueError("the arguments do not follow the name the way this model's template writes them")
        begin = cur.pos + len(text[cur.pos :]) - len(text[cur.pos :].lstrip())
        end = balanced_end(text, begin) if text.startswith(("{", "["), begin) else None
        if end is None:
            raise CutOff("its JSON arguments are not complete")
        cur.pos = end
        cur.take("call_close")
        return named_span(start, end, text[start:end], name, text[begin:end], dialect=shape.name, ctx=ctx)
    arguments = _pairs(cur, name, ctx)
    return Span(start, cur.pos, (ToolCall(new_call_id(), name, arguments),), dialect=shape.name)


def _start_inside(text: str, patterns: dict[str, re.Pattern[str] | None]) -> int | None:
    """Where the name starts when the reply starts with a name and the shape's name closer."""
    name_close = patterns["name_close"]
    head = _NAME_RE.match(text, len(text) - len(text.lstrip()))
    if head is None or name_close is None or name_close.match(text, head.end()) is None:
        return None
    return head.start()


def starts_inside(text: str, shape: CallShape) -> bool:
    """Whether the reply starts with a name and the shape's name closer (the generation prompt wrote the
    opener): the one place `scan_shape` reads a call whose opener the text does not hold."""
    return _start_inside(text, _patterns(shape)) is not None


def _openings(text: str, shape: CallShape) -> Iterator[tuple[int, int]]:
    """(start, end) of every call opener; a reply that starts with the name itself (the generation
    prompt wrote the opener) opens a call at 0."""
    patterns = _patterns(shape)
    opener = patterns["call_open"]
    if opener is None:
        return
    head = _start_inside(text, patterns)
    if head is not None and shape.style != "named-json" and not opener.match(text, 0):
        yield 0, head  # the generation prompt wrote the opener
    for found in opener.finditer(text):
        start = found.start() + len(found.group()) - len(found.group().lstrip())
        wrap = patterns["wrap_open"]
        before = text.rfind(shape.wrap_open.strip(), 0, start) if wrap is not None else -1
        if before >= 0 and not text[before + len(shape.wrap_open.strip()) : start].strip():
            start = before
        yield start, found.end()


def scan_shape(text: str, ctx: ReadContext, shape: CallShape) -> Iterator[Span]:
    """Spans of the calls written in `shape` (and of the calls cut off in it)."""
    for count, (start, end) in enumerate(_openings(text, shape)):
        if count >= _MAX_CALLS:
            return
        cur = _Cursor(text, end, shape)
        try:
            span = _read(cur, start, ctx)
        except CutOff as exc:
            reason = f"the reply stopped inside the call ({exc}); nothing of it was run"
            yield Span(
                start, len(text), problems=(problem(text[start:], reason, ctx),), dialect=shape.name, cut=True
            )
            return
        except ValueError as exc:
            yield Span(
                start,
                cur.pos,
                problems=(problem(text[start : cur.pos + 1], str(exc), ctx),),
                dialect=shape.name,
            )
            continue
        close = _patterns(shape)["wrap_close"]
        if close is not None:
            found = close.match(text, span.end)
            if found is not None:
                span = Span(span.start, found.end(), span.calls, span.problems, span.dialect)
        yield span
