# ruff: noqa: E501 - replies are kept whole, as their sources write them
"""The sealed part of the call corpus: replies from three projects the corpus did not use before, scored
once at the end (see SOURCES.md).

Expectations were written down with the replies, before the readers were tuned. Where a reply stops
after a call's content is complete but before an outer wrapper closes (the section token, or a wrapper
around a closed `<function>`/`<invoke>` element), the call is expected; where the call's own closing
marker never came (GLM's `</tool_call>`, which is the only closer of its call), a problem is expected and
no call. Values a source types only by its own convention when no schema is given are left out.
"""

from __future__ import annotations

import json
from typing import Any

from corpus.case import Case

MLX = "ml-explore/mlx-lm tests/test_tool_parsing.py"
LMD_GLM = "InternLM/lmdeploy tests/test_lmdeploy/serve/parsers/test_glm47_parser.py"
LMD_Q35 = "InternLM/lmdeploy tests/test_lmdeploy/serve/parsers/test_qwen3_5_parser.py"
LMD_Q3 = "InternLM/lmdeploy tests/test_lmdeploy/serve/parsers/test_qwen3_parser.py"
LMD_L3 = "InternLM/lmdeploy tests/test_lmdeploy/serve/parsers/test_llama3_parser.py"
LMD_S1 = "InternLM/lmdeploy tests/test_lmdeploy/serve/parsers/test_interns1_parser.py"
DYN = "ai-dynamo/dynamo lib/parsers/src/tool_calling/test_cases/fixtures/"

MUL = ("multiply", {"a": 12234585, "b": 48838483920})
MUL_TOOLS = {"multiply": {"a": "number", "b": "number"}}
LON = ("get_current_temperature", {"location": "London"})
LON_TOOLS = {"get_current_temperature": {"location": "str"}}
NYC = ("get_weather", {"location": "NYC"})
NYC_JSON = json.dumps({"location": "NYC"}, separators=(",", ":"))


def _mlx(reply: str, call: tuple[str, dict[str, Any]], tools: dict[str, dict[str, str]]) -> Case:
    return Case(MLX, reply, (call,), tools=tools)


