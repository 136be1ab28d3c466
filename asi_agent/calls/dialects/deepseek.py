"""DeepSeek tool-call tokens.

V3 / R1:  <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
          ```json {…} ```<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>
V3.1:     <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>…
The tokens are also accepted with ASCII `|` and `_` (as some servers detokenize them).
Step3:    the same tokens (written with `_`) around an XML invoke element instead of a name and JSON:
          <｜tool_calls_begin｜><｜tool_call_begin｜>[function<｜tool_sep｜>NAME\n]<steptml:invoke …>…
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, named_span, problem
from asi_agent.calls.dialects.qwen_xml import QWEN_XML
from asi_agent.calls.dialects.tokens import section_spans
from asi_agent.messages import ToolCall

__all__ = ["DEEPSEEK"]


def _token(words: str) -> re.Pattern[str]:
    """The token with its full-width bars, or with ASCII bars but its ▁ (Kimi's tokens use | and _)."""
    loose, strict = r"[▁_ ]".join(words.split()), "▁".join(words.split())
    return re.compile(rf"<｜{loose}｜>|<\|{strict}\|>")


_SECTION = (_token("tool calls begin"), _token("tool calls end"))
_CALL = (_token("tool call begin"), _token("tool call end"))
_SEP = _token("tool sep")
_FENCE_RE = re.compile(r"^\s*(?P<name>[^\n`]*?)\s*\n?\s*```(?:json)?\s*\n?(?P<body>.*?)\n?\s*```\s*$", re.S)


# An XML call inside the call tokens (Step3): read as the XML reader reads it.
_XML_CALL_RE = re.compile(
    r"^\s*(?:function\s*(?:<[|｜]tool[▁_ ]sep[|｜]>)[^<\n]*\n?\s*)?<(?:[A-Za-z][\w-]*:)?invoke "
)


def _read_xml(body: str, start: int, end: int, ctx: ReadContext) -> Span:
    """A call whose body is an XML invoke element; the name the tokens give before it is not needed."""
    spans = [span for span in QWEN_XML.scan(body, ctx) if span.calls or span.problems]
    calls = tuple(call for span in spans for call in span.calls)
    problems = tuple(item for span in spans for item in span.problems)
    return Span(start, end, calls, problems, "deepseek", cut=any(span.cut for span in spans))


def _read(body: str, start: int, end: int, ctx: ReadContext) -> Span:
    if _XML_CALL_RE.match(body):
        return _read_xml(body, start, end, ctx)
    sep = _SEP.search(body)
    if sep is None:
        return Span(
            start, end, problems=(problem(body, "<｜tool▁sep｜> is missing", ctx),), dialect="deepseek"
        )
    head, rest = body[: sep.start()].strip(), body[sep.end() :]
    fenced = _FENCE_RE.match(rest)
    if head in ("function", "") and fenced is not None:  # V3 / R1: type, sep, name, fenced JSON
        name, arguments = fenced.group("name"), fenced.group("body")
    elif head == "function" and "\n" in rest:
        name, arguments = rest.split("\n", 1)
    else:  # V3.1: name, sep, JSON
        name, arguments = head, rest
    return named_span(start, end, body, name, arguments.strip(), dialect="deepseek", ctx=ctx)


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    yield from section_spans(text, ctx, section=_SECTION, call=_CALL, read=_read, dialect="deepseek")


def _render(calls: Sequence[ToolCall]) -> str:
    inner = "".join(
        f"<｜tool▁call▁begin｜>{call.name}<｜tool▁sep｜>{json.dumps(call.arguments, ensure_ascii=False)}"
        "<｜tool▁call▁end｜>"
        for call in calls
    )
    return f"<｜tool▁calls▁begin｜>{inner}<｜tool▁calls▁end｜>"


DEEPSEEK = Dialect(
    name="deepseek",
    scan=_scan,
    markers=("tool▁call", "tool▁sep", "｜tool_call", "｜tool_sep"),
    render=_render,
    rules=(
        "To call tools, write <｜tool▁calls▁begin｜>, then for each call <｜tool▁call▁begin｜>tool_name"
        "<｜tool▁sep｜>{json}<｜tool▁call▁end｜>, and end with <｜tool▁calls▁end｜>:",
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>tool_name<｜tool▁sep｜>{"param": "value"}'
        "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    ),
    models=("deepseek",),
    needs=("tool▁", "｜tool"),
)
