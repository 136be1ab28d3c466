"""`<function=NAME>{json}</function>` (Llama 3.1 custom tools, Functionary v3.1) and
`<function name="NAME">{json}</function>`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from asi_agent.calls.dialects.asi import object_end
from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, named_span, next_non_space
from asi_agent.messages import ToolCall

__all__ = ["FUNCTION_TAG"]

_OPEN_RE = re.compile(r"<function=(?P<name>[^>\n]*)>|<function name=[\"'](?P<attr>[^\"'\n]*)[\"']\s*>")
_CLOSE = "</function>"


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    for match in _OPEN_RE.finditer(text):
        body_start = next_non_space(text, match.end())
        if not text.startswith("{", body_start):
            continue  # parameters as elements: the Qwen3-Coder reader takes it
        end = object_end(text, body_start)
        body = text[body_start:end]
        close = next_non_space(text, end)
        if text.startswith(_CLOSE, close):
            end = close + len(_CLOSE)
        name = match.group("name") if match.group("name") is not None else match.group("attr")
        yield named_span(
            match.start(), end, text[match.start() : end], name or "", body, dialect="function-tag", ctx=ctx
        )


def _render(calls: Sequence[ToolCall]) -> str:
    return "\n".join(
        f"<function={call.name}>{json.dumps(call.arguments, ensure_ascii=False)}</function>" for call in calls
    )


FUNCTION_TAG = Dialect(
    name="function-tag",
    scan=_scan,
    markers=("<function=", "<function name=", "</function>"),
    render=_render,
    rules=(
        "Write each call as <function=tool_name>{json}</function>: one JSON object of arguments with double "
        "quotes between the tags.",
        "- For several calls in one reply, write one per line.",
    ),
    models=("functionary-small-v3.1", "functionary-medium-v3.1"),
    needs=("<function",),
)
