"""Parsing of native calls, text call forms and AGENT_STATUS lines."""

from __future__ import annotations

import json
import re

import pytest
from replies import named

from asi_agent.calls import (
    ParsedReply,
    decode_arguments,
    new_call_id,
    normalize_native,
    parse_reply,
    parse_status,
    render_call_line,
    strip_status,
)
from asi_agent.exceptions import CallFormatError
from asi_agent.messages import RawCall, ToolCall

FENCE = "```"


def only_call(reply: ParsedReply) -> ToolCall:
    assert reply.problems == ()
    assert len(reply.calls) == 1
    return reply.calls[0]


# --- ids and native calls -------------------------------------------------------------------------


def test_new_call_id_is_call_and_12_hex_and_unique():
    ids = {new_call_id() for _ in range(50)}
    assert len(ids) == 50
    assert all(re.fullmatch(r"call_[0-9a-f]{12}", call_id) for call_id in ids)


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ('{"path": "a.py"}', {"path": "a.py"}),
        ({"path": "a.py"}, {"path": "a.py"}),
        (None, {}),
        ("", {}),
        ("   ", {}),
        (json.dumps(json.dumps({"path": "a.py", "startLine": 3})), {"path": "a.py", "startLine": 3}),
        ('{"path": "a.py",}', {"path": "a.py"}),
        ("{'path': 'a.py'}", {"path": "a.py"}),
        ("{“path”: “a.py”}", {"path": "a.py"}),
    ],
    ids=["json", "dict", "none", "empty", "blank", "double", "trailing", "single", "smart"],
)
def test_normalize_native_accepts_argument_shapes(arguments, expected):
    call = normalize_native(RawCall(id="call_x", name="read_file", arguments=arguments))
    assert call == ToolCall(id="call_x", name="read_file", arguments=expected)


def test_normalize_native_gives_an_id_when_missing_and_strips_the_name():
    call = normalize_native(RawCall(id=None, name=" `read_file` ", arguments="{}"))
    assert call.name == "read_file"
    assert re.fullmatch(r"call_[0-9a-f]{12}", call.id)
    assert normalize_native(RawCall(id="", name="x", arguments=None)).id.startswith("call_")


@pytest.mark.parametrize(
    ("arguments", "expected_in_message"),
    [
        ("[1, 2]", "a JSON array"),
        ("42", "the value 42"),
        ("just some words", "not valid JSON"),
        # Closers the text never wrote are a guess at where the value ends: reported, never added.
        ('{"path": "a.py"', "a closing bracket is missing"),
        ('{"edit": {"path": "a.py"}', "a closing bracket is missing"),
    ],
)
def test_normalize_native_rejects_arguments_that_are_not_an_object(arguments, expected_in_message):
    with pytest.raises(CallFormatError) as caught:
        normalize_native(RawCall(id="c", name="read_file", arguments=arguments))
    message = str(caught.value)
    assert expected_in_message in message
    assert "`read_file`" in message
    assert "JSON object" in message


def test_normalize_native_rejects_an_empty_name():
    with pytest.raises(CallFormatError, match="no tool name"):
        normalize_native(RawCall(id="c", name="  ", arguments="{}"))


def test_decode_arguments_unwraps_triple_encoding_but_not_forever():
    inner = {"a": 1}
    assert decode_arguments(json.dumps(json.dumps(json.dumps(inner)))) == inner
    with pytest.raises(CallFormatError):
        decode_arguments(json.dumps(json.dumps(json.dumps(json.dumps(inner)))))


# --- each call form -------------------------------------------------------------------------------


def test_tool_call_line():
    call = only_call(parse_reply('[TOOL_CALL]read_file[ARGS]{"path": "src/a.py", "startLine": 2}'))
    assert (call.name, call.arguments) == ("read_file", {"path": "src/a.py", "startLine": 2})
    assert call.id.startswith("call_")


def test_tool_call_line_spanning_lines_when_braces_balance():
    text = '[TOOL_CALL]replace_text[ARGS]{\n  "path": "a.py",\n  "oldText": "}",\n  "newText": "{"\n}\nafter'
    reply = parse_reply(text)
    assert named(reply) == [("replace_text", {"path": "a.py", "oldText": "}", "newText": "{"})]
    assert reply.text == "after"


