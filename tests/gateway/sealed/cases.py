# ruff: noqa: E501 - replies are kept whole, as their sources write them
"""The gateway's sealed set: replies of model families the call corpus never used, scored once through
`asi-agent serve` at the end of the work (see SOURCES.md).

Families: Jamba, InternLM2, Phi-4-mini, OLMo 3, GigaChat 3 / 3.1, Hunyuan-A13B. Neither the corpus
(`tests/calls/corpus/`) nor its sealed part (`tests/calls/sealed/`) holds a reply of these families.
Expectations were written down with the replies, before the score was run and before anything in the
request path was changed. Rules as in the corpus's sealed part: a reply the source expects to yield
calls gives those calls (name and arguments, in order); a reply the source treats as malformed or
incomplete must yield no call and be reported (through the gateway: the model is asked again); plain
prose stays prose.
"""

from __future__ import annotations

import json
from typing import Any

from corpus.case import Case

_V = "vllm-project/vllm tests/tool_parsers/"
JAMBA = _V + "test_jamba_tool_parser.py"
INTERNLM2 = _V + "test_internlm2_tool_parser.py"
PHI4MINI = _V + "test_phi4mini_tool_parser.py"
OLMO3 = _V + "test_olmo3_tool_parser.py"
GIGACHAT3 = _V + "test_gigachat3_tool_parser.py"
HUNYUAN = _V + "test_hunyuan_a13b_tool_parser.py"

DALLAS = ("get_current_weather", {"city": "Dallas", "state": "TX", "unit": "fahrenheit"})
ORLANDO = ("get_current_weather", {"city": "Orlando", "state": "FL", "unit": "fahrenheit"})
TOKYO = ("get_weather", {"city": "Tokyo"})
VARIOUS = {
    "string_field": "hello",
    "int_field": 42,
    "float_field": 3.14,
    "bool_field": True,
    "null_field": None,
    "array_field": ["a", "b", "c"],
    "object_field": {"nested": "value"},
    "empty_array": [],
    "empty_object": {},
}
ESCAPED = {
    "quoted": 'He said "hello"',
    "path": "C:\\Users\\file.txt",
    "newline": "line1\nline2",
    "unicode": "emoji: 🎉",
}
# The sources' "various data types" and "escaped strings" bodies, with the family's wrapper put around.
_VARIOUS_BODY = """{
  "name": "test_function",
  "%s": {
    "string_field": "hello",
    "int_field": 42,
    "float_field": 3.14,
    "bool_field": true,
    "null_field": null,
    "array_field": ["a", "b", "c"],
    "object_field": {"nested": "value"},
    "empty_array": [],
    "empty_object": {}
  }
}"""
_ESCAPED_BODY = """{
  "name": "test_function",
  "%s": {
    "quoted": "He said \\"hello\\"",
    "path": "C:\\\\Users\\\\file.txt",
    "newline": "line1\\nline2",
    "unicode": "emoji: 🎉"
  }
}"""

JAMBA_CASES = (
    Case(JAMBA, "This is a test", text="This is a test"),
    Case(
        JAMBA,
        ' <tool_calls>[\n    {"name": "get_current_weather", "arguments": {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}\n]</tool_calls>',
        (DALLAS,),
    ),
    Case(
        JAMBA,
        ' Sure! let me call the tool for you.<tool_calls>[\n    {"name": "get_current_weather", "arguments": {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}\n]</tool_calls>',
        (DALLAS,),
        text="Sure! let me call the tool for you.",
    ),
    Case(
        JAMBA,
        ' <tool_calls>[\n    {"name": "get_current_weather", "arguments": {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}},\n    {"name": "get_current_weather", "arguments": {"city": "Orlando", "state": "FL", "unit": "fahrenheit"}}\n]</tool_calls>',
        (DALLAS, ORLANDO),
    ),
)


def _internlm(body: str) -> str:
    return f"<|action_start|><|plugin|>{body}<|action_end|>"


INTERNLM2_CASES = (
    Case(
        INTERNLM2,
        "This is a regular response without any tool calls.",
        text="This is a regular response without any tool calls.",
    ),
    Case(INTERNLM2, _internlm('{"name": "get_weather", "parameters": {"city": "Tokyo"}}'), (TOKYO,)),
    Case(INTERNLM2, _internlm(_VARIOUS_BODY % "parameters"), (("test_function", VARIOUS),)),
    Case(INTERNLM2, _internlm('{"name": "refresh", "parameters": {}}'), (("refresh", {}),)),
    Case(
        INTERNLM2,
        "Let me check the weather for you. "
        + _internlm('{"name": "get_weather", "parameters": {"city": "Tokyo"}}'),
        (TOKYO,),
        text="Let me check the weather for you.",
    ),
    Case(INTERNLM2, _internlm(_ESCAPED_BODY % "parameters"), (("test_function", ESCAPED),)),
    Case(
        INTERNLM2, '<|action_start|><|plugin|>{"name": "func", "parameters": {', problem=True, note="cut off"
    ),
    Case(INTERNLM2, _internlm('{"name": "func", "parameters": "not a dict"}'), problem=True),
    Case(INTERNLM2, "<|action_start|><|plugin|>not json<|action_end|>", problem=True),
    Case(INTERNLM2, "<|action_start|><|plugin|>", problem=True, note="cut off"),
    Case(
        INTERNLM2,
        '<|action_start|>{"name": "func"}',
        problem=True,
        note="the plugin marker and the end never came",
    ),
)

