"""XML calls with one element per parameter, values typed from the tool's schema.

Qwen3-Coder / Qwen3.5 / Seed-OSS / StepFun:
    <tool_call><function=NAME><parameter=P>value</parameter></function></tool_call>
    (`<seed:tool_call>` for Seed-OSS; the wrapper may be missing)
MiniMax-M2:
    <minimax:tool_call><invoke name="NAME"><parameter name="P">value</parameter></invoke></minimax:tool_call>
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, problem, typed_value
from asi_agent.calls.jsonish import new_call_id
from asi_agent.messages import ToolCall

__all__ = ["QWEN_XML", "xml_value"]

_FUNCTION_RE = re.compile(r"<function=(?P<name>[^>\n]*)>|<invoke name=\"(?P<invoke>[^\"\n]*)\">")
_WRAPPERS = (
    ("<tool_call>", "</tool_call>"),
    ("<seed:tool_call>", "</seed:tool_call>"),
    ("<minimax:tool_call>", "</minimax:tool_call>"),
)
_PARAM_RE = re.compile(r"<parameter=(?P<name>[^>\n]*)>|<parameter name=\"(?P<attr>[^\"\n]*)\">")
_STOP_RE = re.compile(r"<parameter[= ]|</function>|</invoke>|<function=|<invoke |</tool_call>")


def xml_value(raw: str) -> str:
    """A value between tags: one leading and one trailing line break belong to the markup."""
    if raw.startswith("\n"):
        raw = raw[1:]
    if raw.endswith("\n"):
        raw = raw[:-1]
    return raw


def _parameters(body: str, tool: str, ctx: ReadContext) -> tuple[dict[str, Any], bool]:
    """The parameters of one function body, and whether every one was closed."""
    arguments: dict[str, Any] = {}
    closed = True
    for match in _PARAM_RE.finditer(body):
        name = (match.group("name") or match.group("attr") or "").strip()
        close = body.find("</parameter>", match.end())
        following = _STOP_RE.search(body, match.end())
        if close < 0 or (following is not None and following.start() < close):
            closed = False
            close = following.start() if following is not None else len(body)
        arguments[name] = typed_value(xml_value(body[match.end() : close]), tool, name, ctx)
    return arguments, closed


def _extend(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a function element to the wrapper around it, when there is one."""
    for opener, closer in _WRAPPERS:
        before = text.rfind(opener, 0, start)
        if before >= 0 and not text[before + len(opener) : start].strip():
            after = text.find(closer, end)
            if after >= 0 and not text[end:after].strip():
                return before, after + len(closer)
            return before, end
    return start, end


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    for match in _FUNCTION_RE.finditer(text):
        name = (match.group("name") or match.group("invoke") or "").strip()
        closer = "</function>" if match.group("name") is not None else "</invoke>"
        close = text.find(closer, match.end())
        following = _FUNCTION_RE.search(text, match.end())
        if close >= 0 and (following is None or close < following.start()):
            body, end = text[match.end() : close], close + len(closer)
        else:
            end = following.start() if following is not None else len(text)
            body = text[match.end() : end]
        if body.lstrip().startswith("{"):  # `<function=NAME>{json}</function>` is the function-tag dialect
            continue
        start, end = _extend(text, match.start(), end)
        fragment = text[start:end]
        if not name:
            yield Span(start, end, problems=(problem(fragment, "the function name is missing", ctx),))
            continue
        arguments, closed = _parameters(body, name, ctx)
        if not closed and not arguments:
            yield Span(start, end, problems=(problem(fragment, "a parameter is not closed", ctx),))
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
)
