"""XML calls with a name attribute on the function and on each parameter (MiniCPM 5):

    <function name="NAME"><param name="P">value</param></function>

Values are text (a `<![CDATA[…]]>` section is taken as it is), typed from the tool's schema. A tokenizer
that did not decode its space marker writes `<functionĠname=`, or drops the space (`<functionname=`):
both are read. A parameter without a name or given twice makes the call unreadable (which value was
meant?); a call the reply stops inside is reported, never run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, cut_span, problem, typed_value
from asi_agent.calls.jsonish import clean_name, new_call_id
from asi_agent.messages import ToolCall

__all__ = ["XML_PARAM"]

_SPACE = r"(?:\s+|\u0120)?"  # a space, the byte-level tokenizer's space marker, or nothing
_FUNCTION_RE = re.compile(r"<function" + _SPACE + r"name=\"(?P<name>[^\"\n]*)\"\s*>")
_CLOSE = "</function>"
_PARAM_RE = re.compile(
    r"<param(?:" + _SPACE + r"name=\"(?P<name>[^\"\n]*)\")?\s*>(?P<value>.*?)</param>", re.S
)
_CDATA_RE = re.compile(r"\A\s*<!\[CDATA\[(?P<data>.*?)\]\]>\s*\Z", re.S)


def _value(raw: str, tool: str, name: str, ctx: ReadContext) -> Any:
    cdata = _CDATA_RE.match(raw)
    return cdata.group("data") if cdata is not None else typed_value(raw, tool, name, ctx)


def _arguments(body: str, tool: str, ctx: ReadContext) -> tuple[dict[str, Any], str]:
    """The parameters of one function body, and why they cannot be read (empty when they can)."""
    arguments: dict[str, Any] = {}
    position = 0
    for param in _PARAM_RE.finditer(body):
        if body[position : param.start()].strip():
            return arguments, "there is text between the parameters"
        position = param.end()
        name = (param.group("name") or "").strip()
        if not name:
            return arguments, "a parameter has no name"
        if name in arguments:
            return arguments, f"the parameter `{name}` is given twice"
        arguments[name] = _value(param.group("value"), tool, name, ctx)
    if body[position:].strip():
        return arguments, "there is text after the parameters"
    return arguments, ""


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    position = 0
    while (found := _FUNCTION_RE.search(text, position)) is not None:
        close = text.find(_CLOSE, found.end())
        following = _FUNCTION_RE.search(text, found.end())
        if close < 0 or (following is not None and following.start() < close):
            if following is None:  # the reply stopped inside the call
                yield cut_span(found.start(), len(text), text[found.start() :], "xml-param", ctx)
                return
            position = following.start()
            reason = f"the function has no {_CLOSE} before the next one"
            fragment = text[found.start() : position]
            yield Span(found.start(), position, (), (problem(fragment, reason, ctx),), "xml-param")
            continue
        end = position = close + len(_CLOSE)
        fragment = text[found.start() : end]
        name = clean_name(found.group("name"))
        arguments, reason = _arguments(text[found.end() : close], name, ctx)
        if not name or reason:
            why = reason or "the function name is missing"
            yield Span(found.start(), end, problems=(problem(fragment, why, ctx),), dialect="xml-param")
            continue
        yield Span(found.start(), end, (ToolCall(new_call_id(), name, arguments),), dialect="xml-param")


XML_PARAM = Dialect(
    name="xml-param",
    scan=_scan,
    markers=('<param name="',),
    needs=("<function",),
)
"""Read only: no contract is written in this form."""
