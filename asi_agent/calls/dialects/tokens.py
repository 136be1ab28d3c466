"""Calls framed by special tokens, section by section (shared by the DeepSeek and Kimi readers)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from asi_agent.calls.dialects.base import ReadContext, Span, problem

__all__ = ["section_spans"]

CallReader = Callable[[str, int, int, ReadContext], Span]
"""Reads the text of one call (between its begin and end tokens) into a span covering [start, end)."""


def _outside_strings(text: str, start: int, pattern: re.Pattern[str], stop: int) -> re.Match[str] | None:
    """The first match of `pattern` after `start` that is not inside a JSON string (a section or call
    end token quoted in an argument is data)."""
    for found in pattern.finditer(text, start, stop):
        quotes = len(re.findall(r'(?<!\\)"', text[start : found.start()]))
        if quotes % 2 == 0:
            return found
    return None


def _calls(
    text: str,
    bounds: tuple[int, int],
    call: tuple[re.Pattern[str], re.Pattern[str]],
    read: CallReader,
    ctx: ReadContext,
) -> Iterator[Span]:
    (start, stop), (call_begin, call_end) = bounds, call
    position = start
    while (begin := call_begin.search(text, position, stop)) is not None:
        end_token = _outside_strings(text, begin.end(), call_end, stop)
        following = call_begin.search(text, begin.end(), stop)
        if end_token is not None and (following is None or end_token.start() < following.start()):
            body_end, end = end_token.start(), end_token.end()
        else:
            body_end = end = following.start() if following is not None else stop
        yield read(text[begin.end() : body_end], begin.start(), end, ctx)
        position = end


def section_spans(
    text: str,
    ctx: ReadContext,
    *,
    section: tuple[re.Pattern[str], re.Pattern[str]],
    call: tuple[re.Pattern[str], re.Pattern[str]],
    read: CallReader,
    dialect: str,
) -> Iterator[Span]:
    """One span per section (all its calls), or per call for calls written without a section."""
    section_begin, section_end = section
    position = 0
    covered: list[tuple[int, int]] = []
    while (opened := section_begin.search(text, position)) is not None:
        closed = _outside_strings(text, opened.end(), section_end, len(text))
        stop = closed.start() if closed is not None else len(text)
        end = closed.end() if closed is not None else len(text)
        spans = list(_calls(text, (opened.end(), stop), call, read, ctx))
        calls = tuple(item for span in spans for item in span.calls)
        problems = tuple(item for span in spans for item in span.problems)
        if not spans:
            problems = (problem(text[opened.start() : end], "the section holds no call", ctx),)
        yield Span(opened.start(), end, calls, problems, dialect, cut=any(span.cut for span in spans))
        covered.append((opened.start(), end))
        position = end
    for span in _calls(text, (0, len(text)), call, read, ctx):
        if not any(a <= span.start < b for a, b in covered):
            yield span
