"""GLM-4.5 / 4.6 / 4.7: `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>`."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, cut_span, problem, typed_value
from asi_agent.calls.jsonish import new_call_id
from asi_agent.messages import ToolCall

__all__ = ["GLM"]

_OPEN_RE = re.compile(r"<tool_call>\s*(?P<name>[A-Za-z_][\w.\-]*)(?=\s*(?:<arg_key>|</tool_call>|$))")
_PAIR_RE = re.compile(
    r"<arg_key>(?P<key>.*?)</arg_key>\s*<arg_value>(?P<value>.*?)(?P<close></arg_value>|$)", re.S
)
_PAIRS_RE = re.compile(r"(?:\s*<arg_key>.*?</arg_key>\s*<arg_value>.*?</arg_value>)*\s*", re.S)


def _value(raw: str, tool: str, key: str, ctx: ReadContext) -> Any:
    """A value typed from the schema; a text value the model quoted as JSON (`"London"`) loses its
    quotes."""
    value = typed_value(raw, tool, key, ctx)
    kind = ctx.types.get(tool, {}).get(key, "")
    stripped = raw.strip()
    if isinstance(value, str) and kind in ("string", "str", "") and len(stripped) > 1 and stripped[0] == '"':
        try:
            decoded = json.loads(stripped)
        except ValueError:
            return value
        return decoded if isinstance(decoded, str) else value
    return value


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    for match in _OPEN_RE.finditer(text):
        name = match.group("name")
        # The call ends at the first </tool_call> after its complete pairs: one inside a value is data.
        pairs_end = _PAIRS_RE.match(text, match.end())
        after = pairs_end.end() if pairs_end is not None else match.end()
        close = text.find("</tool_call>", after)
        following = text.find("<tool_call>", match.end())
        if close < 0 and following < 0:
            yield cut_span(match.start(), len(text), text[match.start() :], "glm", ctx)
            continue
        if close >= 0 and (following < 0 or close < following or following < after):
            body, end = text[match.end() : close], close + len("</tool_call>")
        else:
            end = following
            body = text[match.end() : end]
        arguments: dict[str, Any] = {}
        pairs = list(_PAIR_RE.finditer(body))
        for pair in pairs:
            key = pair.group("key").strip()
            arguments[key] = _value(pair.group("value"), name, key, ctx)
        rest = _PAIR_RE.sub("", body).strip()
        if rest or any(not pair.group("close") for pair in pairs):
            reason = "an argument is not a complete <arg_key>/<arg_value> pair"
            yield Span(match.start(), end, problems=(problem(text[match.start() : end], reason, ctx),))
            continue
        yield Span(match.start(), end, (ToolCall(new_call_id(), name, arguments),), dialect="glm")


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
