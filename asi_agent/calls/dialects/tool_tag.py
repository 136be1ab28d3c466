"""Calls in `<tool: …>` blocks (Code World Model), read only: no contract teaches them.

    <tool: function>
    NAME ARGUMENTS
    </tool>

The label after `tool:` says what kind of call it is; the tool's name is the first word inside. The
shorthand form leaves out the label and its `>`: `<tool: NAME ARGUMENTS </tool>`. Arguments that read as
a JSON object are the arguments; any other text is the tool's one text parameter (its only declared
parameter, else `command`, as the family's server passes it). A block the reply never closed is reported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, cut_span, problem
from asi_agent.calls.jsonish import clean_name, new_call_id
from asi_agent.messages import ToolCall

__all__ = ["TOOL_TAG"]

_OPEN_RE = re.compile(r"<tool:[ \t]*(?P<head>[^>\s]+)(?P<gt>[ \t]*>)?", re.I)
_CLOSE_RE = re.compile(r"</tool>", re.I)
_TEXT_PARAMETER = "command"


def _arguments(rest: str, name: str, ctx: ReadContext) -> dict[str, object] | None:
    """JSON arguments, or the text as the tool's one text parameter; None for JSON that is not an object."""
    stripped = rest.strip()
    if stripped.startswith(("{", "[")):
        try:
            value = json.loads(stripped)
        except ValueError:
            value = None
        if isinstance(value, dict):
            return {str(key): item for key, item in value.items()}
        if value is not None:
            return None
    declared = list(ctx.types.get(name, {}))
    return {declared[0] if len(declared) == 1 else _TEXT_PARAMETER: stripped}


def _read(opened: re.Match[str], body: str, end: int, ctx: ReadContext) -> Span:
    text, start = body.strip(), opened.start()
    if opened.group("gt") is not None:  # the label says what kind of call; the name is the first word inside
        name, _, rest = text.partition(" ") if " " in text.split("\n", 1)[0] else text.partition("\n")
    else:  # the shorthand: the head is the name
        name, rest = opened.group("head"), text
    name = clean_name(name)
    if not name:
        reason = "the tool name is missing"
        return Span(start, end, problems=(problem(body, reason, ctx),), dialect="tool-tag")
    arguments = _arguments(rest, name, ctx)
    if arguments is None:
        reason = "its arguments must be a JSON object or plain text"
        return Span(start, end, problems=(problem(body, reason, ctx),), dialect="tool-tag")
    return Span(start, end, (ToolCall(new_call_id(), name, arguments),), dialect="tool-tag")


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    position = 0
    while (opened := _OPEN_RE.search(text, position)) is not None:
        closed = _CLOSE_RE.search(text, opened.end())
        if closed is None:
            yield cut_span(opened.start(), len(text), text[opened.start() :], "tool-tag", ctx)
            return
        yield _read(opened, text[opened.end() : closed.start()], closed.end(), ctx)
        position = closed.end()


TOOL_TAG = Dialect(name="tool-tag", scan=_scan, markers=("<tool:",), needs=("<tool:", "<TOOL:"))
"""Code World Model's `<tool: …>` blocks."""
