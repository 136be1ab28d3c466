"""`could_hold_call`, the parser's cheap first test: a reply it passes over is one no reader, no
template shape and no reasoning splitter would take anything from — checked against every dialect's own
reader on the corpus of real replies and on forms of them stripped down until the test lets them pass."""

from __future__ import annotations

from itertools import islice

import pytest
from corpus import CASES
from hypothesis import given, settings
from hypothesis import strategies as st

from asi_agent.calls import parse_reply
from asi_agent.calls.dialects import DIALECTS, ReadContext
from asi_agent.calls.parse import could_hold_call
from asi_agent.calls.reasoning import reasoning_regions
from asi_agent.calls.template.known import KNOWN_SHAPES
from asi_agent.calls.template.reader import scan_shape

_STRIPPED = str.maketrans("", "", '<[{(`|\n"“')


def _variants(reply: str) -> list[str]:
    """The reply, on one line, and with the characters the test looks for taken out step by step."""
    flat = " ".join(reply.split())
    return [reply, flat, flat.translate(_STRIPPED), reply.translate(_STRIPPED), *reply.split("\n")]


_TEXTS = sorted({text for case in CASES for text in _variants(case.reply)})


def _anything_read(text: str) -> list[str]:
    """What any reader takes from `text`: each dialect's spans, each known shape's, reasoning."""
    ctx = ReadContext.from_tools([])
    found = [d.name for d in DIALECTS for _ in islice(d.scan(text, ctx), 1)]
    found += [s.name for s in KNOWN_SHAPES for _ in islice(scan_shape(text, ctx, s), 1)]
    return found + ["reasoning" for _ in reasoning_regions(text)]


def test_every_reply_of_the_corpus_with_a_call_or_a_problem_is_read():
    for case in CASES:
        if case.calls or case.problem:
            assert could_hold_call(case.reply), case.reply


def test_text_passed_over_is_text_no_reader_takes_anything_from():
    passed = [text for text in _TEXTS if not could_hold_call(text)]
    assert len(passed) >= 100, "the stripped forms must exercise the quick path"
    assert {text: _anything_read(text) for text in passed if _anything_read(text)} == {}


def test_text_passed_over_comes_back_tidied_and_without_calls():
    reply = parse_reply("  Done: the answer is 42, see the notes below.   ")
    assert reply.text == "  Done: the answer is 42, see the notes below."  # a first line keeps its indent
    assert (reply.calls, reply.problems, reply.reasoning, reply.dialect) == ((), (), "", "")


@pytest.mark.parametrize(
    "reply",
    [
        'read_file {"path": "a.py"}',  # a name followed by arguments: reported, so read
        "<think>plan</think>Done.",
        "Done.<|im_end|>",
        "to=functions.read_file json",
        "Action: read_file",
        "｜tool▁calls▁begin｜",
    ],
)
def test_a_reply_with_anything_a_reader_looks_for_is_read(reply: str):
    assert could_hold_call(reply)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([*"abc :;.,!?'_-=>/1▁｜", "read_file", "tool", "Action", "to=f"]), max_size=30)
)
def test_no_generated_text_passed_over_is_taken_by_any_reader(pieces: list[str]):
    text = "".join(pieces)
    if not could_hold_call(text):
        assert _anything_read(text) == []