PHI4MINI_CASES = (
    Case(
        PHI4MINI,
        "This is a regular response without any tool calls.",
        text="This is a regular response without any tool calls.",
    ),
    Case(PHI4MINI, 'functools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]', (TOKYO,)),
    Case(
        PHI4MINI,
        'functools[\n  {"name": "get_weather", "arguments": {"city": "Tokyo"}},\n  {"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}\n]',
        (TOKYO, ("get_time", {"timezone": "Asia/Tokyo"})),
    ),
    Case(PHI4MINI, f"functools[{_VARIOUS_BODY % 'arguments'}]", (("test_function", VARIOUS),)),
    Case(PHI4MINI, 'functools[{"name": "refresh", "arguments": {}}]', (("refresh", {}),)),
    Case(
        PHI4MINI,
        'Let me check the weather for you.\nfunctools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]\nWould you like to know more?',
        (TOKYO,),
    ),
    Case(PHI4MINI, f"functools[{_ESCAPED_BODY % 'arguments'}]", (("test_function", ESCAPED),)),
    Case(PHI4MINI, 'functools[{"name": "func", "arguments": {', problem=True, note="cut off"),
    Case(PHI4MINI, 'functools[{"name": "func", "arguments": "not a dict"}]', problem=True),
    Case(PHI4MINI, 'functools{"name": "func"}', problem=True, note="the source: missing brackets"),
    Case(
        PHI4MINI, 'functools[{"name": "func"}]', problem=True, note="the source: missing arguments/parameters"
    ),
    Case(PHI4MINI, "functools[] This is just text", problem=True, note="the source: empty functools"),
    Case(
        PHI4MINI,
        "functools[ This is just text ]",
        problem=True,
        note="the source: functools with invalid JSON",
    ),
)

SF = ("get_weather", {"city": "San Francisco", "metric": "celsius"})
USER: dict[str, Any] = {
    "name": "John Doe",
    "age": 37,
    "address": {"city": "San Francisco", "state": "CA"},
    "role": None,
    "passed_test": True,
    "aliases": ["John", "Johnny"],
}
_SF_PY = "get_weather(city='San Francisco', metric='celsius')"
_USER_PY = "register_user(name='John Doe', age=37, address={'city': 'San Francisco', 'state': 'CA'}, role=None, passed_test=True, aliases=['John', 'Johnny'])"


def _olmo(body: str) -> str:
    return f"<function_calls>{body}</function_calls>"


OLMO3_CASES = (
    Case(OLMO3, "How can I help you today?", text="How can I help you today?"),
    Case(OLMO3, _olmo(_SF_PY), (SF,)),
    Case(OLMO3, _olmo(_USER_PY), (("register_user", USER),)),
    Case(
        OLMO3,
        _olmo(_USER_PY.replace("role=None", "role=null").replace("passed_test=True", "passed_test=true")),
        (("register_user", USER),),
        note="JSON literals in a Python call",
    ),
    Case(OLMO3, _olmo("get_weather()"), (("get_weather", {}),)),
    Case(
        OLMO3,
        _olmo("do_something_cool(additional_data={})"),
        (("do_something_cool", {"additional_data": {}}),),
    ),
    Case(OLMO3, _olmo("do_something_cool(steps=[])"), (("do_something_cool", {"steps": []}),)),
    Case(
        OLMO3,
        _olmo(r"get_weather(city='Martha\'s Vineyard', metric='\"cool units\"')"),
        (("get_weather", {"city": "Martha's Vineyard", "metric": '"cool units"'}),),
    ),
    Case(OLMO3, _olmo(f"{_SF_PY}\n{_USER_PY}"), (SF, ("register_user", USER))),
    Case(
        OLMO3,
        _olmo(f"bad(x=b'z')\n{_SF_PY}"),
        (SF,),
        problem=True,
        note="the source keeps the good sibling; the unconvertible call must be reported",
    ),
    Case(
        OLMO3,
        _olmo(f"calc(x=1e999)\n{_SF_PY}"),
        (SF,),
        problem=True,
        note="the source rejects the non-finite call and keeps the other; it must be reported",
    ),
    Case(OLMO3, _olmo("foo(x=1])"), problem=True, note="mismatched brackets"),
)

