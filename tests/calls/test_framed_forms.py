"""Forms read since the gateway's third sealed set: invoke elements with an XML namespace (also inside
DeepSeek-style call tokens), `<tool: …>` blocks, recipient headers and messages a model writes to itself,
more reasoning blocks, a name line above a JSON body; and what is never run: a call the model only wrote
inside its reasoning, a call whose wrapper never closed, JSON whose closing brackets were never written.
The replies are written here; none comes from a sealed set."""

from __future__ import annotations

from replies import named, tools

from asi_agent.backends.scripted import ScriptedBackend
from asi_agent.calls import parse_reply
from asi_agent.calls.adapter import CallAdapter
from asi_agent.messages import Message

FILES = tools(read_file={"path": "string", "limit": "integer"}, run={"cmd": "string"})

# --- invoke elements with a namespace ---------------------------------------------------------------------


def test_invoke_elements_with_any_namespace_are_read_with_their_wrapper():
    reply = parse_reply(
        "Reading it.\n<acme:function_calls>\n"
        '<acme:invoke name="read_file"><acme:parameter name="path">a.py</acme:parameter>'
        '<acme:parameter name="limit">20</acme:parameter></acme:invoke>\n'
        '<acme:invoke name="run"><acme:parameter name="cmd">ls</acme:parameter></acme:invoke>\n'
        "</acme:function_calls>",
        FILES,
    )
    assert named(reply) == [("read_file", {"path": "a.py", "limit": 20}), ("run", {"cmd": "ls"})]
    assert reply.text == "Reading it." and not reply.problems


def test_an_inline_parameter_keeps_its_spaces_and_line_breaks():
    reply = parse_reply(
        '<x:invoke name="run"><x:parameter name="cmd">  echo a\n</x:parameter></x:invoke>', FILES
    )
    assert named(reply) == [("run", {"cmd": "  echo a\n"})]


def test_an_invoke_cut_off_by_the_end_of_the_reply_is_reported():
    reply = parse_reply('<x:invoke name="run"><x:parameter name="cmd">rm -r bu', FILES)
    assert reply.calls == () and reply.problems


def test_call_tokens_around_an_invoke_element_are_read_as_one_call():
    begin, end = "<｜tool_calls_begin｜><｜tool_call_begin｜>", "<｜tool_call_end｜><｜tool_calls_end｜>"
    invoke = '<st:invoke name="read_file"><st:parameter name="path">b.md</st:parameter></st:invoke>'
    reply = parse_reply("Let me look.\n" + begin + invoke + end, FILES)
    assert named(reply) == [("read_file", {"path": "b.md"})]
    assert reply.text == "Let me look."
    named_first = parse_reply(begin + "function<｜tool_sep｜>read_file\n" + invoke + end, FILES)
    assert named(named_first) == [("read_file", {"path": "b.md"})] and named_first.text == ""
    cut = parse_reply(begin + '<st:invoke name="read_file">', FILES)
    assert cut.calls == () and cut.problems


# --- `<tool: …>` blocks -----------------------------------------------------------------------------------


def test_tool_blocks_give_the_name_then_text_or_json_arguments():
    reply = parse_reply(
        "First:\n<tool: function>\nrun ls -la | head\n</tool>\n"
        '<tool: function>\nread_file {"path": "c.txt"}\n</tool>\n',
        FILES,
    )
    assert named(reply) == [("run", {"cmd": "ls -la | head"}), ("read_file", {"path": "c.txt"})]
    assert reply.text == "First:"


def test_a_tool_block_for_an_unknown_tool_passes_its_text_as_the_command():
    reply = parse_reply("<tool: shell pwd </tool>")
    assert named(reply) == [("shell", {"command": "pwd"})]


def test_a_tool_block_never_closed_is_reported():
    reply = parse_reply("<tool: function>\nrun make", FILES)
    assert reply.calls == () and reply.problems


def test_a_namespaced_tag_no_reader_knows_is_reported_not_left_as_text():
    reply = parse_reply("<function: lookup q=weather>")
    assert reply.calls == () and reply.problems


# --- recipient headers ------------------------------------------------------------------------------------


def test_headers_addressing_a_message_are_framing_and_a_message_to_itself_is_reasoning():
    reply = parse_reply(
        " to=self<|message|>Check the file first.<|eom|><|start|>assistant to=user<|message|>Ok."
    )
    assert reply.text == "Ok." and reply.reasoning == "Check the file first."
    call = parse_reply(
        " to=self<|message|>Need it.<|start|>assistant to=run<|message|><q:function_calls>"
        '<q:invoke name="run"><q:parameter name="cmd">pwd</q:parameter></q:invoke></q:function_calls><|eom|>',
        FILES,
    )
    assert named(call) == [("run", {"cmd": "pwd"})] and call.text == ""


