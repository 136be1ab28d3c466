"""K2's `<ifm|…>` calls, Hunyuan HY v3's `<tool_calls:opensource>` calls, Granite 20B FC's
`<function_call>` prefix and the lists whose closer never came, through `asi-agent serve --emulate always`
and the official `openai` SDK: calls re-encoded with typed arguments, nothing of a call streamed as text
(the fake upstream streams each reply in three pieces, cut mid-token), and an unclosed list asked again,
never run."""

from __future__ import annotations

import json
from typing import Any

import pytest
from servers.scripted_http import pieces

from gateway.conftest import Gateway
from gateway.test_openai_sdk import ASK, client

WEATHER: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The weather of a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city"],
        },
    },
}
PROSE = "Let me check the forecast."
K2_CALL = (
    "<ifm|tool_calls><ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Tokyo"
    "</ifm|arg_value><ifm|arg_key>days</ifm|arg_key><ifm|arg_value>3</ifm|arg_value></ifm|tool_call>"
    "</ifm|tool_calls>"
)
HY_CALL = (
    "<tool_calls:opensource>\n<tool_call:opensource>get_weather<tool_sep:opensource>\n"
    "<arg_key:opensource>city</arg_key:opensource>\n<arg_value:opensource>Tokyo</arg_value:opensource>\n"
    "<arg_key:opensource>days</arg_key:opensource>\n<arg_value:opensource>3</arg_value:opensource>\n"
    "</tool_call:opensource>\n</tool_calls:opensource>"
)


def _prose_cut_inside(call: str, partial: str) -> str:
    """Prose that, written before `call`, makes the upstream's first streamed piece end with `partial`,
    a start of the call's opening token, on the wire."""
    prose = PROSE
    while len(prose) < 600:
        if pieces(prose + call)[0] == prose + partial:
            return prose
        prose += " Ok."
    raise AssertionError(f"no prose length cuts the reply after {partial!r}")


@pytest.mark.parametrize(
    ("call", "partial"),
    [(K2_CALL, "<ifm|tool_c"), (HY_CALL, "<tool_calls:op")],
    ids=["k2", "hunyuan-opensource"],
)
def test_a_partial_token_call_is_held_back_and_the_call_streams_whole(
    gateway: Gateway, call: str, partial: str
) -> None:
    prose = _prose_cut_inside(call, partial)
    gateway.upstream.reply(prose + call)
    stream = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[WEATHER], stream=True)
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text.strip() == prose, text
    deltas = [t for c in chunks if c.choices for t in c.choices[0].delta.tool_calls or ()]
    assert [d.function.name for d in deltas if d.function and d.function.name] == ["get_weather"]
    arguments = "".join(d.function.arguments or "" for d in deltas if d.function)
    assert json.loads(arguments) == {"city": "Tokyo", "days": 3}
    assert chunks[-1].choices[0].finish_reason == "tool_calls"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            '<ifm|tool_calls><ifm|tool_call>{"name": "get_weather", '
            '"arguments": {"city": "Oslo", "days": "2"}}</ifm|tool_call></ifm|tool_calls>',
            {"city": "Oslo", "days": 2},
        ),
        (
            "<ifm|think>the user wants Oslo</ifm|think><ifm|tool_call>get_weather"
            "<ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Oslo</ifm|arg_value></ifm|tool_call>",
            {"city": "Oslo"},
        ),
        (
            "<tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Oslo</arg_value></tool_call>",
            {"city": "Oslo"},
        ),
        ('<function_call> {"name": "get_weather", "arguments": {"city": "Oslo"}}', {"city": "Oslo"}),
    ],
    ids=["k2-json", "k2-after-think", "hunyuan-plain", "granite-20b-fc"],
)
def test_token_forms_are_reencoded_and_leave_no_markup(
    gateway: Gateway, reply: str, expected: dict[str, Any]
) -> None:
    gateway.upstream.reply(reply)
    answer = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[WEATHER])
    choice = answer.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert not choice.message.content, choice.message.content
    (call,) = choice.message.tool_calls or []
    assert call.type == "function" and call.function.name == "get_weather"
    assert json.loads(call.function.arguments) == expected
    entry = gateway.entries()[-1]
    assert not entry["retries"]


@pytest.mark.parametrize(
    "reply",
    [
        '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Oslo"}}]',
        '<|tool_call_start|>[get_weather(city="Oslo")]',
        "<ifm|tool_calls><ifm|tool_call>get_weather</ifm|tool_call>",
    ],
    ids=["hunyuan-list", "lfm2-list", "k2-group"],
)
def test_a_list_or_group_whose_closer_never_came_is_asked_again_not_run(gateway: Gateway, reply: str) -> None:
    gateway.upstream.reply(reply, "I could not make that call.")
    answer = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[WEATHER])
    assert not answer.choices[0].message.tool_calls
    assert answer.choices[0].message.content == "I could not make that call."
    entry = gateway.entries()[-1]
    assert entry["retries"] and entry["retries"][0].startswith("unparsable call"), entry