# mlx-lm's parsers receive the text between each family's call tokens (the tokens are the parser
# modules' tool_call_start / tool_call_end); the replies below put them back.
_MLX = (
    _mlx("<start_function_call>call:multiply{a:12234585,b:48838483920}<end_function_call>", MUL, MUL_TOOLS),
    _mlx("<|tool_call>call:multiply{a:12234585,b:48838483920}<tool_call|>", MUL, MUL_TOOLS),
    _mlx(
        '<tool_call>{"name": "multiply", "arguments": {"a": 12234585, "b": 48838483920}}</tool_call>',
        MUL,
        MUL_TOOLS,
    ),
    _mlx("<tool_call>multiply a=12234585 b=48838483920</tool_call>", MUL, MUL_TOOLS),
    _mlx(
        "<tool_call>multiply<arg_key>a</arg_key><arg_value>12234585</arg_value><arg_key>b</arg_key>"
        "<arg_value>48838483920</arg_value></tool_call>",
        MUL,
        MUL_TOOLS,
    ),
    _mlx(
        '<minimax:tool_call><invoke name="multiply">\n<parameter name="a">12234585</parameter>\n'
        '<parameter name="b">48838483920</parameter>\n</invoke></minimax:tool_call>',
        MUL,
        MUL_TOOLS,
    ),
    _mlx(
        "<tool_call><function=multiply>\n<parameter=a>\n12234585\n</parameter>\n<parameter=b>\n48838483920\n"
        "</parameter>\n</function></tool_call>",
        MUL,
        MUL_TOOLS,
    ),
    _mlx(
        "<longcat_tool_call>multiply<longcat_arg_key>a</longcat_arg_key>\n<longcat_arg_value>12234585"
        "</longcat_arg_value>\n<longcat_arg_key>b</longcat_arg_key>\n<longcat_arg_value>48838483920"
        "</longcat_arg_value></longcat_tool_call>",
        MUL,
        MUL_TOOLS,
    ),
    _mlx(
        '<longcat_tool_call>{"name": "multiply", "arguments": {"a": 12234585, "b": 48838483920}}'
        "</longcat_tool_call>",
        MUL,
        MUL_TOOLS,
    ),
    _mlx("<|tool_call_start|>[multiply(a=12234585, b=48838483920)]<|tool_call_end|>", MUL, MUL_TOOLS),
    _mlx('[TOOL_CALLS]multiply[ARGS]{"a": 12234585, "b": 48838483920}', MUL, MUL_TOOLS),
    _mlx(
        "<start_function_call>call:get_current_temperature{location:<escape>London<escape>}<end_function_call>",
        LON,
        LON_TOOLS,
    ),
    _mlx('<|tool_call>call:get_current_temperature{location:<|"|>London<|"|>}<tool_call|>', LON, LON_TOOLS),
    _mlx(
        '<tool_call>get_current_temperature<arg_key>location</arg_key><arg_value>"London"</arg_value></tool_call>',
        LON,
        LON_TOOLS,
    ),
    _mlx(
        '<tool_call>{"name": "get_current_temperature", "arguments": {"location": "London"}}</tool_call>',
        LON,
        LON_TOOLS,
    ),
    _mlx(
        '<minimax:tool_call><invoke name="get_current_temperature">\n<parameter name="location">London'
        "</parameter>\n</invoke></minimax:tool_call>",
        LON,
        LON_TOOLS,
    ),
    _mlx(
        "<tool_call><function=get_current_temperature>\n<parameter=location>\nLondon\n</parameter>\n"
        "</function></tool_call>",
        LON,
        LON_TOOLS,
    ),
    _mlx(
        "<longcat_tool_call>get_current_temperature<longcat_arg_key>location</longcat_arg_key>\n"
        "<longcat_arg_value>London</longcat_arg_value></longcat_tool_call>",
        LON,
        LON_TOOLS,
    ),
    _mlx('<|tool_call_start|>[get_current_temperature(location="London")]<|tool_call_end|>', LON, LON_TOOLS),
    _mlx('[TOOL_CALLS]get_current_temperature[ARGS]{"location": "London"}', LON, LON_TOOLS),
    Case(
        MLX,
        "<tool_call><function=search><parameter=filters>{'category': 'books', 'in_stock': True}</parameter>"
        "<parameter=tags>['fiction', 'new']</parameter></function></tool_call>",
        (("search", {"filters": {"category": "books", "in_stock": True}, "tags": ["fiction", "new"]}),),
        tools={"search": {"filters": "object", "tags": "array"}},
    ),
    Case(
        MLX,
        '<tool_call><function=search><parameter=filters>{"category": "books"}</parameter>'
        '<parameter=tags>["fiction", "new"]</parameter></function></tool_call>',
        (("search", {"filters": {"category": "books"}, "tags": ["fiction", "new"]}),),
        tools={"search": {"filters": "object", "tags": "array"}},
    ),
    Case(
        MLX,
        '<|tool_call>call:configure{settings:{enabled:true,name:<|"|>test<|"|>}}<tool_call|>',
        (("configure", {"settings": {"enabled": True, "name": "test"}}),),
    ),
    Case(
        MLX,
        '<|tool_call>call:tag{items:[<|"|>foo<|"|>,<|"|>bar<|"|>]}<tool_call|>',
        (("tag", {"items": ["foo", "bar"]}),),
    ),
    Case(
        MLX,
        '<|tool_call>call:search{query:<|"|>hello world<|"|>,limit:10,verbose:false}<tool_call|>',
        (("search", {"query": "hello world", "limit": 10, "verbose": False}),),
    ),
    Case(
        MLX,
        '<|tool_call>call:glob{pattern:<|"|>README*.md<|"|>}call:glob{pattern:<|"|>CONTRIBUTING.md<|"|>}<tool_call|>',
        (("glob", {"pattern": "README*.md"}), ("glob", {"pattern": "CONTRIBUTING.md"})),
    ),
    Case(
        MLX,
        '<|tool_call>call:search{query:<|"|>weather<|"|>,limit:5}'
        'call:configure{settings:{enabled:true,name:<|"|>test<|"|>}}<tool_call|>',
        (
            ("search", {"query": "weather", "limit": 5}),
            ("configure", {"settings": {"enabled": True, "name": "test"}}),
        ),
    ),
    Case(
        MLX,
        '<|tool_call>call:manim-video{mode:<|"|>plan<|"|>,prompt:<|"|>explain KV caching<|"|>}<tool_call|>',
        (("manim-video", {"mode": "plan", "prompt": "explain KV caching"}),),
    ),
    Case(
        MLX,
        '<|tool_call>call:skill_manage{action:<|"|>create<|"|>,'
        'content:<|"|>use a dict like {key: value} in your code<|"|>}<tool_call|>',
        (("skill_manage", {"action": "create", "content": "use a dict like {key: value} in your code"}),),
    ),
    Case(
        MLX,
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.multiply:0<|tool_call_argument_begin|>"
        '{"a": 12234585, "b": 48838483920}<|tool_call_end|><|tool_calls_section_end|>',
        (MUL,),
    ),
    Case(
        MLX,
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>"
        '{"query": "weather"}<|tool_call_end|><|tool_call_begin|>functions.read_file:1'
        '<|tool_call_argument_begin|>{"path": "/tmp/test.txt"}<|tool_call_end|><|tool_calls_section_end|>',
        (("search", {"query": "weather"}), ("read_file", {"path": "/tmp/test.txt"})),
    ),
    Case(
        MLX,
        '<minimax:tool_call><invoke name="search">\n<parameter name="query">weather</parameter>\n</invoke>\n'
        '<invoke name="read_file">\n<parameter name="path">/tmp/test.txt</parameter>\n</invoke></minimax:tool_call>',
        (("search", {"query": "weather"}), ("read_file", {"path": "/tmp/test.txt"})),
    ),
    Case(
        MLX,
        "<tool_call><function=schedule>\n<parameter=name>\ndeploy\n</parameter>\n<parameter=deadline>\n"
        "2025-06-15T10:30:00Z\n</parameter>\n</function></tool_call>",
        (("schedule", {"name": "deploy", "deadline": "2025-06-15T10:30:00Z"}),),
        tools={"schedule": {"name": "string", "deadline": "string"}},
    ),
    Case(
        MLX,
        "<tool_call><function=log>\n<parameter=msg>\nversion 3.10.5-beta\n</parameter>\n</function></tool_call>",
        (("log", {"msg": "version 3.10.5-beta"}),),
        tools={"log": {"msg": "string"}},
    ),
)