_SEP, _ROLE, _HEADER31, _EOS = "<|message_sep|>\n\n", "<|role_sep|>\n", "<|function_call|>", "</s>"
_HEADER3 = f"function call{_ROLE}"
MEMORY = {"action": "create", "id": "preferences"}
MEMORY_FULL = MEMORY | {
    "content": {
        "short_answers": True,
        "hate_emojis": True,
        "english_ui": False,
        "russian_math_explanations": True,
    }
}


def _memory(arguments: dict[str, Any]) -> str:
    return json.dumps({"name": "manage_user_memory", "arguments": arguments}, ensure_ascii=False)


_CONTENT = "I'll check that for you."

GIGACHAT_CASES = (
    Case(GIGACHAT3, "How can I help you today?", text="How can I help you today?"),
    Case(GIGACHAT3, f"{_SEP}{_HEADER3}{_memory(MEMORY)}", (("manage_user_memory", MEMORY),)),
    Case(GIGACHAT3, f"{_SEP}{_HEADER3}{_memory({})}", (("manage_user_memory", {}),)),
    Case(GIGACHAT3, f"{_SEP}{_HEADER3}{_memory(MEMORY_FULL)}", (("manage_user_memory", MEMORY_FULL),)),
    Case(
        GIGACHAT3,
        f"{_CONTENT}{_SEP}{_HEADER3}{_memory(MEMORY)}",
        (("manage_user_memory", MEMORY),),
        text=_CONTENT,
    ),
    Case(
        GIGACHAT3,
        f"{_CONTENT}{_SEP}{_HEADER3}{_memory(MEMORY)}{_EOS}",
        (("manage_user_memory", MEMORY),),
        text=_CONTENT,
    ),
    Case(GIGACHAT3, f"{_HEADER31}{_memory(MEMORY)}", (("manage_user_memory", MEMORY),)),
    Case(GIGACHAT3, f"{_HEADER31}{_memory({})}", (("manage_user_memory", {}),)),
    Case(GIGACHAT3, f"{_HEADER31}{_memory(MEMORY_FULL)}", (("manage_user_memory", MEMORY_FULL),)),
    Case(
        GIGACHAT3, f"{_CONTENT}{_HEADER31}{_memory(MEMORY)}", (("manage_user_memory", MEMORY),), text=_CONTENT
    ),
    Case(
        GIGACHAT3,
        f"{_CONTENT}{_HEADER31}{_memory(MEMORY)}{_EOS}",
        (("manage_user_memory", MEMORY),),
        text=_CONTENT,
    ),
)

_WEATHER_USER = '{"name": "register_user", "arguments": {"name": "John Doe", "age": 37, "address": {"city": "San Francisco", "state": "CA"}, "role": null, "passed_test": true, "aliases": ["John", "Johnny"]}}'

HUNYUAN_CASES = (
    Case(HUNYUAN, "How can I help you today?", text="How can I help you today?"),
    Case(
        HUNYUAN,
        '<tool_calls>[{"name": "get_weather", "arguments": {"city": "San Francisco", "metric": "celsius"}}]</tool_calls>',
        (SF,),
    ),
    Case(
        HUNYUAN,
        '<tool_calls>[{"name": "get_weather", "arguments": {"city": "San Francisco", "metric": "celsius"}}, '
        + _WEATHER_USER
        + "]</tool_calls>",
        (SF, ("register_user", USER)),
    ),
    Case(
        HUNYUAN,
        'I will call the tool now. <tool_calls>[{"name": "get_weather", "arguments": {"city": "Boston"}}]</tool_calls>',
        (("get_weather", {"city": "Boston"}),),
        text="I will call the tool now.",
    ),
    Case(
        HUNYUAN,
        '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Seattle"}}]</tool_calls>\nThank you!',
        (("get_weather", {"city": "Seattle"}),),
        note="the source strips the text after the call; the runtime may keep it (text is not judged)",
    ),
    Case(
        HUNYUAN,
        '<tool_calls>[{"name": "complex_tool", "arguments": {"level1": {"level2": {"level3": {"value": 123}}}}}]</tool_calls>',
        (("complex_tool", {"level1": {"level2": {"level3": {"value": 123}}}}),),
    ),
    Case(
        HUNYUAN,
        '<tool_calls>[{"name": "get_weather", "arguments": {"city": "北京"}}]</tool_calls>',
        (("get_weather", {"city": "北京"}),),
    ),
    Case(
        HUNYUAN,
        '<tool_calls>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 42}}]</tool_calls>',
        (("a", {}), ("b", {"x": 42})),
    ),
    Case(
        HUNYUAN,
        '<tool_calls>[{"name": "a", "arguments": {"x": 42}}, {"name": "b", "arguments": {}}]</tool_calls>',
        (("a", {"x": 42}), ("b", {})),
    ),
)

CASES: tuple[Case, ...] = (
    *JAMBA_CASES,
    *INTERNLM2_CASES,
    *PHI4MINI_CASES,
    *OLMO3_CASES,
    *GIGACHAT_CASES,
    *HUNYUAN_CASES,
)
