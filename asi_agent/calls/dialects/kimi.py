"""Kimi K2: `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}
<|tool_call_end|><|tool_calls_section_end|>`; the id `functions.NAME:0` is kept as the call's id.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, named_span, problem
from asi_agent.calls.dialects.tokens import section_spans
from asi_agent.messages import ToolCall

__all__ = ["KIMI"]

_SECTION = (re.compile(r"<\|tool_calls_section_begin\|>"), re.compile(r"<\|tool_calls_section_end\|>"))
_CALL = (re.compile(r"<\|tool_call_begin\|>"), re.compile(r"<\|tool_call_end\|>"))
_ARG = "<|tool_call_argument_begin|>"
_ID_RE = re.compile(r"^\s*(?:functions\.)?(?P<name>[^:\s]+?)(?::\d+)?\s*$")


def _read(body: str, start: int, end: int, ctx: ReadContext) -> Span:
    head, sep, arguments = body.partition(_ARG)
    match = _ID_RE.match(head)
    if not sep or match is None:
        return Span(start, end, problems=(problem(body, f"{_ARG} is missing", ctx),), dialect="kimi")
    span = named_span(start, end, body, match.group("name"), arguments.strip(), dialect="kimi", ctx=ctx)
    if span.calls:
        call = span.calls[0]
        return Span(start, end, (ToolCall(head.strip(), call.name, call.arguments),), dialect="kimi")
    return span


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    yield from section_spans(text, ctx, section=_SECTION, call=_CALL, read=_read, dialect="kimi")


def _render(calls: Sequence[ToolCall]) -> str:
    inner = "".join(
        f"<|tool_call_begin|>functions.{call.name}:{n}{_ARG}{json.dumps(call.arguments, ensure_ascii=False)}"
        "<|tool_call_end|>"
        for n, call in enumerate(calls)
    )
    return f"<|tool_calls_section_begin|>{inner}<|tool_calls_section_end|>"


KIMI = Dialect(
    name="kimi",
    scan=_scan,
    markers=("<|tool_calls_section_begin|>", "<|tool_call_begin|>", _ARG),
    render=_render,
    rules=(
        "To call tools, write <|tool_calls_section_begin|>, then for each call <|tool_call_begin|>"
        "functions.tool_name:N<|tool_call_argument_begin|>{json}<|tool_call_end|> (N counts from 0), and end "
        "with <|tool_calls_section_end|>.",
    ),
    models=("kimi", "moonshot"),
    needs=("<|tool_call",),
)
