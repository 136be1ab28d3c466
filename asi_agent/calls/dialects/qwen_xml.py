"""XML calls with one element per parameter, values typed from the tool's schema.

Qwen3-Coder / Qwen3.5 / Seed-OSS / StepFun:
    <tool_call><function=NAME><parameter=P>value</parameter></function></tool_call>
    (`<seed:tool_call>` for Seed-OSS; the wrapper may be missing)
MiniMax-M2:
    <minimax:tool_call><invoke name="NAME"><parameter name="P">value</parameter></invoke></minimax:tool_call>
The invoke form with any XML namespace on its elements (Step3's `<steptml:invoke>`, Glimmer's
`<atem:function_calls><atem:invoke>`): the prefix changes nothing of how the call is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, cut_span, problem, typed_value
from asi_agent.calls.jsonish import clean_name, new_call_id
from asi_agent.messages import ToolCall

__all__ = ["QWEN_XML", "xml_value"]

# An XML namespace on the invoke elements (`<steptml:invoke>`, `<atem:parameter>`).
_NS = r"(?:[A-Za-z][\w-]*:)?"
_FUNCTION_RE = re.compile(
    rf"<function=(?P<name>[^>\n]*)>|<(?P<ns>{_NS})invoke name=\"(?P<invoke>[^\"\n]*)\">"
)
# The wrapper right around a function element: `<tool_call>`, `<seed:tool_call>`, `<minimax:tool_call>`,
# `<atem:function_calls>`.
_WRAPPER = r"(?:[A-Za-z][\w-]*:)?tool_call|[A-Za-z][\w-]*:function_calls"
_OPEN_WRAPPER_RE = re.compile(rf"<(?:{_WRAPPER})>\s*\Z")
_CLOSE_WRAPPER_RE = re.compile(rf"\s*</(?:{_WRAPPER})>")
_WRAPPER_WINDOW = 200
# Namespaced wrappers around the calls: `<seed:tool_call>`, `<minimax:tool_call>`, `<atem:function_calls>`.
_WRAPPER_TOKEN_RE = re.compile(r"</?[A-Za-z][\w-]*:(?:tool_calls?|function_calls)>")
_PARAM_RE = re.compile(rf"<parameter=(?P<name>[^>\n]*)>|<{_NS}parameter name=\"(?P<attr>[^\"\n]*)\">")
_PARAM_CLOSE_RE = re.compile(rf"</{_NS}parameter>")
_STOP_RE = re.compile(
    rf"<{_NS}parameter[= ]|</function>|</{_NS}invoke>|<function=|<{_NS}invoke |</{_NS}tool_call>"
)
_CLOSERS_RE = re.compile(rf"</(?:{_NS}tool_call|function|{_NS}invoke)>")


def xml_value(raw: str) -> str:
    """A value between tags: one line break after the opening tag and one before the closing tag belong
    to the markup (as llama.cpp reads Qwen3-Coder and Seed-OSS)."""
    if raw.startswith("\n"):
        raw = raw[1:]
    if raw.endswith("\n"):
        raw = raw[:-1]
    return raw


def _parameters(body: str, tool: str, ctx: ReadContext) -> tuple[dict[str, Any], bool]:
    """The parameters of one function body; False when one was cut off in the middle of a JSON value.

    A parameter without its closing tag (the reply ended) keeps the text read so far.
    """
    arguments: dict[str, Any] = {}
    for match in _PARAM_RE.finditer(body):
        name = (match.group("name") or match.group("attr") or "").strip()
        closer = _PARAM_CLOSE_RE.search(body, match.end())
        close = closer.start() if closer is not None else -1
        following = _STOP_RE.search(body, match.end())
        closed = close >= 0 and (following is None or close < following.start())
        if not closed:
            close = following.start() if following is not None else len(body)
        raw = body[match.end() : close]
        # `<parameter=P>` puts its value on lines of its own; the `name="P"` form writes it inline, where
        # every space is the value's (Step3's whitespace-exact edits).
        value = typed_value(xml_value(raw) if match.group("name") is not None else raw, tool, name, ctx)
        if not closed and _cut_structure(value, tool, name, ctx):
            return arguments, False
        arguments[name] = value
    return arguments, True


def _cut_structure(value: Any, tool: str, name: str, ctx: ReadContext) -> bool:
    """A JSON value cut off by the end of the reply: it stayed text where the schema (or its first
    character) promised an object or array."""
    kind = ctx.types.get(tool, {}).get(name, "")
    return isinstance(value, str) and (kind in ("object", "array") or value.lstrip()[:1] in ("{", "["))


def _extend(text: str, start: int, end: int) -> tuple[int, int, bool]:
    """Widen a function element to the wrapper right around it, when there is one; True when that
    wrapper was opened and the reply ended before it closed (the model had not finished the call)."""
    opened = _OPEN_WRAPPER_RE.search(text, max(0, start - _WRAPPER_WINDOW), start)
    if opened is None:
        return start, end, False
    closed = _CLOSE_WRAPPER_RE.match(text, end)
    if closed is None:
        return opened.start(), end, not text[end:].strip()
    return opened.start(), closed.end(), False


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    for wrapper in _WRAPPER_TOKEN_RE.finditer(text):  # around several functions: markup, not prose
        yield Span(wrapper.start(), wrapper.end(), dialect="qwen-xml")
    for match in _FUNCTION_RE.finditer(text):
        name = clean_name(match.group("name") or match.group("invoke") or "")
        closer = "</function>" if match.group("name") is not None else f"</{match.group('ns')}invoke>"
        close = text.find(closer, match.end())
        following = _FUNCTION_RE.search(text, match.end())
        closed = close >= 0 and (following is None or close < following.start())
        if closed:
            body, end = text[match.end() : close], close + len(closer)
        else:
            end = following.start() if following is not None else len(text)
            body = text[match.end() : end]
        if body.lstrip().startswith("{"):  # `<function=NAME>{json}</function>` is the function-tag dialect
            continue
        start, end, unwrapped = _extend(text, match.start(), end)
        fragment = text[start:end]
        unfinished = not closed and following is None and _CLOSERS_RE.search(text, match.end()) is None
        if unfinished or (unwrapped and following is None):
            yield cut_span(start, len(text), text[start:], "qwen-xml", ctx)  # the reply stopped in the call
            continue
        if not name:
            yield Span(start, end, problems=(problem(fragment, "the function name is missing", ctx),))
            continue
        arguments, closed = _parameters(body, name, ctx)
        if not closed:
            reason = "a parameter was cut off before its value was complete"
            yield Span(start, end, problems=(problem(fragment, reason, ctx),))
            continue
        yield Span(start, end, (ToolCall(new_call_id(), name, arguments),), dialect="qwen-xml")


def _value_text(value: Any) -> str:
    import json  # noqa: PLC0415 - only rendering needs it

    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _render(calls: Sequence[ToolCall]) -> str:
    blocks = []
    for call in calls:
        params = "".join(
            f"<parameter={key}>\n{_value_text(value)}\n</parameter>\n"
            for key, value in call.arguments.items()
        )
        blocks.append(f"<tool_call>\n<function={call.name}>\n{params}</function>\n</tool_call>")
    return "\n".join(blocks)


QWEN_XML = Dialect(
    name="qwen-xml",
    scan=_scan,
    markers=("<function=", "<parameter=", "<invoke name=", "<minimax:tool_call>", "<seed:tool_call>"),
    render=_render,
    rules=(
        "For each call, write a <tool_call> block naming the function and giving each argument in its own "
        "<parameter=NAME> element (text as is, no quotes; numbers, booleans, arrays and objects as JSON):",
        "<tool_call>\n<function=tool_name>\n<parameter=param>\nvalue\n</parameter>\n</function>\n</tool_call>",
        "- For several calls in one reply, write one block per call.",
    ),
    models=("qwen3-coder", "qwen3.5", "qwen3.6", "qwen3-next", "seed-oss", "minimax", "step-3", "stepfun"),
    needs=("<function=", "invoke name=", ":tool_call>", ":tool_calls>", ":function_calls>"),
)
