"""What the parser reports when a reply holds a call attempt no reader could place: a call marker left in
the prose, a call-looking tag or a tool's name followed by arguments, a call written only inside the
reasoning. Nothing that looks like a call is dropped in silence."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from itertools import islice

from asi_agent.calls.dialects import ReadContext, Span
from asi_agent.calls.dialects.base import problem
from asi_agent.calls.prefilter import MARKERS
from asi_agent.calls.template.shape import CallShape

__all__ = ["any_marker", "call_shaped", "leaks", "only_considered"]

_MAX_LEAKS = 4


def any_marker(markers: Iterable[str]) -> re.Pattern[str]:
    """A pattern finding any of `markers`, the longest of those starting at one place, grouped by first
    character: the engine tries only the group of the character it is at (several times faster over a
    long reply than one alternative per marker)."""
    groups: dict[str, list[str]] = {}
    for marker in sorted(set(markers), key=len, reverse=True):
        groups.setdefault(marker[0], []).append(re.escape(marker[1:]))
    return re.compile("|".join(f"{re.escape(first)}(?:{'|'.join(rest)})" for first, rest in groups.items()))


_MARKER_RE = any_marker(MARKERS)


def leaks(prose: str, ctx: ReadContext, shape: CallShape | None) -> list[str]:
    """Call markers left in the prose: a call attempt no reader could place."""
    problems = []
    pattern = _MARKER_RE
    if shape is not None and shape.markers:
        pattern = _learned_markers(shape.markers)
    for match in islice(pattern.finditer(prose), _MAX_LEAKS):
        line_start = prose.rfind("\n", 0, match.start()) + 1
        line_end = prose.find("\n", match.end())
        fragment = prose[line_start : len(prose) if line_end < 0 else line_end]
        problems.append(problem(fragment, f"`{match.group()}` is not part of a complete call", ctx))
    return problems


_CALL_TAG_RE = re.compile(
    r"<\|?(?P<tag>(?:tool|function|call|invoke|action):|[A-Za-z_][\w:.|-]*(?:tool|function|call|invoke|action)"
    r"[\w:.|-]*(?=[\s>=|]))",
    re.I,
)


# A message addressed to a tool (` to=get_weather<|message|>…`): a call attempt, whatever its body.
_RECIPIENT_RE = re.compile(r"\bto=(?P<name>[\w.:-]+)[ \t]*<\|message\|>")
_PEOPLE = frozenset({"user", "self", "all", "assistant"})
_ECHO_RE = re.compile(r"response|result|output", re.I)  # a tool's answer echoed back is not a call


def call_shaped(prose: str, ctx: ReadContext) -> list[str]:
    """For a reply that gave no call: a call-looking tag (closed or not) or a listed tool's name followed
    by arguments, which no reader could read — so the attempt is reported, never dropped in silence."""
    recipient = next((r for r in _RECIPIENT_RE.finditer(prose) if r["name"].lower() not in _PEOPLE), None)
    if recipient is not None:
        fragment = prose[recipient.start() :].split("\n", 1)[0]
        reason = f"the message to `{recipient['name']}` holds no call a reader could read"
        return [problem(fragment, reason, ctx)]
    tag = next((t for t in _CALL_TAG_RE.finditer(prose) if not _ECHO_RE.search(t.group("tag"))), None)
    if tag is not None:
        line = prose[prose.rfind("\n", 0, tag.start()) + 1 :].split("\n", 1)[0]
        return [problem(line, f"`<{tag.group('tag')}` looks like a call no reader could read", ctx)]
    names = sorted((name for name in ctx.types if name), key=len, reverse=True)
    if not names:
        return []
    pattern = re.compile(
        r"(?<![\w.])(?P<name>"
        + "|".join(re.escape(name) for name in names)
        + r")\s*(?:\(|\{|\[ARGS\]|:\s*\{)"
    )
    found = pattern.search(prose)
    if found is None:
        return []
    line = prose[prose.rfind("\n", 0, found.start()) + 1 :].split("\n", 1)[0]
    return [problem(line, f"`{found.group('name')}` is followed by arguments no reader could read", ctx)]


def only_considered(text: str, span: Span, ctx: ReadContext) -> str:
    """A reply whose only call sits inside its reasoning: the call was considered, not made. It does not
    run (reasoning is not action), and the model is told, so that a call it meant is not lost."""
    reason = (
        "the call is inside the reasoning, where a call is only considered, so it was not run; "
        "to make it, write it after the reasoning"
    )
    return problem(text[span.start : span.end], reason, ctx)


@functools.lru_cache(maxsize=32)
def _learned_markers(markers: tuple[str, ...]) -> re.Pattern[str]:
    """The markers pattern with a learned shape's own (built once per shape, not per reply)."""
    return any_marker((*MARKERS, *markers))
