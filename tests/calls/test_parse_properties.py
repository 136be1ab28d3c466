"""Property-based tests: the reply parser never raises, and rendered call lines parse back unchanged."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asi_agent.calls import ParsedReply, parse_reply, parse_status, render_call_line, strip_status
from asi_agent.messages import ToolCall

FAST = settings(max_examples=200, deadline=None)

FRAGMENTS = st.sampled_from(
    [
        "[TOOL_CALL]",
        "[ARGS]",
        "[/TOOL_CALL]",
        "[TOOL:",
        "]",
        "[/TOOL]",
        "<tool_call>",
        "</tool_call>",
        "```",
        "```json\n",
        "```json action\n",
        "{",
        "}",
        "[",
        '"',
        "'",
        "“",
        "”",
        "‘",
        "’",
        ":",
        ",",
        "\\",
        "\n",
        " ",
        "read_file",
        '"name"',
        '"arguments"',
        '"tool"',
        '"function"',
        '{"path": "a.py"}',
        "null",
        "1e999",
        "AGENT_STATUS: DONE",
    ]
)
SYNTAX_SOUP = st.lists(st.one_of(FRAGMENTS, st.text(max_size=5)), max_size=40).map("".join)

TOOL_NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,30}", fullmatch=True)
JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
JSON_VALUES = st.recursive(
    JSON_SCALARS | st.text(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(), children, max_size=3),
    max_leaves=8,
)
ARGUMENTS = st.dictionaries(st.text(), JSON_VALUES, max_size=5)


def check_shape(reply: ParsedReply) -> None:
    assert isinstance(reply.text, str)
    assert all(isinstance(call, ToolCall) and call.name.strip() for call in reply.calls)
    assert all(isinstance(call.arguments, dict) for call in reply.calls)
    assert all(isinstance(problem, str) and problem for problem in reply.problems)


@FAST
@given(st.text())
def test_parse_reply_never_raises_on_arbitrary_text(text):
    check_shape(parse_reply(text))
    parse_status(text)
    strip_status(text)


@FAST
@given(SYNTAX_SOUP)
def test_parse_reply_never_raises_on_call_syntax_fragments(text):
    check_shape(parse_reply(text))


@pytest.mark.parametrize("depth", [2, 3000])
@pytest.mark.parametrize("opener", ["{", "[", '{"a":', "[TOOL_CALL]x[ARGS]{", "```json\n{", "<tool_call>["])
def test_parse_reply_survives_deep_nesting_and_runaway_repetition(depth, opener):
    """A model looping on call syntax gets problems back, never an exception."""
    for prefix in ("<tool_call>", "[TOOL_CALL]x[ARGS]", "```json action\n"):
        reply = parse_reply(prefix + opener * depth)
        check_shape(reply)
        assert reply.problems or reply.calls or reply.text


@FAST
@given(TOOL_NAMES, ARGUMENTS)
def test_rendered_call_line_round_trips(name, arguments):
    reply = parse_reply(render_call_line(ToolCall(id="c", name=name, arguments=arguments)))
    assert reply.problems == ()
    assert [(call.name, call.arguments) for call in reply.calls] == [(name, arguments)]
    assert reply.text == ""


@FAST
@given(st.lists(st.tuples(TOOL_NAMES, ARGUMENTS), min_size=1, max_size=4), st.sampled_from(["\n", "\n\n"]))
def test_several_rendered_lines_round_trip_in_order(calls, separator):
    text = separator.join(render_call_line(ToolCall("c", name, args)) for name, args in calls)
    reply = parse_reply("Working on it." + separator + text)
    assert [(call.name, call.arguments) for call in reply.calls] == calls
    assert reply.text == "Working on it."


DIALECT_FRAGMENTS = st.sampled_from(
    [
        "<tool_call>",
        "</tool_call>",
        "<function=f>",
        "</function>",
        "<parameter=p>",
        "</parameter>",
        '<invoke name="f">',
        "</invoke>",
        "<arg_key>",
        "</arg_key>",
        "<arg_value>",
        "</arg_value>",
        "[TOOL_CALLS]",
        "[ARGS]",
        "[CALL_ID]",
        "<|python_tag|>",
        "<|eom_id|>",
        "[f(a=1)",
        "g(",
        ")]",
        "'",
        "<|python_start|>",
        "<|tool_call_start|>",
        "<tool_calls>",
        "<|tool_call|>",
        "functools[",
        '{"tool_calls": [',
        "<｜tool▁calls▁begin｜>",
        "<｜tool▁call▁begin｜>",
        "<｜tool▁sep｜>",
        "<｜tool▁call▁end｜>",
        "function",
        "<|tool_calls_section_begin|>",
        "<|tool_call_begin|>",
        "functions.f:0",
        "<|tool_call_argument_begin|>",
        "<|start|>assistant",
        "<|channel|>",
        "commentary",
        " to=functions.f",
        "<|constrain|>json",
        "<|message|>",
        "<|call|>",
        "<|end|>",
        "<start_function_call>",
        "call:f{",
        "a:",
        "<escape>",
        "<end_function_call>",
        ">>>",
        "all\n",
        "Action: ```json\n",
        "<|START_ACTION|>",
        "<|END_ACTION|>",
        "<think>",
        "</think>",
        "<|channel|>analysis<|message|>",
        '{"name": "f", ',
        '"arguments": ',
        '"parameters": {',
        "[",
        "]",
        "{",
        "}",
        '"',
        ":",
        ",",
        ";",
        "\n",
        " ",
        "1",
        "true",
        "```tool_code\n",
        "print(",
        "\\",
    ]
)
DIALECT_SOUP = st.lists(st.one_of(DIALECT_FRAGMENTS, st.text(max_size=4)), max_size=50).map("".join)


@settings(max_examples=400, deadline=None)
@given(DIALECT_SOUP)
def test_parse_reply_never_raises_on_any_dialect_syntax(text):
    check_shape(parse_reply(text))
    check_shape(
        parse_reply(
            text,
            [
                {
                    "type": "function",
                    "function": {
                        "name": "f",
                        "parameters": {
                            "type": "object",
                            "properties": {"a": {"type": "integer"}, "p": {"type": "array"}},
                        },
                    },
                }
            ],
        )
    )


@pytest.mark.parametrize(
    "opener",
    [
        "<tool_call>\n<function=f>\n<parameter=p>\n[",
        "[f(a=[",
        "<start_function_call>call:f{a:{",
        "<think>",
        "<|tool_calls_section_begin|>",
        "<｜tool▁calls▁begin｜>",
        "[TOOL_CALLS][",
        " to=functions.f<|message|>{",
    ],
)
def test_dialects_survive_runaway_repetition(opener):
    check_shape(parse_reply(opener * 3000))
