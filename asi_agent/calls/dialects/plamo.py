"""Calls framed by PLaMo 3's request tokens:

    <|plamo:begin_tool_requests:plamo|>
      <|plamo:begin_tool_request:plamo|>
        <|plamo:begin_tool_name:plamo|>NAME<|plamo:end_tool_name:plamo|>
        <|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{…}<|plamo:end_tool_arguments:plamo|>
      <|plamo:end_tool_request:plamo|>
    <|plamo:end_tool_requests:plamo|><|plamo:tag|>

The calls run only when the requests section closed; a reply that stops inside it is reported. The turn's
end token `<|plamo:tag|>` ends the model's text (what follows is not its words), and a token the reply's
end cut at its start (`<|plamo:begin_`) is markup, not prose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, cut_span, named_span, problem
from asi_agent.calls.jsonish import lenient_json
from asi_agent.messages import ToolCall

__all__ = ["PLAMO"]

_SECTION_OPEN, _SECTION_CLOSE = "<|plamo:begin_tool_requests:plamo|>", "<|plamo:end_tool_requests:plamo|>"
_REQUEST_RE = re.compile(
    r"<\|plamo:begin_tool_request:plamo\|>\s*<\|plamo:begin_tool_name:plamo\|>(?P<name>.*?)"
    r"<\|plamo:end_tool_name:plamo\|>\s*<\|plamo:begin_tool_arguments:plamo\|>"
    r"(?:<\|plamo:constrain\|>\w*<\|plamo:msg\|>)?(?P<arguments>.*?)<\|plamo:end_tool_arguments:plamo\|>"
    r"\s*<\|plamo:end_tool_request:plamo\|>\s*",
    re.S,
)
_END_OF_TURN = "<|plamo:tag|>"
_CUT_TOKEN_RE = re.compile(r"<\|plamo:[\w:]*\Z")


def _section(text: str, start: int, close: int, ctx: ReadContext) -> Span:
    """All the calls of one closed requests section, or the reason it cannot be read."""
    end = close + len(_SECTION_CLOSE)
    body_start = position = start + len(_SECTION_OPEN)
    calls: list[ToolCall] = []
    while (request := _REQUEST_RE.match(text, position, close)) is not None:
        fragment = request.group()
        try:
            arguments = lenient_json(request.group("arguments"))
        except ValueError as exc:
            reason = f"its arguments could not be read ({exc})"
            return Span(start, end, problems=(problem(fragment, reason, ctx),), dialect="plamo")
        span = named_span(start, end, fragment, request.group("name"), arguments, dialect="plamo", ctx=ctx)
        if span.problems:
            return span
        calls.extend(span.calls)
        position = request.end()
    if text[position:close].strip() or position == body_start:
        reason = "the requests section holds something that is not a complete tool request"
        return Span(start, end, problems=(problem(text[start:end], reason, ctx),), dialect="plamo")
    return Span(start, end, tuple(calls), dialect="plamo")


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    position = 0
    while (start := text.find(_SECTION_OPEN, position)) >= 0:
        close = text.find(_SECTION_CLOSE, start)
        if close < 0:
            yield cut_span(start, len(text), text[start:], "plamo", ctx)
            return
        yield _section(text, start, close, ctx)
        position = close + len(_SECTION_CLOSE)
    turn_end = text.find(_END_OF_TURN, position)
    if turn_end >= 0:
        yield Span(turn_end, len(text), dialect="plamo")
    elif (cut := _CUT_TOKEN_RE.search(text, position)) is not None:
        yield Span(cut.start(), len(text), dialect="plamo")


PLAMO = Dialect(
    name="plamo",
    scan=_scan,
    markers=(_SECTION_OPEN, "<|plamo:begin_tool_request:plamo|>"),
    needs=("<|plamo:",),
)
"""Read only: no contract is written in this form."""
