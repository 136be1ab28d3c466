"""What the parser tests a reply for before reading it: which readers and known shapes could match, and
the one form it can read without them.

`could_hold_call` rules out a reply nothing could match. `one_call_line` reads the commonest reply of
text mode at once — prose, then one `[TOOL_CALL]name[ARGS]{json}` line ending the reply — when the text
holds nothing any other reader, known shape, reasoning or framing pattern keys on; `parse_reply` with
`prefilter=False` is the reference both are tested against.
"""

from __future__ import annotations

import re

from asi_agent.calls.dialects import READERS, Dialect
from asi_agent.calls.dialects.asi import TOOL_CALL_RE
from asi_agent.calls.dialects.base import SCAN_LIMIT
from asi_agent.calls.jsonish import JSON_DECODER, clean_name, new_call_id
from asi_agent.calls.reasoning import REASONING_KEYS
from asi_agent.calls.template.known import KNOWN_SHAPES
from asi_agent.calls.template.shape import CallShape
from asi_agent.messages import ToolCall

__all__ = [
    "KNOWN_OPENERS",
    "MARKERS",
    "NEEDLES",
    "could_hold_call",
    "needed",
    "one_call_line",
    "readers_for",
]

MARKERS = tuple(
    sorted(
        {marker for dialect in READERS for marker in dialect.markers}
        | {marker for shape in KNOWN_SHAPES for marker in shape.markers},
        key=len,
        reverse=True,
    )
)
"""Every call marker (`<tool_call>`, `[TOOL_CALLS]`, …), longest first."""


def _openers(shape: CallShape) -> tuple[str, ...]:
    """The shape's call opener and (for a reply that starts inside a call) its name closer, stripped."""
    return tuple(piece.strip() for piece in (shape.call_open, shape.name_close) if piece.strip())


# Read once: each reply is tested against every distinct needle once, not once per dialect naming it.
NEEDLES = tuple(sorted({needle for dialect in READERS for needle in dialect.needs}))
"""Every needle a dialect reader needs (one of its own in the text, or it is not run)."""
KNOWN_OPENERS = tuple((known, _openers(known)) for known in KNOWN_SHAPES)
"""Each known shape with the openers it needs in the text."""
# What the parser reads besides the dialects and the shapes holds one of these characters: reasoning tags,
# end-of-sequence tokens, call-looking tags, a name followed by arguments, a reply that is JSON.
_STRUCTURE_RE = re.compile(r"[<\[{(`|]")
_QUICK_NEEDLES = tuple(
    sorted(
        {*NEEDLES, *(opener for _, openers in KNOWN_OPENERS for opener in openers)}
        | {marker for marker in MARKERS if not _STRUCTURE_RE.search(marker)}
    )
)
_EVERY_REPLY_READ = any(not dialect.needs for dialect in READERS)
# Needles grouped by their first character: a reply is only tested for the needles that start with a
# character it holds (a search for each of the few first characters costs less than the set of the
# reply's characters, at any length).
_BY_FIRST: dict[str, tuple[str, ...]] = {}
for _needle in NEEDLES:
    _BY_FIRST[_needle[0]] = (*_BY_FIRST.get(_needle[0], ()), _needle)
_FIRSTS = tuple(_BY_FIRST.items())


def needed(text: str) -> set[str]:
    """The needles of `NEEDLES` the text holds."""
    return {needle for first, needles in _FIRSTS if first in text for needle in needles if needle in text}


# Each needle with the readers it wakes, as a bit mask over `READERS`; the readers of each mask met so far.
_MASKS = {needle: sum(1 << i for i, d in enumerate(READERS) if needle in d.needs) for needle in NEEDLES}
_BY_FIRST_MASK = tuple((first, tuple((n, _MASKS[n]) for n in needles)) for first, needles in _FIRSTS)
_ALWAYS = sum(1 << i for i, d in enumerate(READERS) if not d.needs)
_SELECTIONS: dict[int, tuple[Dialect, ...]] = {}


def readers_for(text: str) -> tuple[Dialect, ...]:
    """The readers that could find something in `text` (one of their needles is in it), in `READERS`'
    order: the readers whose needles `needed` finds, without building the set."""
    mask = _ALWAYS
    for first, needles in _BY_FIRST_MASK:
        if first in text:
            for needle, readers in needles:
                if readers & ~mask and needle in text:
                    mask |= readers
    selection = _SELECTIONS.get(mask)
    if selection is None:
        selection = tuple(d for i, d in enumerate(READERS) if mask >> i & 1)
        if len(_SELECTIONS) < 4096:  # a few dozen combinations occur; bounded all the same
            _SELECTIONS[mask] = selection
    return selection


