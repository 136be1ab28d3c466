"""gpt-oss (harmony): a call is a message addressed `to=functions.NAME`, in its header either before or
after `<|channel|>`, with its JSON after `<|message|>` up to `<|call|>`:

    <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{…}<|call|>

The analysis channel is reasoning (see `reasoning`); the rest of the markup is dropped from the prose.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, named_span, problem
from asi_agent.messages import ToolCall

__all__ = ["HARMONY"]

_TO_RE = re.compile(r"\bto=functions\.(?P<name>[\w.\-]+)")
_BODY_END_RE = re.compile(r"<\|call\|>|<\|end\|>|<\|return\|>|<\|start\|>")
_MARKUP_RE = re.compile(
    r"(?:<\|start\|>assistant)?<\|channel\|>(?:final|commentary)<\|message\|>|<\|end\|>|<\|return\|>"
    r"|<\|start\|>assistant"
)


def _header_start(text: str, to: re.Match[str]) -> int:
    """Where the header holding `to=` begins: its `<|start|>` or `<|channel|>`, else `to=` itself."""
    floor = max(
        text.rfind("<|message|>", 0, to.start()),
        text.rfind("<|call|>", 0, to.start()),
        text.rfind("<|end|>", 0, to.start()),
    )
    floor = 0 if floor < 0 else floor
    for token in ("<|start|>", "<|channel|>"):
        found = text.rfind(token, floor, to.start())
        if found >= 0:
            return found
    return to.start() - 1 if to.start() > 0 and text[to.start() - 1] == " " else to.start()


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    for to in _TO_RE.finditer(text):
        message = text.find("<|message|>", to.end())
        start = _header_start(text, to)
        if message < 0 or "<|start|>" in text[to.end() : message]:
            end = text.find("\n", to.end())
            end = len(text) if end < 0 else end
            yield Span(start, end, problems=(problem(text[start:end], "<|message|> is missing", ctx),))
            continue
        stop = _BODY_END_RE.search(text, message)
        body_end = stop.start() if stop is not None else len(text)
        end = stop.end() if stop is not None and stop.group() in ("<|call|>", "<|end|>") else body_end
        body = text[message + len("<|message|>") : body_end].strip()
        yield named_span(start, end, text[start:end], to.group("name"), body, dialect="harmony", ctx=ctx)
    for markup in _MARKUP_RE.finditer(text):
        yield Span(markup.start(), markup.end(), dialect="harmony")


def _render(calls: Sequence[ToolCall]) -> str:
    return "".join(
        f"<|start|>assistant<|channel|>commentary to=functions.{call.name} <|constrain|>json<|message|>"
        f"{json.dumps(call.arguments, ensure_ascii=False)}<|call|>"
        for call in calls
    )


HARMONY = Dialect(
    name="harmony",
    scan=_scan,
    markers=("to=functions.", "<|constrain|>", "<|call|>"),
    render=_render,
    rules=(
        "To call a tool, write a commentary message addressed to it, with its JSON arguments:",
        "<|start|>assistant<|channel|>commentary to=functions.tool_name <|constrain|>json<|message|>"
        '{"param": "value"}<|call|>',
    ),
    models=("gpt-oss", "gpt_oss", "gptoss"),
    needs=("<|", "to=functions."),
)
