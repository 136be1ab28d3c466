"""Cohere: Command-R / R+ `Action: ```json [{"tool_name": ..., "parameters": {...}}] ```` and Command R7B
`<|START_ACTION|>[…]<|END_ACTION|>`; the `<|START_RESPONSE|>` markup around the answer is dropped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, problem, value_span
from asi_agent.messages import ToolCall

__all__ = ["COMMAND_R"]

_ACTION_RE = re.compile(
    r"^[ \t]*Action:[ \t]*\n?[ \t]*```[ \t]*(?:json)?[ \t]*\n(?P<body>.*?)\n?[ \t]*```", re.M | re.S
)
_R7B_RE = re.compile(r"<\|START_ACTION\|>(?P<body>.*?)(?:<\|END_ACTION\|>|$)", re.S)
_MARKUP_RE = re.compile(r"<\|(?:START|END)_RESPONSE\|>|<\|CHATBOT_TOKEN\|>|<\|END_OF_TURN_TOKEN\|>")


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    for pattern in (_ACTION_RE, _R7B_RE):
        for match in pattern.finditer(text):
            fragment = match.group()
            span = value_span(
                match.start(),
                match.end(),
                fragment,
                match.group("body").strip(),
                strict=True,
                dialect="command-r",
                ctx=ctx,
            )
            yield span or Span(
                match.start(), match.end(), problems=(problem(fragment, "no call inside", ctx),)
            )
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
