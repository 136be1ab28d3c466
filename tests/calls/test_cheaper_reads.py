"""Cheaper reads of the general path give what the slower ones gave.

A JSON object inside a call another reader already read is read once: the JSON-in-prose reader skips it
(`scan_outside`), and the parse is the same as with every reader reading everything (`prefilter=False`,
which never skips). The corpus and the sealed sets are compared in `test_prefilter.py`; here, replies built
around the cases the skip must give up on: an object reaching past the call that hides it, a `;` joining it
to an object after the call, a hiding call that is not chosen, and the spans limit. Last, whether a reply
ends with a closer (so a call running to its end was finished) is read from its end, as searched before;
and call markers left in the prose are found by one pattern grouped by first character, as by one
alternative per marker, longest first."""

from __future__ import annotations

import re
from typing import Any

import pytest
from replies import READ_FILE_ONLY, joined_from, seen

from asi_agent.calls import parse_reply
from asi_agent.calls.dialects import READERS, ReadContext, Span
from asi_agent.calls.dialects.base import UnprovenSkip
from asi_agent.calls.dialects.json_prose import JSON_PROSE
from asi_agent.calls.leftovers import any_marker
from asi_agent.calls.parse import _closed_end
from asi_agent.calls.prefilter import MARKERS
from asi_agent.calls.template.known import KNOWN_SHAPES
from asi_agent.calls.template.shape import CallShape

_CALL = '{"name": "read_file", "arguments": {"path": "a.py"}}'


def _seen(text: str, shape: CallShape | None = None, *, prefilter: bool = True) -> tuple[Any, ...]:
    """Everything a parse of `text` calling `read_file` gives but the calls' ids."""
    return seen(parse_reply(text, READ_FILE_ONLY, shape=shape, prefilter=prefilter))


def _reference(text: str, shape: CallShape | None = None) -> tuple[Any, ...]:
    """The same with every reader reading everything (no prefilter, so no skip)."""
    return _seen(text, shape, prefilter=False)


def _hermes(text: str) -> list[Span]:
    hermes = next(reader for reader in READERS if reader.name == "hermes")
    return [span for span in hermes.scan(text, ReadContext()) if span.calls]


def _outside(text: str) -> tuple[list[Span], list[Span]]:
    assert JSON_PROSE.scan_outside is not None
    return JSON_PROSE.scan_outside(text, ReadContext(), _hermes(text))


def test_the_object_inside_a_read_call_is_hidden_and_the_call_read_once():
    text = f"Reading it.\n<tool_call>\n{_CALL}\n</tool_call>"
    spans, hiders = _outside(text)
    assert spans == [] and [(h.start, h.end, h.dialect) for h in hiders] == [(12, 89, "hermes")]
    assert [span.dialect for span in JSON_PROSE.scan(text, ReadContext())] == ["json"]  # read without it
    parsed = parse_reply(text, READ_FILE_ONLY)
    assert [(call.name, call.arguments) for call in parsed.calls] == [("read_file", {"path": "a.py"})]
    assert (parsed.dialect, parsed.text) == ("hermes", "Reading it.")
    assert _seen(text) == _reference(text)


def test_an_object_outside_every_read_call_is_still_read():
    text = f"<tool_call>\n{_CALL}\n</tool_call>\nThen {_CALL}"
    spans, hiders = _outside(text)
    assert [span.dialect for span in spans] == ["json"] and len(hiders) == 1
    assert len(parse_reply(text, READ_FILE_ONLY).calls) == 2
    assert _seen(text) == _reference(text)


def test_an_object_joined_past_the_call_that_hides_it_is_not_skipped():
    # No closing tag: the call ends with its object, and a `;` joins the object to the next one.
    text = f"<tool_call>\n{_CALL} ; {_CALL}"
    with pytest.raises(UnprovenSkip):
        _outside(text)
    assert _seen(text) == _reference(text)


@pytest.mark.parametrize(
    "text",
    [
        # A call opened before the Hermes block and running over it is chosen instead of the block.
        f'[TOOL_CALLS][{{"name": "read_file", "arguments": {{"path": "<tool_call>{_CALL}</tool_call>"}}}}]',
        f"```json\n<tool_call>\n{_CALL}\n</tool_call>\n```",
        f"<think><tool_call>{_CALL}</tool_call></think>",
        f"<tool_call>{_CALL[:-1]}</tool_call>",
        "<tool_call>{“name”: “read_file”, “arguments”: {}}</tool_call>",
        '<tool_call>{"name": "read_file", "arguments": {"x": "{\\"name\\": 1"}}</tool_call>',
        "".join(f"<tool_call>{_CALL}</tool_call>" for _ in range(40)),
        "".join(f"<tool_call>{_CALL}</tool_call>\n{_CALL}\n" for _ in range(40)),
    ],
)
def test_near_misses_parse_as_with_every_reader(text: str):
    assert _seen(text) == _reference(text)
    for shape in KNOWN_SHAPES:
        assert _seen(text, shape) == _reference(text, shape), shape.name


_PIECES = [
    *" \n;[]{}x",
    "<tool_call>",
    "</tool_call>",
    _CALL,
    '{"name": "read_file", ',
    '"arguments": {"path": "b"}}',
    "“name”: ",
    "[TOOL_CALLS]",
    "<function=read_file>",
    "</function>",
    "```json\n",
    "\n```",
    "<think>",
    "</think>",
    "[TOOL_CALL]read_file[ARGS]",
    "<|tool_call_begin|>",
    "<|tool_call_end|>",
]


@joined_from(_PIECES, max_size=16, examples=500)
def test_generated_replies_with_calls_inside_calls_parse_as_with_every_reader(text: str):
    assert _seen(text) == _reference(text)


# How `parse_reply` told a finished reply from one cut off inside a call before it read the reply's end
# from its end: a search from every position (the reference).
_CLOSED_END_SEARCHED = re.compile(r"(?:```|</[\w:.\-]+>|<\|[\w/]+\|>|\[/\w+\])\s*$")
_ENDS = [*" \n\t`<>[]/|a_:.-", "```", "</tool_call>", "<|im_end|>", "[/TOOL_CALLS]", "</a b>", "<|a|", "ü"]


@joined_from(_ENDS, max_size=10, examples=800)
def test_a_closed_end_is_read_from_the_end_as_searched_from_the_start(text: str):
    assert _closed_end(text) == (_CLOSED_END_SEARCHED.search(text) is not None)


_MARKER_PIECES = [*MARKERS, *(marker[: len(marker) // 2] for marker in MARKERS), *" \nab<[|>]", "ü"]


def _found(pattern: re.Pattern[str], text: str) -> list[tuple[int, str]]:
    return [(match.start(), match.group()) for match in pattern.finditer(text)]


@joined_from(_MARKER_PIECES, max_size=12, examples=800)
def test_markers_are_found_as_by_one_alternative_per_marker_longest_first(text: str):
    one_each = re.compile("|".join(re.escape(marker) for marker in MARKERS))  # MARKERS: longest first
    assert _found(any_marker(MARKERS), text) == _found(one_each, text)
    learned = ("<|x_call|>", "<|x")
    with_learned = sorted({*MARKERS, *learned}, key=len, reverse=True)
    one_each = re.compile("|".join(re.escape(marker) for marker in with_learned))
    assert _found(any_marker((*MARKERS, *learned)), text + "<|x_call|><|x") == _found(
        one_each, text + "<|x_call|><|x"
    )
