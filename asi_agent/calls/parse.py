"""Turning a model's reply into tool calls: reasoning split off, every dialect read, nothing dropped.

Each dialect reader (`dialects/`) finds the call-looking fragments of the reply; overlapping fragments
resolve to the first (then the one that parsed, then the longest). Prose before, between and after calls
stays the assistant's text; a fragment that looks like a call but cannot be read becomes a problem, and
so does any leftover call marker (`<tool_call>`, `[TOOL_CALLS]`, …) no reader could place.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any, cast

from asi_agent.calls.dialects import READERS, Dialect, ReadContext, Span
from asi_agent.calls.dialects.base import (
    FORMAT_HINT,
    UnprovenSkip,
    cut_json,
    cut_span,
    value_span,
)
from asi_agent.calls.jsonish import decode_arguments, new_call_id, normalize_native
from asi_agent.calls.leftovers import call_shaped, leaks, only_considered
from asi_agent.calls.prefilter import KNOWN_OPENERS, could_hold_call, one_call_line, readers_for
from asi_agent.calls.reasoning import Region, reasoning_regions
from asi_agent.calls.template.reader import scan_shape, starts_inside
from asi_agent.calls.template.shape import CallShape
from asi_agent.events import Status
from asi_agent.messages import ToolCall

__all__ = [
    "STATUS_RE",
    "ParsedReply",
    "could_hold_call",
    "decode_arguments",
    "new_call_id",
    "normalize_native",
    "parse_reply",
    "parse_status",
    "strip_status",
]

_MAX_SPANS = 64
_EMPTY_FENCE_RE = re.compile(r"^[ \t]*```[^`\n]*\n(?:[ \t]*\n)*[ \t]*```[ \t]*$", re.M)
_EMPTY_CODE_RE = re.compile(r"(?<!`)``(?!`)")
# Control tokens framing a call (`<|function_call|>`, `<|message_sep|>function call<|role_sep|>`,
# `<｜tool_calls_begin｜>`, a recipient header `<|start|>assistant to=NAME<|message|>`): a role, channel or
# recipient header right before the call belongs to it, not to the prose.
_TOKEN = r"<[|｜][A-Za-z_][\w-]*[|｜]>"
_HEADER_RE = re.compile(
    rf"(?:(?:\bto=[\w.:-]+\s*)?{_TOKEN}\s*(?:[A-Za-z][\w .:=-]{{0,48}}(?=<[|｜]))?)+\s*\Z"
)
_HEADER_WINDOW = 160
# Control tokens right after a call that close it (`<|tool_call_end|>`, `<|/tool_call|>`, a message's
# `<|eom|>`): the call's, even when the reader that read the call did not know them.
_TRAILER_RE = re.compile(r"(?:[ \t]*<[|｜](?:/[\w:.-]+|[\w:.-]*end[\w:.-]*|eom|eot)[|｜]>)+")
# A message's recipient header (Glimmer, harmony-like: ` to=user<|message|>`,
# `<|start|>assistant<|message|>`): framing, not the model's words.
# A lone `<|message|>` in the middle of the prose stays: only a header is framing.
_FRAME_RE = re.compile(
    r"(?:<\|start\|>\s*assistant\b)?[ \t]*\bto=[\w.:-]+[ \t]*<\|message\|>"
    r"|<\|start\|>\s*assistant[ \t]*<\|message\|>|\A\s*<\|message\|>"
)
# A wrapper element a call was taken out of, left empty (`<dots_function_call></dots_function_call>`).
_EMPTY_WRAPPER_RE = re.compile(
    r"<(?P<tag>[A-Za-z_][\w:.-]*(?:tool|function|call|invoke|action)[\w:.-]*)>\s*</(?P=tag)>", re.I
)
# A label line naming the call that follows (`**Tool Call:**`): the call's, not the prose's.
_LABEL_RE = re.compile(
    r"^[ \t]*(?:\*\*|__)?[ \t]*(?:tool|function)[ _-]?calls?[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*:?[ \t]*"
    r"(?:\n|\Z)",
    re.I | re.M,
)
# End-of-sequence tokens a server left at the end of the reply: the model's stop, not its words.
_EOS_RE = re.compile(
    r"(?:\s*(?:</s>|<eos>|<end_of_turn>|<\|(?:im_end|eot_id|eom_id|end|endoftext|end_of_text|return|eot|eom"
    r"|assistant_end)\|>))+\s*\Z"
)
# A role token opening the model's turn, left at the start of the reply (Apertus's `<|assistant_start|>`).
_START_RE = re.compile(r"\A\s*<\|(?:assistant_start|start_of_turn|im_start)\|>(?:assistant\b)?")

STATUS_RE = re.compile(
    r"(?:^|(?<=\s))[ \t>*_`#-]*AGENT_STATUS[ \t*_`]*[:：][ \t*_`]*(?P<status>DONE|CONTINUE|STOP)\b"
    r"[ \t*_`.!。\r]*$",
    re.IGNORECASE | re.MULTILINE,
)
"""An `AGENT_STATUS: X` line, or one ending a line of text (small models write it inline), tolerating
markdown bold/backticks, a full-width colon and any case."""


@dataclass(frozen=True, slots=True)
class ParsedReply:
    """A reply split into its prose, the calls it made, problems to show the model, and its reasoning."""

    text: str
    calls: tuple[ToolCall, ...] = ()
    problems: tuple[str, ...] = ()
    reasoning: str = ""
    dialect: str = ""
    """The dialect of the first call read (empty without calls)."""
    markup: bool = False
    """Whether call or reasoning markup was taken out of the text (a reply without calls too: a lone
    end of reasoning, a turn's end token)."""


def _choose(spans: list[Span]) -> list[Span]:
    """Spans in order of appearance; of overlapping ones the first, then one with calls, then the longest."""
    chosen: list[Span] = []
    for span in sorted(spans, key=lambda item: (item.start, not item.calls, -item.end)):
        if not chosen or span.start >= chosen[-1].end:
            chosen.append(span)
    return chosen


def _tidy(text: str) -> str:
    """Lines without trailing blanks, no blank lines around; blank lines inside are the writer's (code has
    them in pairs) and the first line keeps its indentation."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def _seam(before: str, after: str) -> str:
    """Join the prose around a removed call: at most one blank line where the call was."""
    head, tail = before.rstrip(" \t\n"), after.lstrip(" \t\n")
    if not head or not tail:
        return head + tail
    breaks = min(before[len(head) :].count("\n") + after[: len(after) - len(tail)].count("\n"), 2)
    if not breaks:
        return before + after
    return head + "\n" * breaks + tail


# Dialects whose arguments are JSON: one the reply's end cut off is read only by repairing it.
_TEXT_ARGUMENTS = frozenset({"qwen-xml", "glm", "hunyuan", "k2", "pythonic", "functiongemma"})
# A reply that ends with a closer (a fence, a closing tag or token) was finished by the model. No closer
# holds a `<` or `[` but where it opens: it starts at the last one.
_TAG_CLOSER_RE = re.compile(r"</[\w:.\-]+>|<\|[\w/]+\|>")
_BRACKET_CLOSER_RE = re.compile(r"\[/\w+\]")


def _closed_end(text: str) -> bool:
    """Whether the reply ends with a closer (a fence, `</tag>`, `<|token|>`, `[/TAG]`), read from its end
    (a search from every position of the reply costs as much as the reply is long)."""
    end = text.rstrip()
    last = end[-1:]
    if last == "`":
        return end.endswith("```")
    if last == ">":
        return _TAG_CLOSER_RE.fullmatch(end, end.rfind("<")) is not None
    if last == "]":
        return _BRACKET_CLOSER_RE.fullmatch(end, end.rfind("[")) is not None
    return False


def _cut_at_end(span: Span, text: str, ctx: ReadContext) -> Span:
    """A span that runs to the reply's end with its JSON still open is a call the reply stopped inside."""
    if span.cut or span.dialect in _TEXT_ARGUMENTS or span.dialect.startswith("template"):
        return span
    if text[span.end :].strip() or _closed_end(text):
        return span
    fragment = text[span.start : span.end]
    brace = min((i for i in (fragment.find("{"), fragment.find("[")) if i >= 0), default=-1)
    if brace < 0 or not cut_json(fragment[brace:]):
        return span
    return cut_span(span.start, span.end, fragment, span.dialect, ctx)


def _header_start(text: str, start: int) -> int:
    """Where a call's header of control tokens begins (the call's own start when it has none)."""
    window = max(0, start - _HEADER_WINDOW)
    if text.find("|>", window, start) < 0 and text.find("｜>", window, start) < 0:
        return start  # a header holds a control token, which ends with one of those
    header = _HEADER_RE.search(text, window, start)
    return header.start() if header is not None else start


def _trailer_end(text: str, end: int) -> int:
    """Where the closing control tokens right after a call end (the call's own end when there are none)."""
    trailer = _TRAILER_RE.match(text, end)
    return trailer.end() if trailer is not None else end


def _overlaps(span: Span, others: list[Span]) -> bool:
    return any(span.start < other.end and other.start < span.end for other in others)


def _learned_first(learned: list[Span], named: list[Span]) -> list[Span]:
    """The learned reader's spans, then the named readers' where the learned reader read nothing (a
    learned span that only failed gives way to a named reader that read calls there)."""
    read = [span for span in learned if span.calls or span.cut]
    failed = [
        span for span in learned if span not in read and not _overlaps(span, [s for s in named if s.calls])
    ]
    return read + failed + [span for span in named if not _overlaps(span, read + failed)]


# What a known shape is read for: the first word of its call opener (the opener is read with any
# whitespace inside it), or its name closer right after a name at the reply's start (`starts_inside`). A
# name closer elsewhere (Gemma 4's is `{`, in every JSON reply) opens nothing: its test is skipped.
_KNOWN = tuple(
    (known, (known.call_open.split() or ["\0"])[0], (known.name_close.split() or ["\0"])[0])
    for known, _ in KNOWN_OPENERS
)


def _read(
    text: str, ctx: ReadContext, readers: Sequence[Dialect], *, skip: bool
) -> tuple[list[Span], list[Span]]:
    """Every reader's spans, in reader order, and the spans that hid another's fragment: with `skip`, a
    reader that can (`scan_outside`) spares what starts inside calls the readers before it read."""
    named: list[Span] = []
    hiders: list[Span] = []
    for dialect in readers:
        claimed = [span for span in named if span.calls] if skip and dialect.scan_outside else []
        if claimed and dialect.scan_outside is not None:
            try:
                spans, used = dialect.scan_outside(text, ctx, claimed)
            except UnprovenSkip:
                pass
            else:  # fewer than `_MAX_SPANS` found and hidden: `scan` would not have been cut short either
                if len(spans) + len(used) < _MAX_SPANS:
                    named += spans
                    hiders += used
                    continue
        named.extend(islice(dialect.scan(text, ctx), _MAX_SPANS))
    return named, hiders


def _chosen(learned: list[Span], found: list[Span]) -> list[Span]:
    """The spans kept from those read: the learned shape's first (`_learned_first`), then `_choose`."""
    return _choose(_learned_first(learned, found) if learned else found)


def _spans(text: str, ctx: ReadContext, shape: CallShape | None, prefilter: bool) -> list[Span]:
    readers = READERS
    if prefilter:  # only the readers whose needles are in the text: the others would find nothing
        readers = readers_for(text)
    # Families no hand-written reader knows, as their templates write them.
    known_spans: list[Span] = []
    for known, opener, name_close in _KNOWN:
        if shape is not None and known.template_hash == shape.template_hash:
            continue
        if not prefilter or opener in text or (name_close in text and starts_inside(text, known)):
            known_spans.extend(islice(scan_shape(text, ctx, known), _MAX_SPANS))
    learned = list(islice(scan_shape(text, ctx, shape), _MAX_SPANS)) if shape is not None else []
    named, hiders = _read(text, ctx, readers, skip=prefilter)
    spans = _chosen(learned, named + known_spans)
    # A fragment hidden inside a span that was not chosen might have been: read again without hiding.
    if hiders and not all(any(hider is span for span in spans) for hider in hiders):
        spans = _chosen(learned, _read(text, ctx, readers, skip=False)[0] + known_spans)
    spans = [_cut_at_end(span, text, ctx) for span in spans]
    if not spans and text.lstrip().startswith(("{", "[")):
        whole = value_span(0, len(text), text, text.strip(), strict=False, dialect="json", ctx=ctx)
        spans = [whole] if whole is not None else []
    return spans


def _prose(text: str, spans: list[Span], regions: Sequence[Region]) -> str:
    """The text without its calls (with their headers and closing tokens) and reasoning blocks."""
    framed = [
        (_header_start(text, span.start), _trailer_end(text, span.end))
        if span.calls
        else (span.start, span.end)
        for span in spans
    ]
    cuts = sorted(framed + [(r.start, r.end) for r in regions])
    pieces: list[str] = []
    position = 0
    for start, end in cuts:
        pieces.append(text[position : max(start, position)])
        position = max(position, end)
    pieces.append(text[position:])
    prose = pieces[0]
    for piece in pieces[1:]:
        prose = _seam(prose, piece)
    return prose


def _visible(prose: str, spans: list[Span], prefilter: bool) -> tuple[str, bool]:
    """What a client sees of the prose, and whether framing was taken out: a fence or inline code a call
    left empty, an emptied wrapper and a label line beside read calls, end tokens, message headers.
    With `prefilter`, a pattern is only searched when the prose holds what each of its matches starts
    with (two backticks; `<` for wrappers, end tokens and headers)."""
    rest = prose
    if spans and (not prefilter or "``" in rest):
        rest = _EMPTY_CODE_RE.sub("", _EMPTY_FENCE_RE.sub("", rest))
    if any(span.calls for span in spans):
        rest = _LABEL_RE.sub("", _EMPTY_WRAPPER_RE.sub("", rest) if not prefilter or "<" in rest else rest)
    framed = rest
    if not prefilter or "<" in rest:
        rest = _START_RE.sub("", _FRAME_RE.sub("", _EOS_RE.sub("", rest)))
    return rest, rest != framed


def parse_reply(
    text: str,
    tools: Sequence[Mapping[str, Any]] = (),
    *,
    hint: str = FORMAT_HINT,
    shape: CallShape | None = None,
    prefilter: bool = True,
) -> ParsedReply:
    """Split a reply into prose, calls, problems and reasoning; never raises.

    `tools` (OpenAI-shaped schemas) type the values of dialects that write arguments as text; `hint` ends
    every problem, telling the model how to write a call; `shape`, learned from the model's chat
    template, is read before the named dialects. A reply that stopped inside a call runs none of its
    calls: each is reported instead. `prefilter` (the default) spares every reader, shape and pattern
    the text cannot hold a match for; off, all run on every reply — the same result, slower (the
    reference the prefilter is tested against).
    """
    if prefilter and not could_hold_call(text, shape):
        return ParsedReply(_tidy(text))
    quick = one_call_line(text) if prefilter and shape is None else None
    if quick is not None:  # prose and one call line: what the readers would give, without them
        span = Span(quick[0], quick[1], (quick[2],), dialect="asi")
        # `_prose` without control tokens around the call to search for (the prose holds no `<`)
        rest, _ = _visible(_seam(text[: span.start], text[span.end :]), [span], prefilter)
        return ParsedReply(_tidy(rest), span.calls, dialect="asi", markup=True)
    ctx = ReadContext.from_tools(tools, hint)
    found = _spans(text, ctx, shape, prefilter)
    # Reasoning is found around the calls (a think tag inside a call's arguments is data), then calls
    # written inside reasoning are dropped: reasoning is not action.
    protected = [(span.start, span.end) for span in found if span.calls]
    regions = reasoning_regions(text, protected, prefilter=prefilter)
    spans = [span for span in found if not any(r.start <= span.start < r.end for r in regions)]
    considered = [span for span in found if span.calls and span not in spans]
    prose = _prose(text, spans, regions)
    rest, stripped = _visible(prose, spans, prefilter)
    calls = tuple(call for span in spans for call in span.calls)
    problems = [item for span in spans for item in span.problems] + leaks(prose, ctx, shape)
    if not calls and not problems and considered and not _tidy(rest):
        problems = [only_considered(text, considered[0], ctx)]
    if not calls and not problems:
        problems = call_shaped(prose, ctx)
    if calls and any(span.cut for span in spans):
        names = ", ".join(call.name for call in calls)
        problems.append(f"The reply was cut off inside a call, so none of its calls ran (not run: {names}).")
        calls = ()
    dialect = next((span.dialect for span in spans if span.calls), "")
    markup = bool(regions) or any(not span.problems for span in spans) or stripped
    reasoning = "\n\n".join(
        text[r.inner_start : r.inner_end].strip()
        for r in regions
        if text[r.inner_start : r.inner_end].strip()
    )
    return ParsedReply(_tidy(rest), calls, tuple(problems), _tidy(reasoning), dialect, markup)


def parse_status(text: str) -> Status | None:
    """The status of the last `AGENT_STATUS: X` line, upper-cased; None when there is none."""
    found = STATUS_RE.findall(text)
    return cast(Status, found[-1].upper()) if found else None


def strip_status(text: str) -> str:
    """The text without its `AGENT_STATUS` lines, whitespace tidied."""
    return _tidy(STATUS_RE.sub("", text))
