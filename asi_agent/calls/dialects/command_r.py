"""Cohere: Command-R / R+ `Action: ```json [{"tool_name": ..., "parameters": {...}}] ```` and Command R7B
`<|START_ACTION|>[…]<|END_ACTION|>`; the `<|START_RESPONSE|>` markup around the answer is dropped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, problem, value_span
from asi_agent.calls.jsonish import JSON_DECODER
from asi_agent.messages import ToolCall

__all__ = ["COMMAND_R"]

_OPENER = r"^[ \t]*Action:[ \t]*\n?[ \t]*```[ \t]*(?:json)?[ \t]*\n"
_ACTION_RE = re.compile(_OPENER + r"(?P<body>.*?)\n?[ \t]*```", re.M | re.S)
_OPENER_RE = re.compile(_OPENER + r"\s*", re.M)
_FENCE_RE = re.compile(r"\s*```")
_R7B_RE = re.compile(r"<\|START_ACTION\|>(?P<body>.*?)(?:<\|END_ACTION\|>|$)", re.S)
_MARKUP_RE = re.compile(r"<\|(?:START|END)_RESPONSE\|>|<\|CHATBOT_TOKEN\|>|<\|END_OF_TURN_TOKEN\|>")


def _actions(text: str) -> Iterator[tuple[int, int, str]]:
    """Each `Action: ```json … ```` block as (start, end, body). The block ends at the first fence after
    its JSON value when the value reads, so a fence inside a string argument (Markdown in a file's
    content) does not cut it; a body that does not read ends at the first fence, as written."""
    pos = 0
    while (opener := _OPENER_RE.search(text, pos)) is not None:
        body_start = opener.end()
        try:
            _value, value_end = JSON_DECODER.raw_decode(text, body_start)
        except ValueError:
            value_end = -1
        fence = _FENCE_RE.match(text, value_end) if value_end >= 0 else None
        if fence is not None:
            yield opener.start(), fence.end(), text[body_start:value_end]
            pos = fence.end()
            continue
        match = _ACTION_RE.match(text, opener.start())
        if match is None:
            return
        yield match.start(), match.end(), match.group("body")
        pos = match.end()


def _span(start: int, end: int, text: str, body: str, ctx: ReadContext) -> Span:
    fragment = text[start:end]
    span = value_span(start, end, fragment, body.strip(), strict=True, dialect="command-r", ctx=ctx)
    return span or Span(start, end, problems=(problem(fragment, "no call inside", ctx),))


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    for start, end, body in _actions(text):
        yield _span(start, end, text, body, ctx)
    for match in _R7B_RE.finditer(text):
        yield _span(match.start(), match.end(), text, match.group("body"), ctx)
    for match in _MARKUP_RE.finditer(text):
        yield Span(match.start(), match.end(), dialect="command-r")


def _render(calls: Sequence[ToolCall]) -> str:
    body = [{"tool_name": call.name, "parameters": call.arguments} for call in calls]
    return "Action: ```json\n" + json.dumps(body, ensure_ascii=False, indent=4) + "\n```"


COMMAND_R = Dialect(
    name="command-r",
    scan=_scan,
    markers=("<|START_ACTION|>", "<|END_ACTION|>"),
    render=_render,
    rules=(
        "To call tools, write a line `Action: ```json` followed by a JSON list of actions, each with the "
        '"tool_name" and its "parameters" object, and close the block with ```:',
        'Action: ```json\n[{"tool_name": "tool_name", "parameters": {"param": "value"}}]\n```',
    ),
    models=("command-r", "command-a", "c4ai", "aya", "cohere"),
    needs=("Action:", "<|START_", "<|END_", "<|CHATBOT_TOKEN|>"),
)