def could_hold_call(text: str, shape: CallShape | None = None) -> bool:
    """False only for a reply `parse_reply` gives back as it came (tidied), without calls, problems or
    reasoning: no dialect's needle, no call marker, no opener of a known or the learned `shape`, and none
    of the characters reasoning, end tokens, call-looking tags and JSON are written with. A cheap test
    (a few µs) that spares such a reply the readers."""
    if _EVERY_REPLY_READ or _STRUCTURE_RE.search(text) or any(needle in text for needle in _QUICK_NEEDLES):
        return True
    if shape is None:
        return False
    # The shape's pieces are read with any whitespace inside them: their first word is always written.
    words = [piece.split()[0] for piece in (shape.call_open, shape.name_close) if piece.split()]
    return any(word in text for word in (*words, *shape.markers))


# The needles the one-line form holds: the ASI reader's `[TOOL`, the line break of the prose before it
# (the Functionary reader's), the arguments' `{` (the name closer of Gemma 4's known shape, read only at
# a reply's start) and a parenthesis in the prose or the arguments (the pythonic reader's, whose lists
# open with `[name(` — never in the prose, which holds no `[`, so any it finds lies inside the call and
# gives way to it). With none of the others in the text, only those readers run on it.
_FORM_NEEDLES = frozenset({"[TOOL", "\n", "{", "("})
# Safe only while those are the readers and shapes the form's needles wake (checked at import).
_ONE_LINE_SAFE = (
    not _EVERY_REPLY_READ
    and {d.name for d in READERS if _FORM_NEEDLES.intersection(d.needs)} == {"asi", "functionary", "pythonic"}
    and {known.name for known, openers in KNOWN_OPENERS if _FORM_NEEDLES.intersection(openers)}
    == {"template:gemma4"}
)
_OTHERS = {*_QUICK_NEEDLES, *REASONING_KEYS, ">>>", "```", "[TOOL:"} - _FORM_NEEDLES


def _any_of(literals: set[str]) -> re.Pattern[str]:
    """A pattern finding any of `literals`, grouped by their first character (a few times faster to
    search than one alternative per literal: the engine tries only the group of the character it is at)."""
    groups: dict[str, list[str]] = {}
    for literal in sorted(literals):
        groups.setdefault(literal[0], []).append(re.escape(literal[1:]))
    return re.compile("|".join(f"{re.escape(first)}(?:{'|'.join(rest)})" for first, rest in groups.items()))


_OTHERS_RE = _any_of(_OTHERS)
# What the prose before the call may not hold: the characters readers and patterns key on but `(`.
_PROSE_RE = re.compile(r"[<\[{`|]")
# A Functionary reply's start: a recipient line (`all`, `python`) the reader takes whatever follows.
_RECIPIENT_START_RE = re.compile(r"[ \t]*(?:>>>)?all\n|python\n")


def one_call_line(text: str) -> tuple[int, int, ToolCall] | None:
    """Where the reply's one call starts and ends, and the call, for a reply that is plain prose (none of
    `<[{`|`), then one `[TOOL_CALL]name[ARGS]{json}` line, then nothing but whitespace — the arguments
    a JSON object on that line — holding no other reader's needle, call marker, shape opener or
    reasoning key anywhere; None for every other reply (the readers decide it)."""
    at = text.find("[TOOL_CALL]")
    if not _ONE_LINE_SAFE or at < 0 or text.find("[TOOL_CALL]", at + 1) >= 0:
        return None
    if _PROSE_RE.search(text, 0, at) or _OTHERS_RE.search(text) or _RECIPIENT_START_RE.match(text):
        return None
    head = TOOL_CALL_RE.match(text, at)
    if head is None or not text.startswith("{", head.end()):
        return None
    read = _arguments(text, head.end())
    name = clean_name(head.group("name"))
    if read is None or not name:
        return None
    return at, read[1], ToolCall(new_call_id(), name, read[0])


def _arguments(text: str, start: int) -> tuple[dict[str, object], int] | None:
    """The JSON object at `start` and its end, when it is on one line, read as the ASI reader reads it
    (the C JSON reader; within the scan limit), and only whitespace follows it."""
    try:
        value, end = JSON_DECODER.raw_decode(text, start)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or end > start + SCAN_LIMIT or text.find("\n", start, end) >= 0:
        return None
    return ({str(key): item for key, item in value.items()}, end) if not text[end:].strip() else None
