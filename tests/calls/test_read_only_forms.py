"""Call forms the runtime reads but never asks for (Solar Open 2's argument tokens, MiniCPM 5's named
parameters, PLaMo 3's request tokens), and what a read call leaves in the text: no empty wrapper, no
closing token, no lone end of reasoning. The replies are written here; none comes from a sealed set."""

from __future__ import annotations

from replies import named, tools

from asi_agent.backends.scripted import ScriptedBackend
from asi_agent.calls import parse_reply
from asi_agent.calls.adapter import CallAdapter
from asi_agent.messages import Message

FILES = tools(read_file={"path": "string", "limit": "integer"}, list_dir={"path": "string"})

# --- argument tokens (Solar Open 2) ----------------------------------------------------------------------


def _arg(key: str, value: str) -> str:
    return f"<|tool_arg:start|>{key}<|tool_arg:value|>{value}<|tool_arg:end|>"


def test_argument_tokens_give_typed_calls_and_leave_the_prose():
    reply = parse_reply(
        "Reading both.\n<|tool_call:start|>read_file\n"
        + _arg("path", "src/main.rs")
        + "\n"
        + _arg("limit", "40")
        + "\n<|tool_call:end|><|tool_call:start|>list_dir\n"
        + _arg("path", "src")
        + "<|tool_call:end|>",
        FILES,
    )
    assert named(reply) == [
        ("read_file", {"path": "src/main.rs", "limit": 40}),
        ("list_dir", {"path": "src"}),
    ]
    assert reply.text == "Reading both." and reply.problems == ()


def test_argument_tokens_without_arguments_a_dropped_end_and_a_repeated_key():
    assert named(parse_reply("<|tool_call:start|>list_dir<|tool_call:end|>")) == [("list_dir", {})]
    dropped = "<|tool_call:start|>read_file\n<|tool_arg:start|>path<|tool_arg:value|>a.txt" + _arg(
        "limit", "3"
    )
    assert named(parse_reply(dropped + "<|tool_call:end|>", FILES)) == [
        ("read_file", {"path": "a.txt", "limit": 3})
    ]
    twice = "<|tool_call:start|>list_dir\n" + _arg("path", "docs") + _arg("path", "src") + "<|tool_call:end|>"
    assert named(parse_reply(twice, FILES)) == [("list_dir", {"path": "docs"})]


def test_argument_tokens_cut_off_run_nothing_and_are_reported():
    reply = parse_reply(
        "<|tool_call:start|>list_dir\n" + _arg("path", "a") + "<|tool_call:end|>"
        "<|tool_call:start|>read_file\n<|tool_arg:start|>path<|tool_arg:value|>src/ma",
        FILES,
    )
    assert reply.calls == ()
    assert "stopped before the call was complete" in reply.problems[0]
    assert "none of its calls ran (not run: list_dir)" in reply.problems[-1]


def test_reasoning_in_think_tokens_is_split_off_before_a_token_call():
    reply = parse_reply(
        "<|think:start|>The user wants the file.<|think:end|>Sure."
        "<|tool_call:start|>list_dir<|tool_call:end|>"
    )
    assert named(reply) == [("list_dir", {})]
    assert reply.reasoning == "The user wants the file." and reply.text == "Sure."


# --- named parameters (MiniCPM 5) --------------------------------------------------------------------------


def test_named_parameters_are_read_with_cdata_and_typed_values():
    reply = parse_reply(
        'First.\n<function name="read_file"><param name="path"><![CDATA[notes/a <b>.md]]></param>'
        '<param name="limit">12</param></function>\nThen.\n<function name="list_dir"></function>\n',
        FILES,
    )
    assert named(reply) == [("read_file", {"path": "notes/a <b>.md", "limit": 12}), ("list_dir", {})]
    assert reply.text == "First.\n\nThen." and reply.problems == ()


def test_named_parameters_with_the_tokenizers_space_marker_or_no_space():
    for space in ("\u0120", ""):
        reply = parse_reply(
            f'<function{space}name="list_dir"><param{space}name="path">lib</param></function>'
        )
        assert named(reply) == [("list_dir", {"path": "lib"})]


def test_named_parameters_missing_a_name_given_twice_or_cut_off_are_reported():
    for broken in (
        '<function name="list_dir"><param>lib</param></function>',
        '<function name="list_dir"><param name="path">a</param><param name="path">b</param></function>',
        '<function name="list_dir"><param name="path">li',
    ):
        reply = parse_reply(broken, FILES)
        assert reply.calls == () and len(reply.problems) == 1, broken


# --- request tokens (PLaMo 3) ------------------------------------------------------------------------------


def _request(name: str, arguments: str) -> str:
    return (
        "<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>"
        + name
        + "<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json"
        + "<|plamo:msg|>"
        + arguments
        + "<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>"
    )


def test_request_tokens_give_the_calls_of_a_closed_section():
    reply = parse_reply(
        "Looking.<|plamo:begin_tool_requests:plamo|>"
        + _request("list_dir", '{"path": "."}')
        + _request("read_file", '{"path": "a.py", "limit": 5}')
        + "<|plamo:end_tool_requests:plamo|><|plamo:tag|>"
    )
    assert named(reply) == [("list_dir", {"path": "."}), ("read_file", {"path": "a.py", "limit": 5})]
    assert reply.text == "Looking." and reply.problems == ()


def test_request_tokens_of_a_section_that_never_closed_are_reported():
    reply = parse_reply("Looking.<|plamo:begin_tool_requests:plamo|>" + _request("list_dir", '{"path": "."}'))
    assert reply.calls == () and len(reply.problems) == 1


def test_the_turns_end_token_ends_the_text_and_a_token_cut_at_its_start_goes():
    assert parse_reply("All done.<|plamo:tag|>stray words").text == "All done."
    assert parse_reply("All done.<|plamo:en").text == "All done."


# --- what a read call leaves behind ------------------------------------------------------------------------


def test_a_wrapper_emptied_by_reading_its_call_is_taken_out():
    reply = parse_reply(
        'On it.<agent_tool_call><invoke name="list_dir"><parameter name="path">src</parameter></invoke>'
        "</agent_tool_call>",
        FILES,
    )
    assert named(reply) == [("list_dir", {"path": "src"})]
    assert reply.text == "On it."


def test_closing_control_tokens_after_a_call_go_with_it():
    reply = parse_reply(
        'Checking now. <|calls_begin|>[{"name": "list_dir", "arguments": {"path": "src"}}]<|calls_end|>'
    )
    assert named(reply) == [("list_dir", {"path": "src"})]
    assert reply.text == "Checking now."


def test_an_empty_wrapper_written_without_a_call_is_still_reported():
    reply = parse_reply("<tool_call></tool_call>")
    assert reply.calls == () and reply.problems


def test_json_arguments_with_a_bare_word_value_are_reported_not_guessed():
    reply = parse_reply("[TOOL_CALL]list_dir[ARGS]{path: docs/api}", FILES)
    assert reply.calls == () and reply.problems
    unquoted_key = parse_reply('[TOOL_CALL]list_dir[ARGS]{path: "docs/api"}', FILES)
    assert named(unquoted_key) == [("list_dir", {"path": "docs/api"})]


async def test_a_lone_end_of_reasoning_leaves_the_text_a_client_sees():
    model = ScriptedBackend(["</think>The answer is 4."], native=False)
    reply = await CallAdapter(model).complete([Message("user", "2+2?")], FILES)
    assert reply.text == "The answer is 4." and reply.retry is None
