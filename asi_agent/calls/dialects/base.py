"""What every dialect reader shares: spans, problems, schema typing of text values, scanning helpers."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from asi_agent.calls.jsonish import (
    JSON_DECODER,
    call_from_object,
    clean_name,
    decode_arguments,
    json_values,
    lenient_json,
    looks_like_call,
    new_call_id,
)
from asi_agent.exceptions import CallFormatError
from asi_agent.memo import LastValue
from asi_agent.messages import ToolCall

__all__ = [
    "FORMAT_HINT",
    "SCAN_LIMIT",
    "Dialect",
    "Outside",
    "ReadContext",
    "Span",
    "UnprovenSkip",
    "balanced_end",
    "calls_span",
    "cut_json",
    "cut_span",
    "line_end",
    "named_span",
    "next_non_space",
    "problem",
    "typed_as",
    "typed_value",
    "value_span",
]

FORMAT_HINT = 'Write each call on its own line as [TOOL_CALL]name[ARGS]{"param": "value"}.'
# Bounds for runaway replies (a small model looping on call syntax).
SCAN_LIMIT = 65_536
_NON_SPACE_RE = re.compile(r"\S")
_JSON_TOKEN_RE = re.compile(r'[{}\[\]"“”\\]')


@dataclass(frozen=True, slots=True)
class Span:
    """A call-looking fragment of a reply: what it parsed to, or why it did not."""

    start: int
    end: int
    calls: tuple[ToolCall, ...] = ()
    problems: tuple[str, ...] = ()
    dialect: str = ""
    cut: bool = False
    """The reply stopped inside this call: nothing of the reply may run."""


@dataclass(frozen=True, slots=True)
class ReadContext:
    """What a reader may know besides the text: the JSON-schema type of each tool parameter."""

    types: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    hint: str = FORMAT_HINT

    @classmethod
    def from_tools(cls, tools: Sequence[Mapping[str, Any]], hint: str = FORMAT_HINT) -> ReadContext:
        """Parameter types taken from OpenAI-shaped tool schemas (the last ones are remembered: a run
        offers the same tools turn after turn)."""
        return _read_contexts((list(tools), hint))


def _read_context(key: tuple[list[Mapping[str, Any]], str]) -> ReadContext:
    """The parameter types of `key`'s tools, with its format hint."""
    tools, hint = key
    types: dict[str, dict[str, str]] = {}
    for tool in tools:
        function = tool.get("function", tool)
        if not isinstance(function, Mapping):
            continue
        properties = (function.get("parameters") or {}).get("properties") or {}
        types[str(function.get("name"))] = {
            str(name): _type_of(prop) for name, prop in properties.items() if isinstance(prop, Mapping)
        }
    return ReadContext(types, hint)


_read_contexts = LastValue(_read_context)


def _type_of(prop: Mapping[str, Any]) -> str:
    kind = prop.get("type")
    if isinstance(kind, list):
        kind = next((item for item in kind if item != "null"), "null" if "null" in kind else "")
    return str(kind or "")


class UnprovenSkip(Exception):
    """A reader's `scan_outside` could not prove its skips harmless: read the reply with `scan` instead."""


Outside = Callable[[str, "ReadContext", Sequence[Span]], tuple[list[Span], list[Span]]]
"""A reader's `scan` without the fragments starting inside spans other readers read calls from: its spans,
and the claimed spans that hid one."""


@dataclass(frozen=True, slots=True)
class Dialect:
    """One way models write calls: a reader, the markers that betray an attempt, and how to write it."""

    name: str
    scan: Callable[[str, ReadContext], Iterator[Span]]
    markers: tuple[str, ...] = ()
    """Literal text that only appears when the model tries a call in this dialect."""
    render: Callable[[Sequence[ToolCall]], str] | None = None
    """The calls written in this dialect, as the model should write them (None: read-only dialect)."""
    rules: tuple[str, ...] = ()
    """Contract lines that teach the format."""
    models: tuple[str, ...] = ()
    """Lower-case fragments of model names trained on this dialect."""
    needs: tuple[str, ...] = ()
    """The reader only runs on text holding one of these (a cheap test first); empty: always."""
    scan_outside: Outside | None = None
    """`scan` sparing what lies inside calls already read (see `Outside`); equal to `scan` once every
    hiding span is chosen, which the parser checks."""


