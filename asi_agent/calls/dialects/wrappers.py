"""JSON calls inside a wrapper: `<tool_calls>[…]</tool_calls>` (Apriel, Jamba, Hunyuan, MiniMax-Text),
`<function_call> {…}` (Granite 20B FC, one call after each tag),
`<|tool_call|>[…]<|/tool_call|>` (Granite 3, Phi-4-mini), `<TOOLCALL>[…]</TOOLCALL>` (Nemotron),
`functools[…]` (FireFunction), `<|action_start|><|plugin|>{…}<|action_end|>` (InternLM),
`<|tools_prefix|>[{"NAME": {…}}]<|tools_suffix|>` (Apertus) and `{"tool_calls": […]}` objects.

These formats always write a call's arguments object (`{}` when there are none): a call object inside a
wrapper with a name and no arguments is an unfinished call, reported. So is JSON after the first token
of a two-token opener whose second token never came (`<|action_start|>{…}` without `<|plugin|>`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from asi_agent.calls.dialects.base import (
    Dialect,
    ReadContext,
    Span,
    balanced_end,
    calls_span,
    cut_span,
    next_non_space,
    problem,
)
from asi_agent.calls.jsonish import json_values
from asi_agent.messages import ToolCall

__all__ = ["WRAPPERS"]

_PAIRS = (
    ("<tool_calls>", "</tool_calls>"),
    ("<function_call>", "</function_call>"),
    ("<|tool_call|>", "<|/tool_call|>"),
    ("<TOOLCALL>", "</TOOLCALL>"),
    ("functools", ""),
    ("<|action_start|><|plugin|>", "<|action_end|>"),
    ("<|tools_prefix|>", "<|tools_suffix|>"),
)
# A list of calls after `<tool_calls>` must be closed (mistral.rs's Hunyuan parser); a single call object
# after it (dynamo's Jamba fixture) and the lists of the other wrappers are taken without their closer
# (dynamo: Nemotron's `]` ends the list, `</TOOLCALL>` is decorative; Apertus's closer is often consumed).
_LIST_CLOSER = "</tool_calls>"
_OBJECT_RE = re.compile(r"\{\s*\"tool_calls\"\s*:\s*\[")
_ARGUMENT_KEYS = ("arguments", "parameters")
# The first token of an opener made of two control tokens, and the whole opener.
_HALF_OPENERS = tuple(
    (opener[: opener.index("|>") + 2], opener) for opener, _ in _PAIRS if opener.count("<|") > 1
)


def _name_as_key(value: Any) -> Any:
    """Apertus writes `{"NAME": {arguments}}`: turn it into a call object."""
    items = value if isinstance(value, list) else [value]
    if all(
        isinstance(item, dict) and len(item) == 1 and isinstance(next(iter(item.values())), dict)
        for item in items
    ) and not any("name" in item for item in items):
        return [{"name": key, "arguments": args} for item in items for key, args in item.items()]
    return value


def _body(text: str, start: int, closer: str) -> tuple[str, int]:
    """The JSON after an opener and where the fragment ends (after the closer when there is one; a closer
    quoted inside the JSON is data)."""
    body_start = next_non_space(text, start)
    end = balanced_end(text, body_start) if text.startswith(("[", "{"), body_start) else None
    if closer:
        close = text.find(closer, body_start if end is None else end)
        if close >= 0:
            return text[body_start:close], close + len(closer)
    if end is None:
        line = text.find("\n", body_start)
        end = len(text) if line < 0 or closer else line
    return text[body_start:end], end


def _without_arguments(value: Any) -> bool:
    """Whether a call object of the value names a tool but carries no arguments object."""
    items = value if isinstance(value, list) else [value]
    return any(
        isinstance(item, dict)
        and isinstance(item.get("name"), str)
        and not isinstance(item.get("function"), dict)
        and not any(key in item for key in _ARGUMENT_KEYS)
        for item in items
    )


def _read(start: int, end: int, text: str, body: str, ctx: ReadContext) -> Span:
    try:
        value: Any = _name_as_key(json_values(body))
    except ValueError:
        value = None
    if _without_arguments(value):
        reason = "a call names its tool but has no arguments object (write {} when there are none)"
        return Span(start, end, problems=(problem(text[start:end], reason, ctx),), dialect="wrappers")
    span = calls_span(start, end, text[start:end], value, strict=True, dialect="wrappers", ctx=ctx)
    return span or Span(start, end, problems=(problem(text[start:end], "no call inside", ctx),))


def _half_opened(text: str, ctx: ReadContext) -> Iterator[Span]:
    """JSON after the first token of a two-token opener whose second token never came."""
    for first, whole in _HALF_OPENERS:
        position = 0
        while (start := text.find(first, position)) >= 0:
            position = start + len(first)
            body_start = next_non_space(text, position)
            if text.startswith(whole, start) or not text.startswith(("{", "["), body_start):
                continue
            end = balanced_end(text, body_start) or len(text)
            reason = f"`{first}` must be followed by `{whole[len(first) :]}` before the call"
            yield Span(start, end, problems=(problem(text[start:end], reason, ctx),), dialect="wrappers")
            position = end


def _unclosed_list(text: str, start: int, end: int, ctx: ReadContext) -> Span:
    """A `<tool_calls>` list its closer never followed: Hunyuan's parser (mistral.rs) leaves it unparsed,
    so it is reported, and nothing of a reply that stopped there runs."""
    if not text[end:].strip():
        return cut_span(start, end, text[start:end], "wrappers", ctx)
    reason = f"the call list is not closed by {_LIST_CLOSER}"
    return Span(start, end, problems=(problem(text[start:end], reason, ctx),), dialect="wrappers")


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    yield from _half_opened(text, ctx)
    for opener, closer in _PAIRS:
        position = 0
        while (start := text.find(opener, position)) >= 0:
            after = start + len(opener)
            if opener == "functools" and not text.startswith("[", after):
                position = after
                continue
            body, end = _body(text, after, closer)
            position = max(end, after)
            if closer == _LIST_CLOSER and body.startswith("[") and not text.endswith(closer, start, end):
                yield _unclosed_list(text, start, end, ctx)
                continue
            yield _read(start, end, text, body, ctx)
    for match in _OBJECT_RE.finditer(text):
        end = balanced_end(text, match.start()) or len(text)
        try:
            value = json_values(text[match.start() : end])
        except ValueError:
            value = None
        calls = value.get("tool_calls") if isinstance(value, dict) else None
        fragment = text[match.start() : end]
        span = calls_span(match.start(), end, fragment, calls, strict=True, dialect="wrappers", ctx=ctx)
        if span is not None:
            yield span


def _render(calls: Sequence[ToolCall]) -> str:
    body = [{"name": call.name, "arguments": call.arguments} for call in calls]
    return "<tool_calls>" + json.dumps(body, ensure_ascii=False) + "</tool_calls>"


WRAPPERS = Dialect(
    name="tool-calls",
    scan=_scan,
    markers=(*(opener for opener, _ in _PAIRS if opener != "functools"), "functools[", '{"tool_calls"'),
    render=_render,
    rules=(
        "To call tools, write <tool_calls> followed by a JSON array of call objects, each with the tool's "
        '"name" and its "arguments" object, then </tool_calls>:',
        '<tool_calls>[{"name": "tool_name", "arguments": {"param": "value"}}]</tool_calls>',
    ),
    models=("apriel", "jamba", "nemotron", "phi-4-mini", "phi4-mini", "internlm", "apertus", "firefunction"),
    needs=(
        "<tool_calls>",
        "<function_call>",
        "<|tool_call|>",
        "<TOOLCALL>",
        "functools[",
        "<|action_start|>",
        "<|tools_prefix|>",
        "tool_calls",
    ),
)
