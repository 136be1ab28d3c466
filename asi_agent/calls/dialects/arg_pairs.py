"""Calls whose arguments are key/value token pairs: one reader for every spelling of them.

    GLM-4.5 / 4.6 / 4.7   <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>
    Hunyuan (HY v3)       <tool_calls><tool_call>NAME<tool_sep><arg_key>K</arg_key><arg_value>V</arg_value>
                          </tool_call></tool_calls>, every token also with a `:opensource` suffix
    K2 (IFM)              <ifm|tool_calls><ifm|tool_call>NAME<ifm|arg_key>K</ifm|arg_key>
                          [<ifm|arg_type>T</ifm|arg_type>]<ifm|arg_value>V</ifm|arg_value></ifm|tool_call>
                          </ifm|tool_calls>, or a JSON call object (or list) between the call tokens

Values are text, typed from the tool's schema unless the value carries its own type. A group that opens
must close after its last call; a group that never closes, or a call the reply stops inside, is reported
and runs nothing.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from asi_agent.calls.dialects.base import (
    ReadContext,
    Span,
    balanced_end,
    cut_span,
    next_non_space,
    problem,
    typed_as,
    typed_value,
    value_span,
)
from asi_agent.calls.jsonish import new_call_id
from asi_agent.messages import ToolCall

__all__ = ["PairTokens", "pair_spans", "read_call", "schema_typed"]

_NAME_RE = re.compile(r"\s*(?P<name>[A-Za-z_][\w.\-]*)")


@dataclass(frozen=True, slots=True)
class PairTokens:
    """How one form spells its tokens; `sep`, `kind`, `group` and `json_body` are optional parts."""

    call: tuple[str, str]
    key: tuple[str, str]
    value: tuple[str, str]
    dialect: str
    sep: str = ""
    """Written between the name and the arguments (required when the form has one)."""
    kind: tuple[str, str] = ("", "")
    """A value's own type, written between its key and its value."""
    group: tuple[str, str] = ("", "")
    """The wrapper around the calls of one reply, when the form has one."""
    json_body: bool = False
    """The call tokens may hold a JSON call object or list instead of a name and pairs."""

    def pattern(self, name: str) -> re.Pattern[str]:
        """The compiled regular expression `name` ("pair", "pairs") of this spelling."""
        return _patterns(self)[name]


@functools.cache
def _patterns(tokens: PairTokens) -> Mapping[str, re.Pattern[str]]:
    """One argument pair, and any run of complete pairs, in this spelling (compiled once per spelling)."""
    (k_open, k_close), (v_open, v_close) = map(_escaped, (tokens.key, tokens.value))
    t_open, t_close = _escaped(tokens.kind)
    kind = rf"(?:\s*{t_open}(?P<kind>.*?){t_close})?" if tokens.kind[0] else ""
    pair = rf"{k_open}(?P<key>.*?){k_close}{kind}\s*{v_open}(?P<value>.*?)(?P<close>{v_close}|$)"
    bare_kind = rf"(?:\s*{t_open}.*?{t_close})?" if tokens.kind[0] else ""
    pairs = rf"(?:\s*{k_open}.*?{k_close}{bare_kind}\s*{v_open}.*?{v_close})*\s*"
    return {"pair": re.compile(pair, re.S), "pairs": re.compile(pairs, re.S)}


def _escaped(pair: tuple[str, str]) -> tuple[str, str]:
    return re.escape(pair[0]), re.escape(pair[1])


def _value(raw: str, own: str | None, tool: str, key: str, ctx: ReadContext) -> Any:
    """A value typed by its own type, else from the schema; a text value the model quoted as JSON
    (`"London"`) loses its quotes."""
    if own is not None and own.strip():
        return typed_as(raw.strip(), own.strip().lower())
    value = typed_value(raw, tool, key, ctx)
    kind = ctx.types.get(tool, {}).get(key, "")
    stripped = raw.strip()
    if isinstance(value, str) and kind in ("string", "str", "") and len(stripped) > 1 and stripped[0] == '"':
        try:
            decoded = json.loads(stripped)
        except ValueError:
            return value
        return decoded if isinstance(decoded, str) else value
    return value


def _name_end(text: str, after: int, tokens: PairTokens) -> tuple[str, int] | None:
    """The tool name after a call opener and where its arguments begin; None when it is not this form's."""
    named = _NAME_RE.match(text, after)
    if named is None:
        return None
    rest = next_non_space(text, named.end())
    if tokens.sep:
        return (named["name"], rest + len(tokens.sep)) if text.startswith(tokens.sep, rest) else None
    if rest == len(text) or text.startswith((tokens.key[0], tokens.call[1]), rest):
        return named["name"], named.end()
    return None


def _json_call(text: str, start: int, body_start: int, tokens: PairTokens, ctx: ReadContext) -> Span:
    """A JSON call object or list between the call tokens (K2's JSON form)."""
    end = balanced_end(text, body_start)
    if end is None:
        return cut_span(start, len(text), text[start:], tokens.dialect, ctx)
    close = next_non_space(text, end)
    if not text.startswith(tokens.call[1], close):
        if close == len(text):
            return cut_span(start, len(text), text[start:], tokens.dialect, ctx)
        reason = f"the call is not closed by {tokens.call[1]}"
        return Span(start, end, problems=(problem(text[start:end], reason, ctx),), dialect=tokens.dialect)
    stop = close + len(tokens.call[1])
    span = value_span(
        start, stop, text[start:stop], text[body_start:end], strict=True, dialect=tokens.dialect, ctx=ctx
    )
    assert span is not None  # strict: a span always
    calls = tuple(
        ToolCall(call.id, call.name, schema_typed(call.arguments, call.name, ctx)) for call in span.calls
    )
    return Span(span.start, span.end, calls, span.problems, span.dialect)


