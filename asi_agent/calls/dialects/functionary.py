"""Functionary v3.2: each part of the reply opens with `>>>RECIPIENT\\n` — `all` for text to the person,
a tool name for that tool's JSON arguments (`python` takes code). The first `>>>` comes from the prompt,
so a reply may start with the bare recipient.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from asi_agent.calls.dialects.asi import object_end
from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, named_span, next_non_space
from asi_agent.calls.jsonish import json_values, looks_like_call, new_call_id
from asi_agent.messages import ToolCall

__all__ = ["FUNCTIONARY"]

_HEAD_RE = re.compile(
    r">>>[ \t]*(?P<name>[A-Za-z_][\w.\-]*)[ \t]*\n"
    r"|\A[ \t]*(?P<first>[A-Za-z_][\w.\-]*)\n(?=\s*\{)"
    r"|\A(?P<name_py>python)\n"
)
_FIRST_ALL_RE = re.compile(r"\A[ \t]*(?:>>>)?all\n")


def _is_call_object(body: str) -> bool:
    try:
        return looks_like_call(json_values(body))
    except ValueError:
        return False


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    first_all = _FIRST_ALL_RE.match(text)
    if first_all is not None:
        yield Span(0, first_all.end(), dialect="functionary")
    # Without `>>>` only a head at the reply's start (`\A`) can match: one try, not one per position.
    heads = _HEAD_RE.finditer(text) if ">>>" in text else filter(None, (_HEAD_RE.match(text),))
    for head in heads:
        name = head.group("name") or head.group("first") or head.group("name_py") or ""
        if name == "all":
            yield Span(head.start(), head.end(), dialect="functionary")
            continue
        body_start = next_non_space(text, head.end())
        if text.startswith("{", body_start):
            end = object_end(text, body_start)
            if head.group("first") and _is_call_object(text[body_start:end]):
                continue  # "Sure\n{"name": …}" is a JSON call after a word, not a recipient
            yield named_span(
                head.start(),
                end,
                text[head.start() : end],
                name,
                text[body_start:end],
                dialect="functionary",
                ctx=ctx,
            )
        elif name == "python":
            following = text.find(">>>", head.end())
            end = len(text) if following < 0 else following
            code = text[head.end() : end].rstrip("\n")
            yield Span(
                head.start(), end, (ToolCall(new_call_id(), "python", {"code": code}),), dialect="functionary"
            )


def _render(calls: Sequence[ToolCall]) -> str:
    return "\n".join(f">>>{call.name}\n{json.dumps(call.arguments, ensure_ascii=False)}" for call in calls)


FUNCTIONARY = Dialect(
    name="functionary",
    scan=_scan,
    render=_render,
    rules=(
        "Start each part of your reply with >>> and its recipient on its own line: >>>all for text to the "
        "user, >>>tool_name followed by the JSON arguments for a call:",
        '>>>tool_name\n{"param": "value"}',
    ),
    models=("functionary",),
    needs=("\n",),
)