def test_tool_call_line_with_unbalanced_json_runs_to_end_of_line_and_is_reported():
    # The closing brace was never written: adding it would be a guess, so the call is reported, not run.
    reply = parse_reply('[TOOL_CALL]read_file[ARGS]{"path": "a.py"\nNext line stays.')
    assert named(reply) == []
    assert len(reply.problems) == 1 and "a closing bracket is missing" in reply.problems[0]
    assert reply.text == "Next line stays."


def test_tool_call_line_tolerates_spaces_backticks_and_closing_tag():
    reply = parse_reply('[TOOL_CALL] `list_directory` [ARGS] {"path": "."} [/TOOL_CALL]')
    assert named(reply) == [("list_directory", {"path": "."})]
    assert reply.text == ""


def test_tool_call_line_with_stringified_arguments_and_without_arguments():
    reply = parse_reply(
        '[TOOL_CALL]read_file[ARGS]"{\\"path\\": \\"a.py\\"}"\n[TOOL_CALL]get_project_structure[ARGS]'
    )
    assert named(reply) == [("read_file", {"path": "a.py"}), ("get_project_structure", {})]


def test_tool_tag_form():
    reply = parse_reply('Reading.\n[TOOL:read_file]{"path": "b.py"}[/TOOL]\nDone reading.')
    assert named(reply) == [("read_file", {"path": "b.py"})]
    assert reply.text == "Reading.\n\nDone reading."


def test_tool_tag_without_closing_tag_uses_the_object():
    reply = parse_reply('[TOOL: grep_search ]{"query": "x"} and more')
    assert named(reply) == [("grep_search", {"query": "x"})]
    assert reply.text == "and more"


def test_json_fence_with_one_call_object():
    text = f'Let me look.\n{FENCE}json\n{{"name": "read_file", "arguments": {{"path": "c.py"}}}}\n{FENCE}'
    reply = parse_reply(text)
    assert named(reply) == [("read_file", {"path": "c.py"})]
    assert reply.text == "Let me look."


def test_json_action_fence_with_an_array_of_calls():
    body = (
        '[{"tool": "read_file", "input": {"path": "a"}}, {"tool_name": "read_file", "args": {"path": "b"}}]'
    )
    reply = parse_reply(f"{FENCE}json action\n{body}\n{FENCE}")
    assert named(reply) == [("read_file", {"path": "a"}), ("read_file", {"path": "b"})]
    assert reply.text == ""


def test_hermes_form_keeps_the_given_id():
    reply = parse_reply(
        '<tool_call>\n{"name": "read_file", "arguments": {"path": "d.py"}, "id": "c1"}\n</tool_call>'
    )
    assert only_call(reply) == ToolCall(id="c1", name="read_file", arguments={"path": "d.py"})


def test_openai_shape_in_a_fence():
    call = {
        "type": "function",
        "id": "call_9",
        "function": {"name": "read_file", "arguments": '{"path": "e"}'},
    }
    reply = parse_reply(f"{FENCE}json\n{json.dumps(call)}\n{FENCE}")
    assert only_call(reply) == ToolCall(id="call_9", name="read_file", arguments={"path": "e"})


def test_whole_reply_that_is_a_call_object():
    reply = parse_reply(' {"name": "read_file", "parameters": {"path": "f"}} ')
    assert named(reply) == [("read_file", {"path": "f"})]
    assert reply.text == ""


@pytest.mark.parametrize(
    "body",
    [
        '{"name": "read_file", "arguments": {"path": "g"}}',
        '{"tool": "read_file", "parameters": {"path": "g"}}',
        '{"tool_name": "read_file", "args": {"path": "g"}}',
        '{"function": "read_file", "input": {"path": "g"}}',
        '{"function": {"name": "read_file", "arguments": {"path": "g"}}}',
        '{"name": "read_file", "arguments": "{\\"path\\": \\"g\\"}"}',
    ],
    ids=["name-arguments", "tool-parameters", "tool_name-args", "function-input", "nested", "stringified"],
)
def test_name_and_argument_key_variants(body):
    assert named(parse_reply(f"<tool_call>{body}</tool_call>")) == [("read_file", {"path": "g"})]


