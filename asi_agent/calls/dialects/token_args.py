"""Calls framed by control tokens, one token pair per argument (Solar Open 2):

    <|tool_call:start|>NAME
    <|tool_arg:start|>KEY<|tool_arg:value|>VALUE<|tool_arg:end|>
    <|tool_call:end|>

Values are text, typed from the tool's schema. An argument whose end token was dropped ends at the next
argument or at the call's end; a repeated argument keeps its first value. A call without its end token
that the reply stops inside is reported, never run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, cut_span, problem, typed_value
from asi_agent.calls.jsonish import clean_name, new_call_id
from asi_agent.messages import ToolCall

__all__ = ["TOKEN_ARGS"]

_OPEN, _CLOSE = "<|tool_call:start|>", "<|tool_call:end|>"
_ARG_OPEN, _ARG_VALUE, _ARG_CLOSE = "<|tool_arg:start|>", "<|tool_arg:value|>", "<|tool_arg:end|>"
_NAME_RE = re.compile(r"\s*(?P<name>[^\s<]*)")
_ARG_RE = re.compile(re.escape(_ARG_OPEN) + r"(?P<key>.*?)" + re.escape(_ARG_VALUE), re.S)


def _arguments(body: str, tool: str, ctx: ReadContext) -> tuple[dict[str, Any], str]:
    """The arguments of one call body, and the text left over (empty when every piece was an argument)."""
    arguments: dict[str, Any] = {}
    leftover: list[str] = []
    position = 0
    while (found := _ARG_RE.search(body, position)) is not None:
        leftover.append(body[position : found.start()])
        close = body.find(_ARG_CLOSE, found.end())
        following = body.find(_ARG_OPEN, found.end())
        if close < 0 or 0 <= following < close:  # the end token was dropped: the next argument ends it
            close = following if following >= 0 else len(body)
            position = close
        else:
            position = close + len(_ARG_CLOSE)
        key = found.group("key").strip()
        arguments.setdefault(key, typed_value(body[found.end() : close], tool, key, ctx))
    leftover.append(body[position:])
    return arguments, "".join(leftover).strip()


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    position = 0
    while (start := text.find(_OPEN, position)) >= 0:
        after = start + len(_OPEN)
        close = text.find(_CLOSE, after)
        following = text.find(_OPEN, after)
        if close < 0 and following < 0:
            yield cut_span(start, len(text), text[start:], "token-args", ctx)
            return
        if close >= 0 and (following < 0 or close < following):
            body_end, end = close, close + len(_CLOSE)
        else:
            body_end = end = following
        position = end
        named = _NAME_RE.match(text, after, body_end)
        name = clean_name(named.group("name")) if named is not None else ""
        fragment = text[start:end]
        if not name:
            yield Span(start, end, problems=(problem(fragment, "the tool name is missing", ctx),))
            continue
        arguments, rest = _arguments(text[named.end() if named else after : body_end], name, ctx)
        if rest:
            reason = f"`{rest[:40]}` is not an argument written between {_ARG_OPEN} and {_ARG_CLOSE}"
            yield Span(start, end, problems=(problem(fragment, reason, ctx),), dialect="token-args")
            continue
        yield Span(start, end, (ToolCall(new_call_id(), name, arguments),), dialect="token-args")


TOKEN_ARGS = Dialect(
    name="token-args",
    scan=_scan,
    markers=(_OPEN, _ARG_OPEN),
    needs=(_OPEN,),
)
"""Read only: no contract is written in this form."""