TYPED = {
    "typed_tool": {
        "name": "string",
        "age": "integer",
        "height": "number",
        "active": "boolean",
        "meta": "object",
        "scores": "array",
        "misc": "null",
    }
}
TYPED_CALL = (
    "typed_tool",
    {
        "name": "Chen",
        "age": 29,
        "height": 1.75,
        "active": True,
        "meta": {"city": "Houston"},
        "scores": [98, 87],
        "misc": None,
    },
)
BEIJING = ("get_weather", {"location": "Beijing"})

# lmdeploy: complete parses, and streamed chunks joined into the reply they make.
_LMDEPLOY = (
    Case(
        LMD_GLM,
        "prefix <tool_call>get_weather<arg_key>location</arg_key><arg_value>Beijing</arg_value></tool_call>",
        (BEIJING,),
        text="prefix",
    ),
    Case(
        LMD_GLM,
        "<tool_call>get_current_temperature<arg_key>location</arg_key><arg_value>北京</arg_value></tool_call>",
        (("get_current_temperature", {"location": "北京"}),),
    ),
    Case(
        LMD_GLM,
        "<think>first reason</think>\nAnswer: <tool_call>get_weather<arg_key>location</arg_key>"
        "<arg_value>Beijing</arg_value></tool_call>",
        (BEIJING,),
        text="Answer:",
    ),
    Case(
        LMD_GLM,
        "<think>first reason<tool_call>get_weather<arg_key>location</arg_key><arg_value>Beijing</arg_value></tool_call>",
        (BEIJING,),
        note="lmdeploy: the call opening ends the unclosed reasoning",
    ),
    Case(
        LMD_GLM,
        "<tool_call>get_weather<arg_key>location</arg_key><arg_value>Beijing</arg_value>"
        "<arg_key>unit</arg_key><arg_value>celsius</arg_value></tool_call>",
        (("get_weather", {"location": "Beijing", "unit": "celsius"}),),
    ),
    Case(LMD_GLM, "<tool_call>get_time</tool_call>", (("get_time", {}),)),
    Case(
        LMD_GLM,
        "<tool_call>typed_tool<arg_key>name</arg_key><arg_value>Chen</arg_value><arg_key>age</arg_key>"
        "<arg_value>29</arg_value><arg_key>height</arg_key><arg_value>1.75</arg_value><arg_key>active</arg_key>"
        '<arg_value>true</arg_value><arg_key>meta</arg_key><arg_value>{"city":"Houston"}</arg_value>'
        "<arg_key>scores</arg_key><arg_value>[98,87]</arg_value><arg_key>misc</arg_key><arg_value>null</arg_value>"
        "</tool_call>",
        (TYPED_CALL,),
        tools=TYPED,
    ),
    Case(
        LMD_Q35,
        "计划调用get_current_temperature函数并提供location参数。\n</think>\n\n<tool_call>\n"
        "<function=get_current_temperature>\n<parameter=location>\nBeijing, China\n</parameter>\n</function>\n"
        "</tool_call>",
        (("get_current_temperature", {"location": "Beijing, China"}),),
        text="",
    ),
    Case(
        LMD_Q35,
        "</think>\n\n<tool_call>\n<function=get_current_weather>\n<parameter=location>\nBoston, MA\n</parameter>\n"
        "</function>\n</tool_call>\n<tool_call>\n<function=get_current_weather>\n<parameter=location>\n"
        "San Francisco, CA\n</parameter>\n</function>\n</tool_call>",
        (
            ("get_current_weather", {"location": "Boston, MA"}),
            ("get_current_weather", {"location": "San Francisco, CA"}),
        ),
        text="",
    ),
    Case(
        LMD_Q35,
        "<tool_call>\n<function=find_user_id_by_name_zip>\n<parameter=first_name>\nChen\n</parameter>\n"
        "<parameter=last_name>\nJohnson\n</parameter>\n<parameter=zip>\n77004\n</parameter>\n</function>\n</tool_call>",
        (("find_user_id_by_name_zip", {"first_name": "Chen", "last_name": "Johnson", "zip": "77004"}),),
        tools={"find_user_id_by_name_zip": {"first_name": "string", "last_name": "string", "zip": "string"}},
    ),
    Case(
        LMD_Q35,
        "<tool_call>\n<function=typed_tool>\n<parameter=name>\nChen\n</parameter>\n<parameter=age>\n29\n</parameter>\n"
        "<parameter=height>\n1.75\n</parameter>\n<parameter=active>\ntrue\n</parameter>\n<parameter=meta>\n"
        '{"city":"Houston"}\n</parameter>\n<parameter=scores>\n[98,87]\n</parameter>\n<parameter=misc>\nnull\n'
        "</parameter>\n</function>\n</tool_call>",
        (TYPED_CALL,),
        tools=TYPED,
    ),
    Case(
        LMD_Q3,
        '<think>This is the mock user prompt</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": '
        '{"location": "北京", "unit": "celsius"}}\n</tool_call>',
        (("get_weather", {"location": "北京", "unit": "celsius"}),),
        text="",
    ),
    Case(
        LMD_Q3,
        'This is the mock user prompt. reasoning</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": '
        '{"location": "北京", "unit": "celsius"}}\n</tool_call>',
        (("get_weather", {"location": "北京", "unit": "celsius"}),),
        text="",
    ),
    Case(
        LMD_Q3,
        'prefix <tool_call>\n{"name": "get_weather",',
        problem=True,
        note="the stream stops inside the call: cut off",
    ),
    Case(
        LMD_L3,
        '<|python_tag|>{"name":"find_user_id_by_name_zip","parameters":{"first_name":"Chen",'
        '"last_name":"Johnson","zip":77004}}',
        (("find_user_id_by_name_zip", {"first_name": "Chen", "last_name": "Johnson", "zip": 77004}),),
        tools={"find_user_id_by_name_zip": {"first_name": "string", "last_name": "string", "zip": "integer"}},
    ),
    Case(
        LMD_L3,
        '<|python_tag|>{"name":"find_user_id_by_name_zip","parameters":{"first_name":"Chen",'
        '"last_name":"Johnson","zip":77004}} Done.',
        (("find_user_id_by_name_zip", {"first_name": "Chen", "last_name": "Johnson", "zip": 77004}),),
        text="Done.",
        tools={"find_user_id_by_name_zip": {"first_name": "string", "last_name": "string", "zip": "integer"}},
    ),
    Case(
        LMD_S1,
        '<|action_start|><|plugin|>\n{\n    "name": "get_weather",\n    "parameters": {"city": "Berlin"}\n}<|action_end|>',
        (("get_weather", {"city": "Berlin"}),),
        text="",
    ),
)


