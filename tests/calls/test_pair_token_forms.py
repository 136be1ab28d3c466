"""Key/value token calls in the spellings of K2 (`<ifm|…>`, vLLM's K2 Horizon and SGLang's K2-V3 parser
tests) and Hunyuan HY v3 (`<tool_sep>`, plain and `:opensource`, mistral.rs's hy_v3.rs), read by the reader
GLM's form uses; and the wrappers whose closer decides whether a list is a call (mistral.rs's hunyuan.rs
and liquid.rs leave an unclosed list unparsed; dynamo's Nemotron fixture takes `<TOOLCALL>[…]` without its
closer), Granite 20B FC's `<function_call>` prefix (vLLM). Replies as the sources write them; a call cut
off or a group never closed is reported and runs nothing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from replies import named, tools

from asi_agent.calls import parse_reply

LOOKUP = tools(lookup={"query": "string", "limit": "integer", "enabled": "boolean"}, ping={})
WEATHER = tools(get_weather={"city": "string", "days": "integer"})
TOKYO = (
    "<ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Tokyo</ifm|arg_value>"
    "</ifm|tool_call>"
)


def _cut(reply: str, schemas: Sequence[Mapping[str, Any]] = ()) -> None:
    """The reply gives no call and is reported."""
    parsed = parse_reply(reply, schemas)
    assert parsed.calls == () and parsed.problems, reply


# --- K2 (IFM) ---------------------------------------------------------------------------------------------


def test_k2_group_of_calls_typed_by_the_schema_keeps_the_prose_around_it():
    reply = parse_reply(
        "Before <ifm|tool_calls><ifm|tool_call>lookup<ifm|arg_key>query</ifm|arg_key><ifm|arg_value>123"
        "</ifm|arg_value><ifm|arg_key>limit</ifm|arg_key><ifm|arg_value>3</ifm|arg_value></ifm|tool_call>\n"
        "<ifm|tool_call>ping</ifm|tool_call></ifm|tool_calls> after.",
        LOOKUP,
    )
    assert named(reply) == [("lookup", {"query": "123", "limit": 3}), ("ping", {})]
    assert reply.text == "Before  after." and reply.problems == () and reply.dialect == "k2"


def test_k2_value_types_of_their_own_win_over_the_schema():
    typed = (
        "<ifm|tool_calls><ifm|tool_call>lookup<ifm|arg_key>query</ifm|arg_key><ifm|arg_type>string</ifm|arg_type>"
        "<ifm|arg_value>weather</ifm|arg_value><ifm|arg_key>limit</ifm|arg_key><ifm|arg_type>integer"
        "</ifm|arg_type><ifm|arg_value>2</ifm|arg_value></ifm|tool_call></ifm|tool_calls>"
    )
    assert named(parse_reply(typed, LOOKUP)) == [("lookup", {"query": "weather", "limit": 2})]
    own = (
        "<ifm|tool_call>study_args<ifm|arg_key>user_id</ifm|arg_key><ifm|arg_type>string</ifm|arg_type>"
        "<ifm|arg_value>12345</ifm|arg_value></ifm|tool_call>"
    )
    study = tools(study_args={"city": "string"})
    assert named(parse_reply(own, study)) == [("study_args", {"user_id": "12345"})]


def test_k2_json_form_is_typed_by_the_schema_and_its_tokens_leave_the_text():
    for value, typed in (('"2"', {"limit": 2}), ('"true"', {"enabled": True})):
        key = "limit" if "limit" in typed else "enabled"
        reply = parse_reply(
            f'<ifm|tool_calls><ifm|tool_call>{{"name": "lookup", "arguments": {{"{key}": {value}}}}}'
            "</ifm|tool_call></ifm|tool_calls>",
            LOOKUP,
        )
        assert named(reply) == [("lookup", typed)] and reply.text == ""
    as_string = (
        '<ifm|tool_call>{"name": "get_weather", "arguments": "{\\"city\\": \\"Tokyo\\"}"}</ifm|tool_call>'
    )
    assert named(parse_reply(as_string, WEATHER)) == [("get_weather", {"city": "Tokyo"})]
    listed = (
        '<ifm|tool_call>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}, '
        '{"name": "get_weather", "arguments": {"city": "Osaka"}}]</ifm|tool_call>'
    )
    assert named(parse_reply(listed, WEATHER)) == [
        ("get_weather", {"city": "Tokyo"}),
        ("get_weather", {"city": "Osaka"}),
    ]


def test_a_text_value_of_a_json_form_in_another_dialect_stays_as_written():
    reply = parse_reply('<tool_call>{"name": "lookup", "arguments": {"limit": "2"}}</tool_call>', LOOKUP)
    assert named(reply) == [("lookup", {"limit": "2"})]


@pytest.mark.parametrize("block", ["think", "think_fast", "think_faster"])
def test_k2_reasoning_blocks_are_split_off_before_the_call(block: str):
    thought = f"<ifm|{block}>need lookup</ifm|{block}>\n"
    reply = parse_reply(thought + f"<ifm|tool_calls>\n{TOKYO}\n</ifm|tool_calls>")
    assert named(reply) == [("get_weather", {"city": "Tokyo"})]
    assert reply.reasoning == "need lookup" and reply.text == ""


def test_k2_calls_without_arguments_or_with_an_unknown_name_are_taken_as_written():
    assert named(parse_reply("<ifm|tool_call>get_weather</ifm|tool_call>", WEATHER)) == [("get_weather", {})]
    days = TOKYO.replace("city", "days").replace("Tokyo", "3")
    assert named(parse_reply(days, WEATHER)) == [("get_weather", {"days": 3})]
    assert named(parse_reply(TOKYO.replace("get_weather", "not_registered"), WEATHER)) == [
        ("not_registered", {"city": "Tokyo"})
    ]


@pytest.mark.parametrize(
    "reply",
    [
        "<ifm|tool_calls><ifm|tool_call>ping",
        "<ifm|tool_calls><ifm|tool_call>ping</ifm|tool_call>",
        "<ifm|tool_calls>junk</ifm|tool_calls>",
        TOKYO[:60],
        TOKYO + TOKYO[:60],
        '<ifm|tool_call>{"name": "get_weather", "arguments": {"city": "Tok',
    ],
    ids=["cut-in-call", "group-never-closed", "junk-group", "cut-in-value", "complete-then-cut", "cut-json"],
)
def test_k2_cut_off_unclosed_or_malformed_replies_are_reported_never_run(reply: str):
    _cut(reply, WEATHER)


# --- Hunyuan HY v3 ----------------------------------------------------------------------------------------

OPEN_SOURCE = (
    "<tool_calls:opensource>\n<tool_call:opensource>get_weather<tool_sep:opensource>\n"
    "<arg_key:opensource>city</arg_key:opensource>\n<arg_value:opensource>Paris</arg_value:opensource>\n"
    "<arg_key:opensource>days</arg_key:opensource>\n<arg_value:opensource>3</arg_value:opensource>\n"
    "</tool_call:opensource>\n</tool_calls:opensource>"
)


def test_hunyuan_v3_calls_in_both_spellings():
    reply = parse_reply(OPEN_SOURCE)
    assert named(reply) == [("get_weather", {"city": "Paris", "days": 3})]
    assert reply.text == "" and reply.dialect == "hunyuan"
    plain = (
        '<tool_calls>\n<tool_call>search<tool_sep>\n<arg_key>query</arg_key>\n<arg_value>{"term":"rust"}'
        "</arg_value>\n</tool_call>\n</tool_calls>"
    )
    assert named(parse_reply(plain)) == [("search", {"query": {"term": "rust"}})]
    alone = "<tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Tokyo</arg_value></tool_call>"
    assert named(parse_reply(alone)) == [("get_weather", {"city": "Tokyo"})]
    empty = (
        "before<tool_calls:opensource>\n<tool_call:opensource>search<tool_sep:opensource>\n"
        "</tool_call:opensource>\n</tool_calls:opensource>after"
    )
    reply = parse_reply(empty)
    assert named(reply) == [("search", {})] and reply.text == "beforeafter"


@pytest.mark.parametrize(
    "reply",
    [
        "<tool_calls:opensource>\n<tool_call:opensource>search<tool_sep:opensource>\n",
        OPEN_SOURCE.removesuffix("</tool_calls:opensource>"),
        "<tool_calls:opensource>\n<tool_call:opensource>sea",
        "<tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Tok",
        "<tool_calls:opensource>junk</tool_calls:opensource>",
    ],
    ids=["cut-after-sep", "group-never-closed", "cut-in-name", "cut-in-value", "junk-group"],
)
def test_hunyuan_v3_cut_off_or_unclosed_replies_are_reported_never_run(reply: str):
    _cut(reply)


# --- wrappers whose closer decides -----------------------------------------------------------------------


def test_a_closer_quoted_inside_the_json_is_data_and_the_real_one_goes_with_the_call():
    reply = parse_reply(
        'before<tool_calls>[{"name":"echo","arguments":{"value":"</tool_calls> and <tool_calls> kept"}}]'
        "</tool_calls>after"
    )
    assert named(reply) == [("echo", {"value": "</tool_calls> and <tool_calls> kept"})]
    assert reply.text == "beforeafter" and reply.problems == ()


@pytest.mark.parametrize(
    "reply",
    [
        '<tool_calls>[{"name":"search","arguments":{}}]',
        '<tool_calls>[{"name":"search","arguments":{}}] and more',
        '<|tool_call_start|>[search(query="rust")]',
        '<|tool_call_start|>[search(query="rust")] and more',
    ],
    ids=["hunyuan-list", "hunyuan-list-then-prose", "lfm2-list", "lfm2-list-then-prose"],
)
def test_a_hunyuan_or_lfm2_list_without_its_closer_is_reported_never_run(reply: str):
    _cut(reply)


def test_a_cut_off_list_keeps_the_other_calls_of_the_reply_from_running():
    reply = parse_reply('<|tool_call_start|>[a()]<|tool_call_end|> <|tool_call_start|>[search(query="rust")]')
    assert reply.calls == () and reply.problems


def test_lists_other_sources_take_without_their_closer_are_still_taken():
    nemotron = parse_reply('<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]')
    assert named(nemotron) == [("get_weather", {"city": "Tokyo"})] and nemotron.problems == ()
    jamba = parse_reply('<tool_calls>{"name":"get_weather","arguments":{"location":"NYC"}}')
    assert named(jamba) == [("get_weather", {"location": "NYC"})] and jamba.problems == ()


# --- Granite 20B FC ---------------------------------------------------------------------------------------


def test_granite_function_call_tags_leave_the_text_with_their_calls():
    one = parse_reply('<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}')
    assert named(one) == [("get_weather", {"city": "Tokyo"})] and one.text == ""
    two = parse_reply(
        'Let me check.\n<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}\n'
        '<function_call> {"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}'
    )
    assert named(two) == [("get_weather", {"city": "Tokyo"}), ("get_time", {"timezone": "Asia/Tokyo"})]
    assert two.text == "Let me check."
    _cut('<function_call> {"name": "func", "arguments": {')
