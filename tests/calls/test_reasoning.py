"""Reasoning is not action: thinking blocks are split off before calls are read, and streamed apart."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asi_agent.calls import ReasoningSplitter, parse_reply, split_reasoning

CALL = '<tool_call>{"name": "delete_file", "arguments": {"path": "a.py"}}</tool_call>'


@pytest.mark.parametrize(
    ("reply", "reasoning", "text"),
    [
        ("<think>plan</think>Answer.", "plan", "Answer."),
        ("plan</think>Answer.", "plan", "Answer."),
        ("<seed:think>plan</seed:think>\nAnswer.", "plan", "Answer."),
        (
            "<|START_THINKING|>plan<|END_THINKING|><|START_RESPONSE|>Answer.<|END_RESPONSE|>",
            "plan",
            "Answer.",
        ),
        (
            "<|channel|>analysis<|message|>plan<|end|><|start|>assistant<|channel|>final<|message|>Answer.",
            "plan",
            "Answer.",
        ),
        ("[THINK]plan[/THINK]Answer.", "plan", "Answer."),
        ("<think>still going", "still going", ""),
        ("No thinking here.", "", "No thinking here."),
    ],
)
def test_thinking_blocks_are_split_from_the_answer(reply, reasoning, text):
    parsed = parse_reply(reply)
    assert (parsed.reasoning, parsed.text, parsed.calls, parsed.problems) == (reasoning, text, (), ())


def test_a_call_written_while_thinking_is_not_made():
    parsed = parse_reply(f"<think>maybe {CALL}</think>I will not delete anything.")
    assert parsed.calls == () and parsed.problems == ()
    assert parsed.text == "I will not delete anything."
    assert "delete_file" in parsed.reasoning


def test_a_call_after_a_lone_end_of_thinking_is_made_and_the_thinking_is_not():
    parsed = parse_reply(
        f"I could {CALL} but no.</think>Reading.\n" + CALL.replace("delete_file", "read_file")
    )
    assert [call.name for call in parsed.calls] == ["read_file"]
    assert parsed.text == "Reading."


def test_think_tags_inside_call_arguments_are_data():
    reply = '[TOOL_CALL]write_file[ARGS]{"path": "p.md", "content": "<think>x</think> and </think>"}'
    parsed = parse_reply(reply)
    assert [call.arguments["content"] for call in parsed.calls] == ["<think>x</think> and </think>"]
    assert parsed.reasoning == ""


def test_an_unclosed_block_ends_where_a_call_begins():
    parsed = parse_reply("<think>I need the file" + CALL.replace("delete_file", "read_file"))
    assert [call.name for call in parsed.calls] == ["read_file"]
    assert parsed.reasoning == "I need the file"


def test_split_reasoning_returns_the_rest_untouched():
    assert split_reasoning("a<think>b</think>c") == ("b", "ac")


def _stream(deltas: list[str]) -> list[tuple[str, str]]:
    splitter = ReasoningSplitter()
    parts = [part for delta in deltas for part in splitter.feed(delta)] + splitter.flush()
    merged: list[tuple[str, str]] = []
    for kind, piece in parts:
        if merged and merged[-1][0] == kind:
            merged[-1] = (kind, merged[-1][1] + piece)
        else:
            merged.append((kind, piece))
    return merged


def test_stream_splits_tags_cut_across_deltas():
    deltas = ["Hi <th", "ink>pla", "n</thi", "nk> done"]
    assert _stream(deltas) == [("text", "Hi "), ("reasoning", "plan"), ("text", " done")]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="ab </thinkTHINK[]", max_size=40), st.integers(1, 7))
def test_stream_parts_do_not_depend_on_how_the_reply_was_cut(text, size):
    deltas = [text[i : i + size] for i in range(0, len(text), size)]
    assert _stream(deltas) == _stream([text])