def _dyn(fixture: str, reply: str, *, cut: bool = False) -> Case:
    source = DYN + fixture
    return Case(source, reply, problem=True) if cut else Case(source, reply, (NYC,), text="")


_DSML = '<｜DSML｜invoke name="get_weather"><｜DSML｜parameter name="location" string="true">NYC</｜DSML｜parameter></｜DSML｜invoke>'
_XML_EQ = "<function=get_weather>\n<parameter=location>\nNYC\n</parameter>\n</function>"
_XML_ATTR = '<invoke name="get_weather"><parameter name="location">NYC</parameter></invoke>'
_JSON = '{"name":"get_weather","arguments":' + NYC_JSON + "}"

# dynamo's fixture matrix, with get_weather({"location": "NYC"}) as its tests.rs writes it: case 1
# (one complete call) and case 5 (the closing token missing) of every fixture that has them.
_DYNAMO = (
    _dyn("json_wrapped.rs", _JSON),
    _dyn(
        "deepseek_v3.rs",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
        + NYC_JSON
        + "\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    ),
    _dyn(
        "deepseek_v3.rs",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
        + NYC_JSON
        + "\n```",
    ),
    _dyn(
        "deepseek_v3_1.rs",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
        + NYC_JSON
        + "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    ),
    _dyn(
        "deepseek_v3_1.rs",
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
        + NYC_JSON
        + "<｜tool▁call▁end｜>",
    ),
    _dyn("dsml.rs", "<｜DSML｜function_calls>" + _DSML + "</｜DSML｜function_calls>"),
    _dyn("dsml.rs", "<｜DSML｜function_calls>" + _DSML),
    _dyn("dsml.rs", "<｜DSML｜tool_calls>" + _DSML + "</｜DSML｜tool_calls>"),
    _dyn("dsml.rs", "<｜DSML｜tool_calls>" + _DSML),
    _dyn(
        "glm47.rs", "<tool_call>get_weather<arg_key>location</arg_key><arg_value>NYC</arg_value></tool_call>"
    ),
    _dyn("glm47.rs", "<tool_call>get_weather<arg_key>location</arg_key><arg_value>NYC</arg_value>", cut=True),
    _dyn(
        "harmony.rs",
        "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>" + NYC_JSON + "<|call|>",
    ),
    _dyn("json_wrapped.rs", "<tool_call>" + _JSON + "\n</tool_call>"),
    _dyn("json_wrapped.rs", "<tool_call>" + _JSON),
    _dyn("json_wrapped.rs", "<tool_calls>" + _JSON + "</tool_calls>"),
    _dyn("json_wrapped.rs", "<tool_calls>" + _JSON),
    _dyn(
        "kimi_k2.rs",
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
        + NYC_JSON
        + "<|tool_call_end|><|tool_calls_section_end|>",
    ),
    _dyn(
        "kimi_k2.rs",
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
        + NYC_JSON
        + "<|tool_call_end|>",
    ),
    _dyn("json_wrapped.rs", "<|python_tag|>" + _JSON),
    _dyn("generic_xml.rs", "<minimax:tool_call>\n" + _XML_ATTR + "\n</minimax:tool_call>"),
    _dyn("generic_xml.rs", "<minimax:tool_call>\n" + _XML_ATTR),
    _dyn("json_wrapped.rs", "[TOOL_CALLS]" + _JSON + "[/TOOL_CALLS]"),
    _dyn("json_wrapped.rs", "[TOOL_CALLS]" + _JSON),
    _dyn("nemotron_deci.rs", "<TOOLCALL>[" + _JSON + "]</TOOLCALL>"),
    _dyn("generic_xml.rs", "<tool_call>\n" + _XML_EQ + "\n</tool_call>"),
    _dyn("generic_xml.rs", "<tool_call>\n" + _XML_EQ),
    _dyn("json_wrapped.rs", "functools" + _JSON),
    _dyn("pythonic.rs", '[get_weather(location="NYC")]'),
)

CASES: tuple[Case, ...] = (*_MLX, *_LMDEPLOY, *_DYNAMO)