def test_a_message_token_in_the_middle_of_the_prose_is_the_models_text():
    assert parse_reply("Write <|message|> before the body.").text == "Write <|message|> before the body."


def test_a_message_to_a_tool_that_holds_no_call_is_reported():
    reply = parse_reply(' to=read_file<|message|>{"path": "a.py"}', FILES)
    assert reply.calls == () and reply.problems


def test_a_control_token_fumbled_into_a_name_is_not_part_of_it():
    reply = parse_reply('<k:invoke name="run<|message|>"><k:parameter name="cmd">ls</k:parameter></k:invoke>')
    assert named(reply) == [("run", {"cmd": "ls"})]


# --- reasoning blocks and role tokens ---------------------------------------------------------------------


def test_more_reasoning_blocks_and_role_tokens_stay_out_of_the_text():
    apertus = parse_reply(
        "<|assistant_start|>Sure.<|inner_prefix|>Plan it.<|inner_suffix|> Done.<|assistant_end|>"
    )
    assert apertus.text == "Sure. Done." and apertus.reasoning == "Plan it."
    thought = parse_reply("<thought>Easy one.</thought>\nIt is 7.")
    assert thought.text == "It is 7." and thought.reasoning == "Easy one."


# --- a name line above a JSON body, a label line ----------------------------------------------------------


def test_a_wrapper_with_the_name_on_its_first_line_and_json_below_is_one_call():
    reply = parse_reply('<tool_call>read_file\n{"path": "d.py", "limit": 5}\n</tool_call>', FILES)
    assert named(reply) == [("read_file", {"path": "d.py", "limit": 5})]


def test_a_label_line_above_a_read_call_goes_with_it():
    reply = parse_reply(
        'Here you go.\n**Function call:**\n```json\n{"name": "run", "arguments": {"cmd": "ls"}}\n```', FILES
    )
    assert named(reply) == [("run", {"cmd": "ls"})] and reply.text == "Here you go."


# --- never run --------------------------------------------------------------------------------------------


def test_a_call_written_only_inside_the_reasoning_is_reported_and_not_run():
    reply = parse_reply(
        '<think>Maybe <tool_call>{"name": "run", "arguments": {"cmd": "ls"}}</tool_call> would do.</think>',
        FILES,
    )
    assert reply.calls == () and len(reply.problems) == 1
    assert "inside the reasoning" in reply.problems[0]


def test_a_call_considered_in_the_reasoning_beside_an_answer_or_a_call_stays_quiet():
    answered = parse_reply(
        '<think>I could <tool_call>{"name": "run", "arguments": {"cmd": "ls"}}</tool_call>.</think>'
        "No need: 4.",
        FILES,
    )
    assert answered.calls == () and not answered.problems and answered.text == "No need: 4."
    acted = parse_reply(
        '<think><tool_call>{"name": "run", "arguments": {"cmd": "ls"}}</tool_call></think>'
        '<tool_call>{"name": "read_file", "arguments": {"path": "e.py"}}</tool_call>',
        FILES,
    )
    assert named(acted) == [("read_file", {"path": "e.py"})] and not acted.problems


def test_a_call_whose_wrapper_never_closed_at_the_end_of_the_reply_is_reported():
    unclosed = parse_reply(
        "<tool_call>\n<function=run>\n<parameter=cmd>\nls\n</parameter>\n</function>", FILES
    )
    assert unclosed.calls == () and unclosed.problems
    closed = parse_reply(
        "<tool_call>\n<function=run>\n<parameter=cmd>\nls\n</parameter>\n</function>\n</tool_call>"
    )
    assert named(closed) == [("run", {"cmd": "ls"})]


def test_json_missing_a_closing_bracket_is_reported_not_repaired():
    reply = parse_reply('```json\n{"name": "run", "arguments": {"cmd": "ls"}\n```', FILES)
    assert reply.calls == () and reply.problems
    trailing_comma = parse_reply('```json\n{"name": "run", "arguments": {"cmd": "ls",}}\n```', FILES)
    assert named(trailing_comma) == [("run", {"cmd": "ls"})]


async def test_the_agent_is_asked_again_for_a_call_it_wrote_only_in_its_reasoning():
    replies = (
        '<think><tool_call>{"name": "run", "arguments": {"cmd": "ls"}}</tool_call></think>',
        '<tool_call>{"name": "run", "arguments": {"cmd": "ls"}}</tool_call>',
    )
    once = await CallAdapter(ScriptedBackend(list(replies), native=False), max_retries=0).complete(
        [Message("user", "List the files.")], FILES
    )
    assert once.native_calls == () and once.retry is not None and "inside the reasoning" in once.retry
    again = await CallAdapter(ScriptedBackend(list(replies), native=False)).complete(
        [Message("user", "List the files.")], FILES
    )
    assert [(call.name, call.arguments) for call in again.native_calls] == [("run", {"cmd": "ls"})]
