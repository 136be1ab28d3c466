"""GLM-4.5 / 4.6 / 4.7: `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>` (read by
the key/value pair reader shared with Hunyuan and K2, `arg_pairs`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from asi_agent.calls.dialects.arg_pairs import PairTokens, pair_spans
from asi_agent.calls.dialects.base import Dialect, ReadContext, Span
from asi_agent.messages import ToolCall

__all__ = ["GLM"]

_TOKENS = PairTokens(
    call=("<tool_call>", "</tool_call>"),
    key=("<arg_key>", "</arg_key>"),
    value=("<arg_value>", "</arg_value>"),
    dialect="glm",
)


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    return pair_spans(text, ctx, _TOKENS)


def _value_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _render(calls: Sequence[ToolCall]) -> str:
    return "\n".join(
        f"<tool_call>{call.name}\n"
        + "".join(
            f"<arg_key>{key}</arg_key>\n<arg_value>{_value_text(value)}</arg_value>\n"
            for key, value in call.arguments.items()
        )
        + "</tool_call>"
        for call in calls
    )


GLM = Dialect(
    name="glm",
    scan=_scan,
    markers=("<arg_key>", "<arg_value>"),
    render=_render,
    rules=(
        "For each call, write a <tool_call> block: the tool name on the first line, then each argument as "
        "an <arg_key>/<arg_value> pair (text as is; numbers, booleans, arrays and objects as JSON):",
        "<tool_call>tool_name\n<arg_key>param</arg_key>\n<arg_value>value</arg_value>\n</tool_call>",
        "- For several calls in one reply, write one block per call.",
    ),
    models=("glm-4", "glm4", "glm-z1", "chatglm"),
    needs=("<tool_call>",),
)
