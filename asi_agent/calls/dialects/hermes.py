"""Hermes / Qwen 2.5 / Qwen 3: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`.

The body may be one object, several (JSON Lines) or an array, and the closing tag may be missing (the
model stopped at its end-of-turn token). A body that names the tool on its first line and gives the
arguments object below it (`<tool_call>NAME\n{…}</tool_call>`, as Laguna writes) is read the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from asi_agent.calls.dialects.asi import tagged_body
from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, named_span, value_span
from asi_agent.messages import ToolCall

__all__ = ["HERMES"]

_OPEN_RE = re.compile(r"<tool_call>")
# A name on the first line, then the arguments object: `get_weather\n{"location": "SF"}`.
_NAMED_RE = re.compile(r"\A\s*(?P<name>[A-Za-z_][\w.:-]*)[ \t]*\n\s*(?P<args>\{.*\})\s*\Z", re.S)


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    for match in _OPEN_RE.finditer(text):
        body, end = tagged_body(text, match.end(), "</tool_call>", "<tool_call>")
        if body.lstrip().startswith("<"):  # an XML body: Qwen3-Coder's reader takes it
            continue
        fragment = text[match.start() : end]
        named = _NAMED_RE.match(body)
        if named is not None:
            yield named_span(
                match.start(), end, fragment, named["name"], named["args"], dialect="hermes", ctx=ctx
            )
            continue
        span = value_span(match.start(), end, fragment, body, strict=True, dialect="hermes", ctx=ctx)
        if span is not None:
            yield span


def _render(calls: Sequence[ToolCall]) -> str:
    return "\n".join(
        "<tool_call>\n"
        + json.dumps({"name": call.name, "arguments": call.arguments}, ensure_ascii=False)
        + "\n</tool_call>"
        for call in calls
    )


HERMES = Dialect(
    name="hermes",
    scan=_scan,
    markers=("<tool_call>", "</tool_call>"),
    render=_render,
    rules=(
        "For each call, write a <tool_call></tool_call> block holding one JSON object with the tool's "
        '"name" and its "arguments" object:',
        '<tool_call>\n{"name": "tool_name", "arguments": {"param": "value"}}\n</tool_call>',
        "- Use double quotes; write a line break inside a string as \\n.",
        "- For several calls in one reply, write one block per call.",
    ),
    models=("hermes", "qwen2", "qwen-2", "qwen3", "qwq", "granite", "nous", "mimo", "hunyuan"),
    needs=("<tool_call>",),
)