# --- tolerance --------------------------------------------------------------------------------------


def test_smart_quotes_trailing_commas_and_single_quotes():
    text = (
        "[TOOL_CALL]read_file[ARGS]{“path”: “a.py”, “startLine”: 1,}\n"
        "[TOOL:grep_search]{'query': 'def main',}[/TOOL]\n"
        "[TOOL_CALL]create_file[ARGS]{‘path’: ‘b.py’}"
    )
    reply = parse_reply(text)
    assert named(reply) == [
        ("read_file", {"path": "a.py", "startLine": 1}),
        ("grep_search", {"query": "def main"}),
        ("create_file", {"path": "b.py"}),
    ]
    assert reply.problems == ()


def test_smart_quotes_inside_valid_strings_are_kept():
    reply = parse_reply('[TOOL_CALL]create_file[ARGS]{"path": "a.md", "content": "he said “hi”"}')
    assert only_call(reply).arguments == {"path": "a.md", "content": "he said “hi”"}


def test_fence_inside_a_json_string_does_not_end_the_block():
    args = {"path": "README.md", "content": "# T\n```python\nprint(1)\n```\n"}
    text = f"{FENCE}json\n{json.dumps({'name': 'create_file', 'arguments': args})}\n{FENCE}"
    assert named(parse_reply(text)) == [("create_file", args)]


def test_call_syntax_inside_a_json_string_is_an_argument_not_a_call():
    content = 'Write [TOOL_CALL]read_file[ARGS]{"path": "x"} and <tool_call>{}</tool_call> lines.'
    line = "[TOOL_CALL]create_file[ARGS]" + json.dumps({"path": "docs/format.md", "content": content})
    assert named(parse_reply(line)) == [("create_file", {"path": "docs/format.md", "content": content})]


def test_several_objects_one_per_line_in_a_fence_or_alone():
    first, second = (json.dumps({"name": "read_file", "arguments": {"path": path}}) for path in "ab")
    lines = f"{first}\n{second}"
    expected = [("read_file", {"path": "a"}), ("read_file", {"path": "b"})]
    assert named(parse_reply(f"{FENCE}json\n{lines}\n{FENCE}")) == expected
    assert named(parse_reply(lines)) == expected
    assert named(parse_reply(f"<tool_call>[{first}, {second}]</tool_call>")) == expected


def test_code_that_held_a_call_does_not_stay_behind_empty():
    inline = parse_reply('I will read it: `[TOOL_CALL]read_file[ARGS]{"path": "a"}`')
    assert inline.text == "I will read it:"
    fenced = parse_reply(f'{FENCE}text\n[TOOL_CALL]read_file[ARGS]{{"path": "a"}}\n{FENCE}\nok')
    assert (len(fenced.calls), fenced.text) == (1, "ok")


def test_several_calls_in_mixed_forms_keep_order_of_appearance():
    text = "\n".join(
        [
            "Plan: read, then search.",
            '<tool_call>{"name": "a_tool", "arguments": {}}</tool_call>',
            '[TOOL_CALL]b_tool[ARGS]{"n": 1}',
            f'{FENCE}json\n[{{"name": "c_tool", "arguments": {{"n": 2}}}}]\n{FENCE}',
            '[TOOL:d_tool]{"n": 3}[/TOOL]',
            '[TOOL_CALL]e_tool[ARGS]{"n": 4} [TOOL_CALL]f_tool[ARGS]{"n": 5}',
        ]
    )
    reply = parse_reply(text)
    assert [call.name for call in reply.calls] == ["a_tool", "b_tool", "c_tool", "d_tool", "e_tool", "f_tool"]
    assert len({call.id for call in reply.calls}) == 6
    assert reply.text == "Plan: read, then search."


