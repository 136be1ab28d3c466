"""GLM-4.5 / 4.6 / 4.7: `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>`."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, problem, typed_value
from asi_agent.calls.jsonish import new_call_id
from asi_agent.messages import ToolCall

__all__ = ["GLM"]

_OPEN_RE = re.compile(r"<tool_call>[ \t]*(?P<name>[A-Za-z_][\w.\-]*)(?=\s*(?:<arg_key>|</tool_call>))")
_PAIR_RE = re.compile(
    r"<arg_key>(?P<key>.*?)</arg_key>\s*<arg_value>(?P<value>.*?)(?P<close></arg_value>|$)", re.S
)


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    for match in _OPEN_RE.finditer(text):
        name = match.group("name")
        close = text.find("</tool_call>", match.end())
        following = text.find("<tool_call>", match.end())
        if close >= 0 and (following < 0 or close < following):
            body, end = text[match.end() : close], close + len("</tool_call>")
        else:
            end = following if following >= 0 else len(text)
            body = text[match.end() : end]
        arguments: dict[str, Any] = {}
        pairs = list(_PAIR_RE.finditer(body))
        for pair in pairs:
            key = pair.group("key").strip()
            arguments[key] = typed_value(pair.group("value"), name, key, ctx)
        rest = _PAIR_RE.sub("", body).strip()
        if rest or any(not pair.group("close") for pair in pairs):
            reason = "an argument is not a complete <arg_key>/<arg_value> pair"
            yield Span(match.start(), end, problems=(problem(text[match.start() : end], reason, ctx),))
            continue
        yield Span(match.start(), end, (ToolCall(new_call_id(), name, arguments),), dialect="glm")


def _value_text(value: Any) -> str:
    import json  # noqa: PLC0415 - only rendering needs it

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
