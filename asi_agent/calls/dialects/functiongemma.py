"""FunctionGemma: `<start_function_call>call:NAME{key:<escape>text<escape>,n:3}<end_function_call>`.

Strings sit between `<escape>` tokens; numbers, booleans, `{…}` objects and `[…]` lists are bare.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, problem, typed_value
from asi_agent.calls.jsonish import new_call_id
from asi_agent.messages import ToolCall

__all__ = ["FUNCTIONGEMMA"]

_OPEN = "<start_function_call>"
_CLOSE = "<end_function_call>"
_ESC = "<escape>"
_HEAD_RE = re.compile(r"\s*call:(?P<name>[\w.\-]+)\s*\{")
_KEY_RE = re.compile(r"\s*,?\s*(?P<key>[\w.\-]+)\s*:\s*")
_BARE_RE = re.compile(r"[^,}\]]*")


class _Reader:
    """A small recursive reader of FunctionGemma values."""

    def __init__(self, text: str, tool: str, ctx: ReadContext) -> None:
        self.text, self.at, self.tool, self.ctx = text, 0, tool, ctx

    def object(self, key_path: str = "") -> dict[str, Any]:
        """Reads `key:value,…}` (the `{` already consumed)."""
        result: dict[str, Any] = {}
        while True:
            self.at = _skip(self.text, self.at)
            if self.text.startswith("}", self.at):
                self.at += 1
                return result
            match = _KEY_RE.match(self.text, self.at)
            if match is None or not match.group("key"):
                raise ValueError("expected key:value")
            self.at = match.end()
            key = match.group("key")
            result[key] = self.value(key if not key_path else "")

    def value(self, param: str) -> Any:
        """One value: an escaped string, an object, a list or a bare scalar."""
        if self.text.startswith(_ESC, self.at):
            close = self.text.find(_ESC, self.at + len(_ESC))
            if close < 0:
                raise ValueError("an <escape> string is not closed")
            raw = self.text[self.at + len(_ESC) : close]
            self.at = close + len(_ESC)
            return typed_value(raw, self.tool, param, self.ctx) if param else raw
        if self.text.startswith("{", self.at):
            self.at += 1
            return self.object("nested")
        if self.text.startswith("[", self.at):
            self.at += 1
            items = []
            while not self.text.startswith("]", _skip(self.text, self.at)):
                if self.at >= len(self.text):
                    raise ValueError("a list is not closed")
                items.append(self.value(""))
                self.at = _skip(self.text, self.at)
            self.at = _skip(self.text, self.at) + 1
            return items
        match = _BARE_RE.match(self.text, self.at)
        raw = match.group() if match else ""
        self.at += len(raw)
        return _bare(raw.strip())


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n,":
        at += 1
    return at


def _bare(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("null", "none"):
        return None
    try:
        number = float(raw)
    except ValueError:
        return raw
    return int(number) if number.is_integer() and "." not in raw and "e" not in lowered else number


def _read(body: str, start: int, end: int, ctx: ReadContext) -> Span:
    head = _HEAD_RE.match(body)
    if head is None:
        return Span(start, end, problems=(problem(body, "expected call:NAME{...}", ctx),))
    reader = _Reader(body, head.group("name"), ctx)
    reader.at = head.end()
    try:
        arguments = reader.object()
    except (ValueError, IndexError, RecursionError) as exc:
        return Span(start, end, problems=(problem(body, str(exc), ctx),))
    return Span(
        start, end, (ToolCall(new_call_id(), head.group("name"), arguments),), dialect="functiongemma"
    )


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    position = 0
    while (start := text.find(_OPEN, position)) >= 0:
        close = text.find(_CLOSE, start)
        following = text.find(_OPEN, start + len(_OPEN))
        if close >= 0 and (following < 0 or close < following):
            body, end = text[start + len(_OPEN) : close], close + len(_CLOSE)
        else:
            end = following if following >= 0 else len(text)
            body = text[start + len(_OPEN) : end]
        position = end
        yield _read(body, start, end, ctx)


def _value_text(value: Any) -> str:
    if isinstance(value, str):
        return f"{_ESC}{value}{_ESC}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "{" + ",".join(f"{key}:{_value_text(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_value_text(item) for item in value) + "]"
    return str(value)


def _render(calls: Sequence[ToolCall]) -> str:
    return "".join(f"{_OPEN}call:{call.name}{_value_text(call.arguments)}{_CLOSE}" for call in calls)


FUNCTIONGEMMA = Dialect(
    name="functiongemma",
    scan=_scan,
    markers=(_OPEN, _CLOSE, "<escape>"),
    render=_render,
    rules=(
        "Write each call as <start_function_call>call:tool_name{param:<escape>text<escape>,count:2}"
        "<end_function_call>: text values between <escape> tokens, numbers and booleans bare.",
    ),
    models=("functiongemma", "function-gemma"),
    needs=("<start_function_call>",),
)