def problem(fragment: str, reason: str, ctx: ReadContext | None = None) -> str:
    """A problem to show the model: the fragment (shortened), why it failed, and how to write a call."""
    snippet = " ".join(fragment.split())
    if len(snippet) > 80:
        snippet = snippet[:77] + "..."
    reason = reason.rstrip(".")
    hint = ctx.hint if ctx is not None else FORMAT_HINT
    return f"Could not parse the tool call `{snippet}`: {reason}. {hint}"


def next_non_space(text: str, index: int) -> int:
    """The index of the next non-space character (or the end)."""
    found = _NON_SPACE_RE.search(text, index)
    return found.start() if found else len(text)


def line_end(text: str, start: int) -> int:
    """The end of the line holding `start`."""
    end = text.find("\n", start)
    return len(text) if end < 0 else end


# An object or array whose first character inside may begin JSON (a value, a key, or the closer).
_JSON_OPENING_RE = re.compile(r'[{\[][ \t\n\r]*[-"{\[\]}0-9tfnNI]')


def balanced_end(text: str, start: int, limit: int | None = None, *, exact: bool = False) -> int | None:
    """End (exclusive) of the JSON object or array opening at `start`, skipping brackets inside strings
    (straight or curly quotes). Valid JSON ends where the JSON reader (C) says; anything else is scanned
    bracket by bracket — `exact` always scans (the reference the shortcut is tested against)."""
    limit = min(len(text), start + SCAN_LIMIT) if limit is None else limit
    # Text that cannot be JSON from its first value on (`[TOOL_CALL]…`) is not handed to the reader, whose
    # error costs more than the scan.
    if not exact and _JSON_OPENING_RE.match(text, start):
        try:
            end = JSON_DECODER.raw_decode(text, start)[1]
        except (ValueError, RecursionError):
            pass
        else:
            if end <= limit:
                return end
    return _scanned_end(text, start, limit)


def _scanned_end(text: str, start: int, limit: int) -> int | None:
    depth = 0
    closers = ""
    skip = -1
    for token in _JSON_TOKEN_RE.finditer(text, start, limit):
        char, index = token.group(), token.start()
        if closers:
            if index == skip:
                continue
            if char == "\\":
                skip = index + 1
            elif char in closers:
                closers = ""
        elif char in '"“”':
            closers = '"' if char == '"' else '”“"'
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return index + 1
    return None


def cut_json(body: object) -> bool:
    """Whether JSON text stops before its outermost object or array closes (the reply was cut off)."""
    if not isinstance(body, str):
        return False
    start = next_non_space(body, 0)
    return body.startswith(("{", "["), start) and balanced_end(body, start, len(body)) is None


def cut_span(start: int, end: int, fragment: str, dialect: str, ctx: ReadContext) -> Span:
    """A call the reply stopped inside: reported, never run."""
    reason = "the reply stopped before the call was complete; nothing of it was run"
    return Span(start, end, problems=(problem(fragment, reason, ctx),), dialect=dialect, cut=True)


def calls_span(
    start: int, end: int, fragment: str, value: object, *, strict: bool, dialect: str, ctx: ReadContext
) -> Span | None:
    """A span for a call object or array; None when the value is not a call and `strict` is off."""
    items = value if isinstance(value, list) else [value]
    shaped = [looks_like_call(item) for item in items]  # once per item: the test is most of the work
    if not any(shaped):
        if not strict:
            return None
        reason = "its JSON could not be read" if value is None else "it is not a call object with a name"
        return Span(start, end, problems=(problem(fragment, reason, ctx),), dialect=dialect)
    calls: list[ToolCall] = []
    problems: list[str] = []
    for item, is_call in zip(items, shaped, strict=True):
        try:
            if not is_call:
                raise CallFormatError("an item is not a call object with a name")
            calls.append(call_from_object(cast(dict[str, Any], item)))
        except CallFormatError as exc:
            problems.append(problem(fragment, str(exc), ctx))
    return Span(start, end, tuple(calls), tuple(problems), dialect)


