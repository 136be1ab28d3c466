"""The ASI forms of spec §4.4: `[TOOL_CALL]name[ARGS]{json}`, `[TOOL:name]{json}[/TOOL]` and fenced JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

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

__all__ = ["ASI", "TOOL_CALL_RE", "object_end", "render_call_line", "scan_fences", "tagged_body"]

# `[TOOL_CALL]name[ARGS]`, up to where the arguments start.
TOOL_CALL_RE = re.compile(r"\[TOOL_CALL\][ \t]*(?P<name>[^\[\]\n]*?)[ \t]*\[ARGS\][ \t]*")
_TOOL_CALL_CLOSE_RE = re.compile(r"[ \t]*\[/TOOL_CALL\]")
_TOOL_TAG_RE = re.compile(r"\[TOOL:[ \t]*(?P<name>[^\]\n]*?)[ \t]*\]")
# Fences open a line, so a ``` inside a JSON string (a markdown file's text) is not one.
_FENCE_LINE_RE = re.compile(r"^[ \t]*```[ \t]*(?P<info>[^`\n]*)$", re.M)
_ACTION_FENCES = frozenset({"json action", "action", "tool_call", "tool_calls", "json tool_call"})
_JSON_FENCES = frozenset({"json", "json5", "jsonc", ""})
# Where an unclosed object stops: the next call marker of any dialect.
_MARKUP_RE = re.compile(
    r"\[TOOL_CALLS?\]|</?tool_call>|\[TOOL:|```|<function[= ]|<\|python_tag\|>|<\|tool_call|<｜tool"
)


def object_end(text: str, start: int) -> int:
    """Where the object opening at `start` ends: its closing brace, else the line's end or next call."""
    end_of_line = line_end(text, start)
    end = balanced_end(text, start)
    # An unclosed object must not swallow the calls that follow it.
    if end is not None and (end <= end_of_line or not _MARKUP_RE.search(text, start, end)):
        return end
    marker = _MARKUP_RE.search(text, start + 1, end_of_line)
    return marker.start() if marker else end_of_line


def tagged_body(text: str, start: int, close_tag: str, open_tag: str) -> tuple[str, int]:
    """The body after an opening tag and where the fragment ends: the closing tag, the object, the line."""
    body_start = next_non_space(text, start)
    json_end = balanced_end(text, body_start) if text.startswith(("{", "["), body_start) else None
    # A closing tag inside the JSON's strings is data: look for it after the JSON.
    close = text.find(close_tag, json_end if json_end is not None else body_start)
    if close >= 0 and open_tag not in text[body_start:close]:
        return text[body_start:close], close + len(close_tag)
    is_json = text.startswith(("{", "["), body_start)
    end = object_end(text, body_start) if is_json else line_end(text, start)
    return text[body_start:end], end


def _scan_tool_call_lines(text: str, ctx: ReadContext) -> Iterator[Span]:
    for marker in re.finditer(r"\[TOOL_CALL\]", text):
        start = marker.start()
        match = TOOL_CALL_RE.match(text, start)
        if match is None:
            end = line_end(text, start)
            reason = "[ARGS] is missing after the name"
            yield Span(start, end, problems=(problem(text[start:end], reason, ctx),), dialect="asi")
            continue
        body_start = match.end()
        has_object = text.startswith("{", body_start)
        end = object_end(text, body_start) if has_object else line_end(text, body_start)
        body = text[body_start:end]
        close = _TOOL_CALL_CLOSE_RE.match(text, end)
        if close is not None:
            end = close.end()
        elif not has_object:
            body = body.replace("[/TOOL_CALL]", "")
        yield named_span(start, end, text[start:end], match.group("name"), body, dialect="asi", ctx=ctx)


def _scan_tool_tags(text: str, ctx: ReadContext) -> Iterator[Span]:
    for match in _TOOL_TAG_RE.finditer(text):
        body, end = tagged_body(text, match.end(), "[/TOOL]", "[TOOL:")
        fragment = text[match.start() : end]
        yield named_span(match.start(), end, fragment, match.group("name"), body, dialect="asi", ctx=ctx)


def _fence_pairs(text: str) -> Iterator[tuple[re.Match[str], re.Match[str]]]:
    """Opening and closing fence lines, paired in order as markdown does (a closing fence has no info)."""
    opener = None
    for line in _FENCE_LINE_RE.finditer(text):
        if opener is None:
            opener = line
        elif not line.group("info").strip():
            yield opener, line
            opener = None


def scan_fences(text: str, ctx: ReadContext) -> Iterator[Span]:
    """Fenced JSON holding a call or an array of calls; ```json action fences must hold one."""
    for opener, closer in _fence_pairs(text):
        info = " ".join(opener.group("info").lower().split())
        strict = info in _ACTION_FENCES
        body = text[opener.end() : closer.start()].strip()
        if not strict and (info not in _JSON_FENCES or not body.startswith(("{", "["))):
            continue
        fragment = text[opener.start() : closer.end()]
        span = value_span(opener.start(), closer.end(), fragment, body, strict=strict, dialect="asi", ctx=ctx)
        if span is not None:
            yield span


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    # Each form only where its literal is: a pattern tried at every position of a reply costs more than
    # the substring search that rules it out.
    if "```" in text:
        yield from scan_fences(text, ctx)
    if "[TOOL_CALL]" in text:
        yield from _scan_tool_call_lines(text, ctx)
    if "[TOOL:" in text:
        yield from _scan_tool_tags(text, ctx)


def render_call_line(call: ToolCall) -> str:
    """The one-line text form of a call, `[TOOL_CALL]name[ARGS]{json}`."""
    return f"[TOOL_CALL]{call.name}[ARGS]{json.dumps(call.arguments, ensure_ascii=False)}"


def _render(calls: Sequence[ToolCall]) -> str:
    return "\n".join(render_call_line(call) for call in calls)


ASI = Dialect(
    name="asi",
    scan=_scan,
    markers=("[TOOL_CALL]", "[/TOOL_CALL]", "[TOOL:", "[/TOOL]", "[ARGS]"),
    render=_render,
    rules=(
        "Write each call on its own line, exactly as [TOOL_CALL]tool_name[ARGS]{json}, with nothing else "
        "on that line.",
        "- tool_name is one of the names above, spelled exactly.",
        "- {json} is one JSON object of arguments on the same line, with double quotes; write a line break "
        "inside a string as \\n.",
        "- For several calls in one reply, write one line per call.",
    ),
    needs=("[TOOL", "```"),
)