def test_non_call_json_fence_is_left_in_the_text():
    package = f'{FENCE}json\n{{"name": "my-app", "version": "1.0.0", "scripts": {{"test": "jest"}}}}\n{FENCE}'
    schema = f'{FENCE}json\n{{"name": "t", "description": "d", "parameters": {{"type": "object"}}}}\n{FENCE}'
    text = f"Your package.json:\n{package}\nand a tool definition:\n{schema}\nAGENT_STATUS: DONE"
    reply = parse_reply(text)
    assert reply.calls == ()
    assert reply.problems == ()
    assert reply.text == text


def test_code_fences_of_other_languages_are_left_alone():
    text = f"Run this:\n{FENCE}python\nprint({{'name': 'x', 'arguments': {{}}}})\n{FENCE}"
    assert parse_reply(text) == ParsedReply(text=text)


def test_plain_prose_gives_no_calls():
    """Prose is kept as written (code quoted without a fence keeps its indentation and blank lines);
    only the blank lines around it and trailing blanks go."""
    reply = parse_reply("\n  The answer is 42.\n\n\n\nNothing to call.  \n")
    assert reply == ParsedReply(text="  The answer is 42.\n\n\n\nNothing to call.")


# --- problems ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("[TOOL_CALL]read_file[ARGS][1, 2]", "JSON array"),
        ('[TOOL_CALL]read_file {"path": "a"}', "[ARGS] is missing"),
        ('[TOOL_CALL][ARGS]{"path": "a"}', "tool name is missing"),
        ("[TOOL_CALL]read_file[ARGS]path=a.py", "not valid JSON"),
        ("<tool_call>read_file please</tool_call>", "JSON could not be read"),
        ('<tool_call>{"path": "a"}</tool_call>', "not a call object"),
        (f'{FENCE}json action\n{{"path": "a"}}\n{FENCE}', "not a call object"),
        ("[TOOL:read_file] path a.py", "not valid JSON"),
    ],
)
def test_broken_calls_are_reported_as_problems_and_stripped(text, hint):
    reply = parse_reply(f"Before.\n{text}\nAfter.")
    assert reply.calls == ()
    assert len(reply.problems) == 1
    assert hint in reply.problems[0]
    assert "[TOOL_CALL]name[ARGS]" in reply.problems[0]
    assert reply.text == "Before.\n\nAfter."


def test_good_calls_survive_next_to_a_broken_one():
    reply = parse_reply('[TOOL_CALL]read_file[ARGS]{"path": "a"}\n[TOOL_CALL]read_file[ARGS]"oops"')
    assert named(reply) == [("read_file", {"path": "a"})]
    assert len(reply.problems) == 1


def test_problem_snippets_are_short():
    reply = parse_reply("[TOOL_CALL]x[ARGS]" + "nonsense " * 100)
    assert len(reply.problems) == 1
    assert reply.problems[0].count("nonsense") < 12


def test_render_call_line_is_one_line_and_parses_back():
    call = ToolCall(id="c", name="create_file", arguments={"path": "a.txt", "content": "l1\nl2 “q”"})
    line = render_call_line(call)
    assert "\n" not in line
    assert named(parse_reply(line)) == [("create_file", call.arguments)]


# --- status -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("All done.\nAGENT_STATUS: DONE", "DONE"),
        ("**AGENT_STATUS: continue**", "CONTINUE"),
        ("`AGENT_STATUS: Stop`", "STOP"),
        ("AGENT_STATUS：DONE。", "DONE"),
        ("> **AGENT_STATUS:** `DONE`\r\n", "DONE"),
        ("AGENT_STATUS: CONTINUE\nmore\nAGENT_STATUS: STOP\n", "STOP"),
        ("The AGENT_STATUS: DONE line comes later", None),
        ("AGENT_STATUS: MAYBE", None),
        ("no status here", None),
    ],
)
def test_parse_status(text, status):
    assert parse_status(text) == status


def test_strip_status_removes_every_status_line():
    text = "Fixed the bug.\n\n**AGENT_STATUS: DONE**\nAGENT_STATUS: STOP"
    assert strip_status(text) == "Fixed the bug."
    assert strip_status("Keep the AGENT_STATUS: DONE mention.") == "Keep the AGENT_STATUS: DONE mention."
