"""Reasoning is not action: thinking blocks are split from the reply before any call is read.

Blocks: `<think>…</think>` (DeepSeek R1, Qwen3, QwQ, GLM, Granite…), `<thinking>`, `<seed:think>`,
Command R7B's `<|START_THINKING|>`, Solar Open 2's `<|think:start|>`, harmony's analysis channel and
Mistral's `[THINK]`, Apertus's `<|inner_prefix|>`, Laguna's `<thought>`, K2's `<ifm|think>` (and its
`_fast` / `_faster` efforts), and a message a model
addresses to itself (Glimmer's ` to=self<|message|>…`, ended by `<|eom|>`, `<|eot|>` or the next
message's `<|start|>`). A template that opens the block in the prompt leaves only its end in the reply:
what precedes a lone end is reasoning.
A block the model never closes ends where a call begins (Kimi writes calls inside it) or at the end.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from asi_agent.events import ReasoningStreamed, TextStreamed

__all__ = ["REASONING_KEYS", "ReasoningSplitter", "Region", "reasoning_regions", "split_reasoning"]

_BLOCKS: tuple[tuple[str, str], ...] = (
    ("<think>", "</think>"),
    ("<thinking>", "</thinking>"),
    ("<seed:think>", "</seed:think>"),
    ("<|START_THINKING|>", "<|END_THINKING|>"),
    ("<|channel|>analysis<|message|>", "<|end|>"),
    ("[THINK]", "[/THINK]"),
    ("<|think:start|>", "<|think:end|>"),
    ("<|inner_prefix|>", "<|inner_suffix|>"),
    ("<thought>", "</thought>"),
    ("<ifm|think>", "</ifm|think>"),
    ("<ifm|think_fast>", "</ifm|think_fast>"),
    ("<ifm|think_faster>", "</ifm|think_faster>"),
)
_SELF_OPEN = r"(?:<\|start\|>\s*assistant)?[ \t]*\bto=self[ \t]*<\|message\|>"
_SELF_KEY = "to=self"
_SELF_CLOSE_RE = re.compile(r"<\|eom\|>|<\|eot\|>|<\|end\|>|(?=<\|start\|>)")
_OPEN_RE = re.compile(
    r"(?:<\|start\|>assistant)?<\|channel\|>analysis<\|message\|>|"
    + _SELF_OPEN
    + "|"
    + "|".join(re.escape(opener) for opener, _ in _BLOCKS if "channel" not in opener)
)
_CLOSERS = {opener: closer for opener, closer in _BLOCKS}
# Ends that may appear alone (the prompt opened the block).
_LONE_ENDS = (
    "</think>",
    "</seed:think>",
    "<|END_THINKING|>",
    "[/THINK]",
    "[BEGIN FINAL RESPONSE]",
    "<|think:end|>",
    "<|inner_suffix|>",
)
_LONE_END_RE = re.compile("|".join(re.escape(end) for end in _LONE_ENDS))
# Where an unclosed block stops: a call in any dialect.
_CALL_START_RE = re.compile(
    r"<tool_call>|<\|tool_calls_section_begin\|>|<\|tool_call_begin\|>|<｜tool▁calls▁begin｜>|\[TOOL_CALLS\]"
    r"|<\|python_tag\|>|<start_function_call>|<\|START_ACTION\|>|<\|tool_call_start\|>|\[TOOL_CALL\]"
    r"|<\|tool_call:start\|>|<ifm\|tool_call"
)


def _opener_key(matched: str) -> str:
    if _SELF_KEY in matched:
        return _SELF_KEY
    return "<|channel|>analysis<|message|>" if "analysis" in matched else matched


def _close(masked: str, key: str, start: int) -> tuple[int, int] | None:
    """Where the block opened by `key` closes after `start`: (closer start, closer end), or None."""
    if key == _SELF_KEY:
        found = _SELF_CLOSE_RE.search(masked, start)
        return (found.start(), found.end()) if found is not None else None
    close = masked.find(_CLOSERS[key], start)
    return (close, close + len(_CLOSERS[key])) if close >= 0 else None


@dataclass(frozen=True, slots=True)
class Region:
    """A thinking block: [start, end) with its markup, [inner_start, inner_end) its text."""

    start: int
    end: int
    inner_start: int
    inner_end: int


def _masked(text: str, protected: Sequence[tuple[int, int]]) -> str:
    """The text with protected ranges (calls already read) blanked, so tags inside them do not count."""
    if not protected:
        return text
    chars = list(text)
    for start, end in protected:
        chars[start:end] = "\0" * (end - start)
    return "".join(chars)


# Every opener and lone end holds one of these: a reply holding none has no reasoning (blanking the
# protected ranges only takes matches away), so the patterns, slow to search, are not searched.
REASONING_KEYS = tuple(sorted({_SELF_KEY, *(opener for opener, _ in _BLOCKS), *_LONE_ENDS}))
"""What every reasoning region holds: text without any of these has none."""


def reasoning_regions(
    text: str, protected: Sequence[tuple[int, int]] = (), *, prefilter: bool = True
) -> list[Region]:
    """The thinking blocks of a reply; tags inside `protected` ranges are ignored, and an unclosed block
    ends at the next protected range (a call) or at the end. `prefilter=False` searches the patterns even
    when none of their keys is in the text (the reference the quick test is checked against)."""
    if prefilter and not any(key in text for key in REASONING_KEYS):
        return []
    masked = _masked(text, protected)
    regions: list[Region] = []
    position = 0
    lone = _LONE_END_RE.search(masked)
    first_open = _OPEN_RE.search(masked)
    if lone is not None and (first_open is None or lone.start() < first_open.start()):
        regions.append(Region(0, lone.end(), 0, lone.start()))
        position = lone.end()
    while (opened := _OPEN_RE.search(masked, position)) is not None:
        closed = _close(masked, _opener_key(opened.group()), opened.end())
        if closed is not None:
            regions.append(Region(opened.start(), closed[1], opened.end(), closed[0]))
            position = closed[1]
            continue
        call = _CALL_START_RE.search(masked, opened.end())
        stops = [start for start, _ in protected if start >= opened.end()]
        stops += [call.start()] if call is not None else []
        stop = min(stops, default=len(text))
        regions.append(Region(opened.start(), stop, opened.end(), stop))
        position = stop
    return regions


def split_reasoning(text: str) -> tuple[str, str]:
    """The reply's reasoning and the rest, each block's text joined by blank lines."""
    regions = reasoning_regions(text)
    thoughts = [text[region.inner_start : region.inner_end].strip() for region in regions]
    pieces, position = [], 0
    for region in regions:
        pieces.append(text[position : region.start])
        position = region.end
    pieces.append(text[position:])
    return "\n\n".join(thought for thought in thoughts if thought), "".join(pieces)


_STREAM_BLOCKS = _BLOCKS


@dataclass
class ReasoningSplitter:
    """Splits a streamed reply into ("text" | "reasoning", piece) parts as the deltas arrive.

    A tag cut across deltas is held back until it is whole; `flush` releases what is left.
    """

    _pending: str = ""
    _closer: str = ""
    _parts: list[tuple[str, str]] = field(default_factory=list)

    def feed(self, delta: str) -> list[tuple[str, str]]:
        """The parts this delta completes."""
        self._pending += delta
        parts: list[tuple[str, str]] = []
        while self._pending:
            if self._closer:
                index = self._pending.find(self._closer)
                if index >= 0:
                    parts.append(("reasoning", self._pending[:index]))
                    self._pending = self._pending[index + len(self._closer) :]
                    self._closer = ""
                    continue
                keep = _partial_suffix(self._pending, (self._closer,))
                parts.append(("reasoning", self._pending[: len(self._pending) - keep]))
                self._pending = self._pending[len(self._pending) - keep :]
                break
            index, opener = _first_opener(self._pending)
            if opener:
                parts.append(("text", self._pending[:index]))
                self._pending = self._pending[index + len(opener) :]
                self._closer = dict(_STREAM_BLOCKS)[opener]
                continue
            keep = _partial_suffix(self._pending, tuple(opener for opener, _ in _STREAM_BLOCKS))
            parts.append(("text", self._pending[: len(self._pending) - keep]))
            self._pending = self._pending[len(self._pending) - keep :]
            break
        return [(kind, piece) for kind, piece in parts if piece]

    def flush(self) -> list[tuple[str, str]]:
        """Whatever was held back, at the end of the stream."""
        pending, self._pending = self._pending, ""
        return [("reasoning" if self._closer else "text", pending)] if pending else []

    def events(self, delta: str | None) -> list[TextStreamed | ReasoningStreamed]:
        """`feed` (or, for None at the end of the stream, `flush`) as stream events."""
        parts = self.feed(delta) if delta is not None else self.flush()
        return [
            ReasoningStreamed(piece) if kind == "reasoning" else TextStreamed(piece) for kind, piece in parts
        ]


def _first_opener(text: str) -> tuple[int, str]:
    found = [(text.find(opener), opener) for opener, _ in _STREAM_BLOCKS if opener in text]
    return min(found) if found else (-1, "")


def _partial_suffix(text: str, tags: tuple[str, ...]) -> int:
    """How many trailing characters could be the start of one of `tags`."""
    best = 0
    for tag in tags:
        for size in range(min(len(tag) - 1, len(text)), 0, -1):
            if tag.startswith(text[-size:]):
                best = max(best, size)
                break
    return best