def schema_typed(arguments: Mapping[str, Any], tool: str, ctx: ReadContext) -> dict[str, Any]:
    """JSON arguments whose text values are typed by the schema where it declares a number or a boolean
    (`"2"` for an integer is 2); other values as written."""
    declared = ctx.types.get(tool, {})
    typed = dict(arguments)
    for key, value in arguments.items():
        if isinstance(value, str) and declared.get(key) in ("integer", "number", "boolean"):
            typed[key] = typed_as(value.strip(), declared[key])
    return typed


def read_call(text: str, start: int, tokens: PairTokens, ctx: ReadContext) -> Span | None:
    """The call whose opener is at `start`; None when what follows the opener is not this form."""
    after = start + len(tokens.call[0])
    body_start = next_non_space(text, after)
    if tokens.json_body and text.startswith(("{", "["), body_start):
        return _json_call(text, start, body_start, tokens, ctx)
    named = _name_end(text, after, tokens)
    if named is None:
        return None
    name, args_start = named
    # The call ends at the first closer after its complete pairs: one inside a value is data.
    pairs_end = tokens.pattern("pairs").match(text, args_start)
    complete = pairs_end.end() if pairs_end is not None else args_start
    close = text.find(tokens.call[1], complete)
    following = text.find(tokens.call[0], args_start)
    if close < 0 and following < 0:
        return cut_span(start, len(text), text[start:], tokens.dialect, ctx)
    if close >= 0 and (following < 0 or close < following or following < complete):
        body, end = text[args_start:close], close + len(tokens.call[1])
    else:
        body, end = text[args_start:following], following
    return _pairs_call(text, (start, end), name, body, tokens=tokens, ctx=ctx)


def _pairs_call(
    text: str, bounds: tuple[int, int], name: str, body: str, *, tokens: PairTokens, ctx: ReadContext
) -> Span:
    """The call of one body of key/value pairs (a problem when anything else is in it)."""
    fragment = text[bounds[0] : bounds[1]]
    pattern = tokens.pattern("pair")
    arguments: dict[str, Any] = {}
    pairs = list(pattern.finditer(body))
    for pair in pairs:
        key = pair["key"].strip()
        kind = pair["kind"] if tokens.kind[0] else None
        arguments[key] = _value(pair["value"], kind, name, key, ctx)
    rest = pattern.sub("", body).strip()
    if rest or any(not pair["close"] for pair in pairs):
        reason = f"an argument is not a complete {tokens.key[0]}/{tokens.value[0]} pair"
        return Span(*bounds, problems=(problem(fragment, reason, ctx),))
    return Span(*bounds, (ToolCall(new_call_id(), name, arguments),), dialect=tokens.dialect)


def _group(text: str, start: int, tokens: PairTokens, ctx: ReadContext) -> Span | None:
    """The calls of the group opening at `start`: all of them, once the group has closed after them."""
    opener, closer = tokens.group
    position = next_non_space(text, start + len(opener))
    if not text.startswith(tokens.call[0], position) and text.startswith(("{", "["), position):
        return None  # a JSON list: the wrapper reader's
    spans: list[Span] = []
    while text.startswith(tokens.call[0], position):
        span = read_call(text, position, tokens, ctx)
        if span is None:
            if not spans:
                return None  # its first call is another form's (Hermes JSON inside `<tool_calls>`)
            break
        spans.append(span)
        if span.cut:
            return Span(start, len(text), problems=span.problems, dialect=tokens.dialect, cut=True)
        position = next_non_space(text, span.end)
    if text.startswith(closer, position) and spans:
        calls = tuple(call for span in spans for call in span.calls)
        problems = tuple(item for span in spans for item in span.problems)
        return Span(start, position + len(closer), calls, problems, tokens.dialect)
    close = text.find(closer, position)
    if close < 0:
        return cut_span(start, len(text), text[start:], tokens.dialect, ctx)
    end = close + len(closer)
    reason = f"the {opener} group holds something other than complete calls"
    return Span(start, end, problems=(problem(text[start:end], reason, ctx),), dialect=tokens.dialect)


def pair_spans(text: str, ctx: ReadContext, tokens: PairTokens) -> Iterator[Span]:
    """Every group and every call outside a group written with `tokens`."""
    covered: list[tuple[int, int]] = []
    if tokens.group[0]:
        position = 0
        while (start := text.find(tokens.group[0], position)) >= 0:
            span = _group(text, start, tokens, ctx)
            position = start + len(tokens.group[0])
            if span is not None:
                covered.append((span.start, span.end))
                position = span.end
                yield span
    position = 0
    while (start := text.find(tokens.call[0], position)) >= 0:
        position = start + len(tokens.call[0])
        if any(low <= start < high for low, high in covered):
            continue
        span = read_call(text, start, tokens, ctx)
        if span is not None:
            yield span
