"""Mistral: `[TOOL_CALLS][{"name": ..., "arguments": {...}}]` (v0.3, Nemo) and, from tokenizer v11 on,
`[TOOL_CALLS]NAME[ARGS]{...}` (optionally `[CALL_ID]id` before `[ARGS]`; detokenized without `[ARGS]`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from asi_agent.calls.dialects.asi import object_end
from asi_agent.calls.dialects.base import (
    Dialect,
    ReadContext,
    Span,
    balanced_end,
    line_end,
    named_span,
    next_non_space,
    problem,
    value_span,
)
from asi_agent.messages import ToolCall

__all__ = ["MISTRAL"]

_MARK_RE = re.compile(r"\[TOOL_CALLS\]")
_NAMED_RE = re.compile(
    r"[ \t]*(?P<name>[A-Za-z_][\w.\-]*)[ \t]*"
    r"(?:\[CALL_ID\][ \t]*(?P<id>[^\[\s]*)[ \t]*)?(?:\[ARGS\])?[ \t]*(?=\{)"
)


def _array(text: str, start: int, ctx: ReadContext) -> Span | None:
    """`[TOOL_CALLS] [ {...}, ... ]`, possibly with junk before the array on the same line."""
    body_start = next_non_space(text, start)
    if not text.startswith("[", body_start):
        junk = text.find("[", body_start, line_end(text, body_start))
        if junk < 0:
            return None
        body_start = junk
    end = balanced_end(text, body_start)
    if end is None:
        end = len(text)
    return value_span(
        start, end, text[start:end], text[body_start:end], strict=True, dialect="mistral", ctx=ctx
    )


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    for match in _MARK_RE.finditer(text):
        start = match.start()
        named = _NAMED_RE.match(text, match.end())
        if named is not None:
            end = object_end(text, named.end())
            fragment = text[start:end]
            span = named_span(
                start, end, fragment, named.group("name"), text[named.end() : end], dialect="mistral", ctx=ctx
            )
            if named.group("id") and span.calls:
                call = span.calls[0]
                span = Span(
                    start, end, (ToolCall(named.group("id"), call.name, call.arguments),), dialect="mistral"
                )
            yield span
            continue
        array = _array(text, match.end(), ctx)
        if array is not None:
            yield Span(start, array.end, array.calls, array.problems, "mistral")
            continue
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield Span(start, end, problems=(problem(text[start:end], "no call follows [TOOL_CALLS]", ctx),))


def _render(calls: Sequence[ToolCall]) -> str:
    return "".join(
        f"[TOOL_CALLS]{call.name}[ARGS]{json.dumps(call.arguments, ensure_ascii=False)}" for call in calls
    )


MISTRAL = Dialect(
    name="mistral",
    scan=_scan,
    markers=("[TOOL_CALLS]", "[CALL_ID]"),
    render=_render,
    rules=(
        "Write each call as [TOOL_CALLS]tool_name[ARGS]{json}: the tool name, then one JSON object of "
        "arguments with double quotes.",
        "- For several calls in one reply, repeat [TOOL_CALLS] before each call.",
    ),
    models=("mistral", "mixtral", "devstral", "ministral", "magistral", "codestral", "pixtral"),
    needs=("[TOOL_CALLS]",),
)
