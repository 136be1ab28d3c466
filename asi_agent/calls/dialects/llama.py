"""Llama 3.x JSON calls: `<|python_tag|>{"name": ..., "parameters": {...}}` (several joined by `;`),
the same without the tag, and built-in tools written as `<|python_tag|>brave_search.call(query="...")`.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator, Sequence

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, problem, value_span
from asi_agent.calls.jsonish import new_call_id
from asi_agent.messages import ToolCall

__all__ = ["LLAMA"]

_TAG = "<|python_tag|>"
_END_RE = re.compile(r"<\|eom_id\|>|<\|eot_id\|>|<\|python_tag\|>|\n\n")
_BUILTIN_RE = re.compile(r"\s*(?P<name>[A-Za-z_]\w*)\.call\((?P<args>.*)\)\s*$", re.S)


def _builtin(body: str) -> ToolCall | None:
    """`brave_search.call(query="...")`: a built-in tool with keyword arguments."""
    match = _BUILTIN_RE.match(body)
    if match is None:
        return None
    try:
        node = ast.parse(f"f({match.group('args')})", mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(node, ast.Call) or node.args:
        return None
    try:
        arguments = {str(kw.arg): ast.literal_eval(kw.value) for kw in node.keywords}
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return None
    return ToolCall(new_call_id(), match.group("name"), arguments)


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    position = 0
    while (start := text.find(_TAG, position)) >= 0:
        stop = _END_RE.search(text, start + len(_TAG))
        end = stop.start() if stop is not None else len(text)
        if stop is not None and stop.group() in ("<|eom_id|>", "<|eot_id|>"):
            end_with_token = stop.end()
        else:
            end_with_token = end
        body = text[start + len(_TAG) : end]
        position = max(end, start + len(_TAG))
        builtin = _builtin(body)
        if builtin is not None:
            yield Span(start, end_with_token, (builtin,), dialect="llama")
            continue
        fragment = text[start:end_with_token]
        span = value_span(start, end_with_token, fragment, body, strict=True, dialect="llama", ctx=ctx)
        yield span or Span(
            start, end_with_token, problems=(problem(fragment, "no call follows the tag", ctx),)
        )


def _render(calls: Sequence[ToolCall]) -> str:
    return "<|python_tag|>" + "; ".join(
        json.dumps({"name": call.name, "parameters": call.arguments}, ensure_ascii=False) for call in calls
    )


LLAMA = Dialect(
    name="llama",
    scan=_scan,
    markers=(_TAG, "<|eom_id|>"),
    render=_render,
    rules=(
        'To call tools, reply with <|python_tag|> and one JSON object per call, {"name": tool_name, '
        '"parameters": {...}}, separated by "; ":',
        '<|python_tag|>{"name": "tool_name", "parameters": {"param": "value"}}',
        "- Use double quotes; write a line break inside a string as \\n.",
    ),
    models=("llama-3", "llama3", "llama-v3", "llama_3", "meta-llama-3"),
    needs=("<|python_tag|>",),
)
