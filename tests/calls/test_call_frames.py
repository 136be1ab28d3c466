"""Call frames the readers learned from the first gateway sealed set's misses: Python calls one per line in
a `<function_calls>` block (with JSON's literals), control-token headers and end-of-sequence tokens kept
out of the text, and wrapper calls without their arguments object or with half an opener reported."""

from __future__ import annotations

import pytest
from replies import named

from asi_agent.calls import parse_reply

CALL = '{"name": "add_note", "arguments": {"t": "x"}}'
NOTE = {"type": "function", "function": {"name": "add_note", "parameters": {"type": "object"}}}


def test_a_function_calls_block_of_python_calls_one_per_line():
    reply = parse_reply(
        "Two lookups.\n<function_calls>find_book(title='Dune', year=1965)\n"
        "list_shelves()</function_calls>\nBack soon."
    )
    assert named(reply) == [("find_book", {"title": "Dune", "year": 1965}), ("list_shelves", {})]
    assert reply.problems == ()
    assert reply.text == "Two lookups.\n\nBack soon."
    assert reply.dialect == "pythonic"


def test_json_literals_in_a_python_call_read_as_python_constants():
    reply = parse_reply(
        "<function_calls>set_flags(dry_run=true, verbose=false, limit=null, tags=['a', true])"
        "</function_calls>"
    )
    flags = {"dry_run": True, "verbose": False, "limit": None, "tags": ["a", True]}
    assert named(reply) == [("set_flags", flags)]
    # A Python name that is not a JSON literal is still no value.
    broken = parse_reply("<function_calls>set_flags(mode=fast)</function_calls>")
    assert broken.calls == () and broken.problems


def test_one_broken_call_in_a_block_spares_the_others_and_is_reported():
    reply = parse_reply("<function_calls>resize(w=3+)\nrotate(angle=90)</function_calls>")
    assert named(reply) == [("rotate", {"angle": 90})]
    assert len(reply.problems) == 1 and "resize" in reply.problems[0]


@pytest.mark.parametrize(
    "reply",
    [
        "<function_calls>rotate(angle=90)\nresize(w=3",
        "Working on it.\n<function_calls>resize(w=3, h=",
    ],
)
def test_a_block_the_reply_stopped_inside_runs_nothing(reply):
    parsed = parse_reply(reply)
    assert parsed.calls == ()
    assert parsed.problems and "stopped" in parsed.problems[0]


def test_a_block_of_another_format_is_left_to_its_reader():
    xml = '<invoke name="rotate">\n<parameter name="angle">90</parameter>\n</invoke>'
    reply = parse_reply(f"<function_calls>\n{xml}\n</function_calls>")
    assert named(reply) == [("rotate", {"angle": 90})]
    assert reply.problems == ()


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        (f"On it.<|turn_sep|>\n\ntool request<|body_sep|>\n{CALL}", "On it."),
        (f"Noted.<|tool_request|>{CALL}<|im_end|>", "Noted."),
    ],
)
def test_control_tokens_framing_a_call_stay_out_of_the_text(reply, text):
    parsed = parse_reply(reply, [NOTE])
    assert named(parsed) == [("add_note", {"t": "x"})]
    assert parsed.text == text


def test_end_of_sequence_tokens_end_a_plain_answer_without_showing():
    assert parse_reply("The build is green.</s>").text == "The build is green."
    assert parse_reply("Done.<|endoftext|>\n").text == "Done."
    # Control tokens in the middle of prose are the model's words, not its stop.
    assert parse_reply("Write <|im_end|> to stop.").text == "Write <|im_end|> to stop."


@pytest.mark.parametrize(
    "reply",
    [
        '<tool_calls>[{"name": "add_note"}]</tool_calls>',
        '<|tool_call|>[{"name": "add_note", "arguments": {"t": "x"}}, {"name": "add_note"}]<|/tool_call|>',
    ],
)
def test_a_wrapped_call_without_its_arguments_object_is_reported_not_run(reply):
    parsed = parse_reply(reply, [NOTE])
    assert parsed.calls == ()
    assert parsed.problems and "arguments" in parsed.problems[0]


def test_a_wrapped_call_with_empty_arguments_still_runs():
    parsed = parse_reply('<tool_calls>[{"name": "add_note", "arguments": {}}]</tool_calls>', [NOTE])
    assert named(parsed) == [("add_note", {})] and parsed.problems == ()


def test_half_an_opener_before_a_call_is_reported_not_run():
    parsed = parse_reply('Saving.<|action_start|>{"name": "add_note", "parameters": {"t": "x"}}', [NOTE])
    assert parsed.calls == ()
    assert parsed.problems and "<|plugin|>" in parsed.problems[0]
    call = '{"name": "add_note", "parameters": {"t": "x"}}'
    whole = parse_reply(f"<|action_start|><|plugin|>{call}<|action_end|>")
    assert named(whole) == [("add_note", {"t": "x"})]
