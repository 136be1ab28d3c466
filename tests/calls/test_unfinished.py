# ruff: noqa: E501 - replies are kept whole, as models write them
"""No call runs from a reply that stopped inside it; closers quoted in arguments are data; nothing that
looks like a call vanishes (issue 28, points 2 to 4)."""

from __future__ import annotations

import pytest

from asi_agent.calls import parse_reply

SHELL = [
    {
        "type": "function",
        "function": {
            "name": "shell",
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string"}, "note": {"type": "null"}},
            },
        },
    }
]
CUT = [
    '<tool_call>\n{"name": "shell", "arguments": {"command": "rm -rf bui',
    '<tool_call>\n{"name": "shell", "arguments": {"command": "ls"}',
    "<tool_call>\n<function=shell>\n<parameter=command>\nrm -rf bu",
    "<tool_call>\n<function=shell>\n<parameter=command>\nls\n</parameter>\n",
    "<tool_call>shell<arg_key>command</arg_key><arg_value>rm -rf bu",
    "<tool_call>shell<arg_key>command</arg_key><arg_value>ls</arg_value>",
    '[TOOL_CALLS][{"name": "shell", "arguments": {"command": "rm -rf bu',
    '[TOOL_CALLS]shell[ARGS]{"command": "rm -rf bu',
    '<|python_tag|>{"name": "shell", "parameters": {"command": "rm -rf bu',
    '[shell(command="rm -rf bu',
    '<|tool_calls_section_begin|><|tool_call_begin|>functions.shell:0<|tool_call_argument_begin|>{"command": "rm',
    '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>shell<｜tool▁sep｜>{"command": "rm -rf bu',
    '```json\n{"name": "shell", "arguments": {"command": "rm -rf bu',
    '{"name": "shell", "arguments": {"command": "rm -rf bu',
    '[TOOL_CALL]shell[ARGS]{"command": "rm -rf bu',
    '<function=shell>{"command": "rm -rf bu',
    "<start_function_call>call:shell{command:<escape>rm -rf bu",
    '<|channel|>commentary to=functions.shell <|constrain|>json<|message|>{"command": "rm -rf bu',
    '<tool_calls>[{"name": "shell", "arguments": {"command": "ls"}}',
    '<tool_call>{"name": "shell", "arguments": {"command": "ls"}}</tool_call>\n<tool_call>{"name": "shell", "argu',
]


@pytest.mark.parametrize("reply", CUT, ids=range(len(CUT)))
def test_a_call_cut_off_is_reported_and_not_run(reply):
    parsed = parse_reply(reply, SHELL)
    assert parsed.calls == ()
    assert parsed.problems


def test_the_calls_before_a_cut_one_are_named_in_the_report():
    reply = CUT[-1]
    parsed = parse_reply(reply, SHELL)
    assert any("not run: shell" in item for item in parsed.problems)


@pytest.mark.parametrize(
    ("reply", "arguments"),
    [
        (
            '<tool_call>\n{"name": "shell", "arguments": {"command": "echo </tool_call>"}}\n</tool_call>',
            {"command": "echo </tool_call>"},
        ),
        (
            "<tool_call>shell<arg_key>command</arg_key><arg_value>echo </tool_call> done</arg_value></tool_call>",
            {"command": "echo </tool_call> done"},
        ),
        (
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.shell:0<|tool_call_argument_begin|>"
            '{"command": "echo <|tool_calls_section_end|> <|tool_call_end|>"}<|tool_call_end|><|tool_calls_section_end|>',
            {"command": "echo <|tool_calls_section_end|> <|tool_call_end|>"},
        ),
    ],
)
def test_a_closer_inside_an_argument_does_not_end_the_call(reply, arguments):
    parsed = parse_reply(reply, SHELL)
    assert [(call.name, call.arguments) for call in parsed.calls] == [("shell", arguments)]
    assert parsed.problems == ()


def test_glm_details():
    newline = "<tool_call>\nshell\n<arg_key>command</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>"
    assert [c.arguments for c in parse_reply(newline, SHELL).calls] == [{"command": "ls"}]
    quoted = '<tool_call>shell<arg_key>command</arg_key><arg_value>"ls -l"</arg_value></tool_call>'
    assert [c.arguments for c in parse_reply(quoted, SHELL).calls] == [{"command": "ls -l"}]
    null = "<tool_call>shell<arg_key>command</arg_key><arg_value>ls</arg_value><arg_key>note</arg_key><arg_value>null</arg_value></tool_call>"
    assert [c.arguments for c in parse_reply(null, SHELL).calls] == [{"command": "ls", "note": None}]


def test_a_call_id_is_not_taken_for_a_tool_name():
    parsed = parse_reply('<tool_call>{"name": "call_0", "arguments": {"command": "ls"}}</tool_call>', SHELL)
    assert parsed.calls == ()
    assert "call id" in parsed.problems[0]
    kept = parse_reply('{"id": "call_0", "name": "shell", "arguments": {"command": "ls"}}', SHELL)
    assert [(c.id, c.name) for c in kept.calls] == [("call_0", "shell")]


@pytest.mark.parametrize(
    "reply",
    [
        "<longcat_tool_call>shell<longcat_arg_key>command</longcat_arg_key>",
        "Let me run it.\n<my_function_call name=shell>ls",
        'I will call shell{"command": ls} now.',
        "shell(command=ls -l",
    ],
)
def test_something_call_shaped_never_vanishes(reply):
    parsed = parse_reply(reply, SHELL)
    assert parsed.calls or parsed.problems, reply


def test_prose_that_names_a_tool_is_left_alone():
    parsed = parse_reply("The shell tool runs commands; I used it to list the files.", SHELL)
    assert parsed.calls == () and parsed.problems == ()
    echoed = parse_reply("<tool_response>\nREADME.md\n</tool_response>\nThe folder holds README.md.", SHELL)
    assert echoed.problems == ()