def value_span(
    start: int, end: int, fragment: str, body: str, *, strict: bool, dialect: str, ctx: ReadContext
) -> Span | None:
    """A span for JSON text holding call objects (see `calls_span`)."""
    try:
        value = json_values(body)
    except ValueError as exc:
        items, rest = salvage_array(body)
        if items and any(looks_like_call(item) for item in items):
            span = calls_span(start, end, fragment, items, strict=strict, dialect=dialect, ctx=ctx)
            if span is not None:
                reason = problem(rest, f"this part of the calls could not be read ({exc})", ctx)
                return Span(span.start, span.end, span.calls, (*span.problems, reason), dialect)
        if not strict:
            return None
        reason = f"its JSON could not be read ({exc})"
        return Span(start, end, problems=(problem(fragment, reason, ctx),), dialect=dialect)
    return calls_span(start, end, fragment, value, strict=strict, dialect=dialect, ctx=ctx)


def salvage_array(body: str) -> tuple[list[Any], str]:
    """The leading items of a broken JSON array that read on their own, and the text after them."""
    text = body.lstrip()
    if not text.startswith("["):
        return [], body
    items: list[Any] = []
    index = 1
    while True:
        index = next_non_space(text, index)
        if text.startswith(",", index):
            index += 1
            continue
        try:
            item, index = JSON_DECODER.raw_decode(text, index)
        except (ValueError, RecursionError):
            return items, text[index:]
        items.append(item)


def named_span(
    start: int, end: int, fragment: str, name: str, body: object, *, dialect: str, ctx: ReadContext
) -> Span:
    """A span for the forms that give the name outside the arguments."""
    name = clean_name(name)
    if not name:
        return Span(
            start, end, problems=(problem(fragment, "the tool name is missing", ctx),), dialect=dialect
        )
    try:
        arguments = decode_arguments(body, name)
    except CallFormatError as exc:
        return Span(start, end, problems=(problem(fragment, str(exc), ctx),), dialect=dialect)
    return Span(start, end, (ToolCall(new_call_id(), name, arguments),), dialect=dialect)


def _number(raw: str) -> Any:
    try:
        number = float(raw)
    except ValueError:
        return raw
    return int(number) if number.is_integer() and "." not in raw.strip() else number


def _structured(raw: str) -> Any:
    """JSON text; a model that escaped its quotes (`[{\\"id\\": 1}]`) is read as meant."""
    for candidate in (raw, raw.replace('\\"', '"')):
        try:
            return json.loads(candidate)
        except (ValueError, RecursionError):
            continue
    try:
        value = lenient_json(raw)
    except ValueError:
        return raw
    return raw if isinstance(value, str) else value


def typed_value(raw: str, tool: str, param: str, ctx: ReadContext) -> Any:
    """A parameter value written as text, typed from the tool's schema (else: JSON if it reads as JSON)."""
    kind = ctx.types.get(tool, {}).get(param, "")
    stripped = raw.strip()
    if stripped == "null" and kind in ("null", ""):
        return None
    return _typed(raw, stripped, kind)


def typed_as(raw: str, kind: str) -> Any:
    """A value written as text, typed as the JSON-schema type `kind` says (a value the type cannot hold
    stays as written)."""
    stripped = raw.strip()
    if stripped == "null" and kind == "null":
        return None
    return _typed(raw, stripped, kind)


def _typed(raw: str, stripped: str, kind: str) -> Any:
    if kind in ("integer", "number", "float", "int"):
        return _number(stripped)
    if kind == "boolean" and stripped.lower() in ("true", "false"):
        return stripped.lower() == "true"
    if kind in ("object", "array") or (not kind and stripped[:1] in ("{", "[")):
        return _structured(stripped)
    if kind:
        return raw
    try:
        value = json.loads(stripped)
    except ValueError:
        return raw
    return raw if isinstance(value, str) else value
