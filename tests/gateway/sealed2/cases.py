# ruff: noqa: E501 - replies are kept whole, as their sources write them
"""The gateway's second sealed set: replies of model families that neither the call corpus nor the first
sealed set used, written down before any reader was changed for the first set's misses (see SOURCES.md).

Families: ERNIE 4.5, HyperCLOVA X SEED Think, PLaMo 3, Poolside, dots, Solar Open 2, Pangu, MiniCPM 5,
Deep Cogito and Bailing (Ling). Each entry's `source` names the repository, the file and the commit it was
transcribed from. Rules as in the first set: a reply the source expects to yield calls gives those calls
(name and arguments, in order); a reply the source treats as malformed or incomplete must yield no call and
be reported (through the gateway: the model is asked again); prose stays prose, and where the source says
what text remains, that text must remain.
"""

from __future__ import annotations

from typing import Any

from corpus.case import Case

_V = "vllm-project/vllm tests/tool_parsers/"
_O = "ollama/ollama model/parsers/"
ERNIE45 = _V + "test_ernie45_moe_tool_parser.py @ 0a26f84cc20c2dae0b6af221007a9a26d507a417"
HYPERCLOVAX = _V + "test_hyperclovax_seed_think_tool_parser.py @ 256c70194a2a527808618a1fb3beaa899fdd8fcd"
PLAMO3 = _V + "test_plamo3_tool_parser.py @ 952ecbf0902ba70f3f447d61446280f5febcc4b0"
POOLSIDE = _V + "test_poolside_v1_tool_parser.py @ 2a8137f637c3827eff3dd1a61223274e67fb8851"
DOTS = _V + "test_dots_tool_parser.py @ 42955d4cf0fe76f6f8fde6eda78283eae3b03c05"
SOLAR = _V + "test_solar_open2_tool_parser.py @ 0064cc9cb1ae57b1308015d48a57462fa27a68f2"
PANGU = _V + "test_pangu_tool_parser.py @ 3db36c33a8a7aab73f357250196d72f55dccf9ae"
MINICPM5 = _V + "test_minicpm5xml_tool_parser.py @ 08eaf4cf001acb35879237aa5bf4d504a4a1925d"
COGITO = _O + "cogito_test.go @ 3296cc8dfc248e69cf7cee3782f5c11a38e00916"
BAILING = _O + "bailing_test.go @ dad79ec633318601c10a110e3dd9eedf2a29f7c2"

FAMILIES = {
    ERNIE45: "ernie4.5",
    HYPERCLOVAX: "hyperclovax",
    PLAMO3: "plamo3",
    POOLSIDE: "poolside",
    DOTS: "dots",
    SOLAR: "solar-open2",
    PANGU: "pangu",
    MINICPM5: "minicpm5",
    COGITO: "cogito",
    BAILING: "bailing",
}
"""Each source's model family, as the score table names it."""

# --- ERNIE 4.5 ------------------------------------------------------------------------------------------
_BEIJING = ("get_current_temperature", {"location": "Beijing"})
_GUANGZHOU = ("get_temperature_unit", {"location": "Guangzhou", "unit": "c"})
_ERNIE_ONE = (
    '<tool_call>\n{"name": "get_current_temperature", "arguments": {"location": "Beijing"}}\n</tool_call>\n'
)
_ERNIE_TWO = (
    '<tool_call>\n{"name": "get_current_temperature", "arguments": {"location": "Beijing"}}\n</tool_call>\n'
    '<tool_call>\n{"name": "get_temperature_unit", "arguments": {"location": "Guangzhou", "unit": "c"}}\n</tool_call>\n'
)
ERNIE45_CASES = (
    Case(ERNIE45, "This is a test", text="This is a test"),
    Case(ERNIE45, _ERNIE_ONE, (_BEIJING,)),
    Case(ERNIE45, _ERNIE_TWO, (_BEIJING, _GUANGZHOU)),
    Case(
        ERNIE45,
        "I need to call two tools to handle these two issues separately.\n</think>\n\n" + _ERNIE_TWO,
        (_BEIJING, _GUANGZHOU),
        note="the source keeps the reasoning and `</think>` as content; the text is not judged",
    ),
)

# --- HyperCLOVA X SEED Think -------------------------------------------------------------------------------
_WEATHER = {"get_current_weather": {"location": "string", "unit": "string"}}
_SEOUL = ("get_current_weather", {"location": "Seoul"})
_BUSAN = ("get_current_weather", {"location": "Busan"})
_HCX_SEOUL = '<tool_call>get_current_weather\n<arg_key>location</arg_key>\n<arg_value>"Seoul"</arg_value>\n</tool_call>'
HYPERCLOVAX_CASES = (
    Case(HYPERCLOVAX, "Just a regular response.", text="Just a regular response.", tools=_WEATHER),
    Case(
        HYPERCLOVAX,
        '<tool_call>get_current_weather\n<arg_key>location</arg_key>\n<arg_value>"Seoul"</arg_value>\n<arg_key>unit</arg_key>\n<arg_value>"celsius"</arg_value>\n</tool_call>',
        (("get_current_weather", {"location": "Seoul", "unit": "celsius"}),),
        tools=_WEATHER,
    ),
    Case(
        HYPERCLOVAX,
        "<tool_call>get_current_weather\n<arg_key>location</arg_key>\n<arg_value>Seoul</arg_value>\n</tool_call>",
        (_SEOUL,),
        tools=_WEATHER,
        note="a value that is not JSON is kept as a string",
    ),
    Case(
        HYPERCLOVAX,
        "I'll check that for you." + _HCX_SEOUL,
        (_SEOUL,),
        text="I'll check that for you.",
        tools=_WEATHER,
    ),
    Case(
        HYPERCLOVAX,
        "thinking aloud</think>\n\nokay, calling:" + _HCX_SEOUL,
        (_SEOUL,),
        text="okay, calling:",
        tools=_WEATHER,
    ),
    Case(
        HYPERCLOVAX,
        _HCX_SEOUL + "\n" + _HCX_SEOUL.replace("Seoul", "Busan"),
        (_SEOUL, _BUSAN),
        tools=_WEATHER,
    ),
    Case(
        HYPERCLOVAX,
        "<tool_call>\n</tool_call>",
        problem=True,
        tools=_WEATHER,
        note="the source: no function name, no call",
    ),
    Case(
        HYPERCLOVAX,
        '[{"name": "get_current_weather", "parameters": {"location": "Seoul"}}]',
        (_SEOUL,),
        tools=_WEATHER,
    ),
    Case(
        HYPERCLOVAX,
        '{"name": "get_current_weather", "parameters": {"location": "Busan"}}',
        (_BUSAN,),
        tools=_WEATHER,
    ),
    Case(
        HYPERCLOVAX,
        '[{"name": "get_current_weather", "arguments": {"location": "Seoul"}}]',
        (_SEOUL,),
        tools=_WEATHER,
    ),
    Case(
        HYPERCLOVAX,
        'thinking</think>\n\n[{"name": "get_current_weather", "parameters": {"location": "Seoul"}}]',
        (_SEOUL,),
        tools=_WEATHER,
    ),
)

# --- PLaMo 3 -----------------------------------------------------------------------------------------------
_P_REQS, _P_REQS_END = "<|plamo:begin_tool_requests:plamo|>", "<|plamo:end_tool_requests:plamo|>"
_P_REQ, _P_REQ_END = "<|plamo:begin_tool_request:plamo|>", "<|plamo:end_tool_request:plamo|>"
_P_NAME, _P_NAME_END = "<|plamo:begin_tool_name:plamo|>", "<|plamo:end_tool_name:plamo|>"
_P_ARGS = "<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>"
_P_ARGS_END = "<|plamo:end_tool_arguments:plamo|>"
_P_EOT = "<|plamo:tag|>"


def _plamo_call(name: str, arguments: str) -> str:
    return f"{_P_REQ}{_P_NAME}{name}{_P_NAME_END}{_P_ARGS}{arguments}{_P_ARGS_END}{_P_REQ_END}"


def _plamo(*calls: str) -> str:
    return f"{_P_REQS}{''.join(calls)}{_P_REQS_END}{_P_EOT}"


_P_BROKEN_NAME = _P_REQ + _P_NAME + "broken"
_P_BROKEN_ARGS = _P_BROKEN_NAME + _P_NAME_END + _P_ARGS + '{"a": 1}'
PLAMO3_CASES = (
    Case(PLAMO3, "Regular response", text="Regular response"),
    Case(PLAMO3, f"Regular response{_P_EOT}ignored", text="Regular response"),
    Case(
        PLAMO3,
        "Answer<|plamo:begin_",
        text="Answer",
        note="the source: a tag cut off at its start is dropped",
    ),
    Case(
        PLAMO3,
        "Checking the weather." + _plamo(_plamo_call("get_weather", '{"city": "Tokyo"}')),
        (("get_weather", {"city": "Tokyo"}),),
        text="Checking the weather.",
    ),
    Case(
        PLAMO3,
        _plamo(_plamo_call("echo", '{"text": "hi"}'), _plamo_call("sum", '{"a": 1, "b": 2}')),
        (("echo", {"text": "hi"}), ("sum", {"a": 1, "b": 2})),
        text="",
    ),
    *(
        Case(PLAMO3, "Before tools." + _P_REQS + cut, problem=True, note="cut off: no call")
        for cut in (
            "",
            _P_BROKEN_NAME,
            _P_BROKEN_ARGS,
            _P_BROKEN_ARGS + _P_ARGS_END,
            _plamo_call("broken", '{"a": 1}'),
        )
    ),
)

# --- Poolside -----------------------------------------------------------------------------------------------
_WRITE = {"write_file": {"content": "string", "mode": "integer"}}
_CITY = {"get_weather": {"city": "string"}}
_INDENTED = "    def f():\n        return 1\n"
POOLSIDE_CASES = (
    Case(
        POOLSIDE,
        f"<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>{_INDENTED}</arg_value>\n</tool_call>",
        (("write_file", {"content": _INDENTED}),),
        tools=_WRITE,
        note="a string value keeps its whitespace",
    ),
    Case(
        POOLSIDE,
        "<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>hi</arg_value>\n<arg_key>mode</arg_key>\n<arg_value> 420 </arg_value>\n</tool_call>",
        (("write_file", {"content": "hi", "mode": 420}),),
        tools=_WRITE,
    ),
    Case(
        POOLSIDE,
        "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>",
        (("get_weather", {"city": "Paris"}),),
        tools=_CITY,
    ),
    Case(
        POOLSIDE,
        "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
        (("get_weather", {"city": "Paris"}),),
        tools=_CITY,
    ),
    Case(POOLSIDE, "<tool_call>" + " " * 4096 + "<x</tool_call>", problem=True, tools=_CITY),
    Case(
        POOLSIDE, "<tool_call>   </tool_call>", problem=True, tools=_CITY, note="the source: no name, no call"
    ),
)

# --- dots ---------------------------------------------------------------------------------------------------
DOTS_CASES = (
    Case(
        DOTS,
        'ok<dots_function_call><invoke name="set_location"><parameter name="location">{"city": "Shanghai"}</parameter><parameter name="days">3</parameter><parameter name="include_weather">true</parameter></invoke></dots_function_call>',
        (("set_location", {"location": {"city": "Shanghai"}, "days": 3, "include_weather": True}),),
        text="ok",
        tools={"set_location": {"location": "object", "days": "integer", "include_weather": "boolean"}},
    ),
    Case(
        DOTS,
        '<dots_function_call><invoke name="search"><parameter name="query">chairs</parameter></invoke><invoke name="open"><parameter name="id">7</parameter></invoke></dots_function_call><dots_function_call>{"name":"search","arguments":{"query":"tables"}}</dots_function_call>',
        (("search", {"query": "chairs"}), ("open", {"id": 7}), ("search", {"query": "tables"})),
        tools={"search": {"query": "string"}, "open": {"id": "integer"}},
    ),
)

# --- Solar Open 2 -------------------------------------------------------------------------------------------
_S_SEOUL = "<|tool_call:start|>get_weather\n<|tool_arg:start|>city<|tool_arg:value|>Seoul<|tool_arg:end|>\n<|tool_call:end|>"
_SOLAR_SEOUL = ("get_weather", {"city": "Seoul"})
_SEARCH = {"search": {"query": "string", "max_results": "integer"}}
SOLAR_CASES = (
    Case(SOLAR, "This is a regular response.", text="This is a regular response."),
    Case(SOLAR, _S_SEOUL, (_SOLAR_SEOUL,)),
    Case(SOLAR, "Let me check the weather." + _S_SEOUL, (_SOLAR_SEOUL,), text="Let me check the weather."),
    Case(
        SOLAR,
        "I'll check both." + _S_SEOUL + "\n" + _S_SEOUL.replace("Seoul", "Tokyo"),
        (_SOLAR_SEOUL, ("get_weather", {"city": "Tokyo"})),
        text="I'll check both.",
    ),
    Case(
        SOLAR,
        "<|tool_call:start|>search\n<|tool_arg:start|>query<|tool_arg:value|>vLLM tutorial<|tool_arg:end|>\n<|tool_arg:start|>max_results<|tool_arg:value|>5<|tool_arg:end|>\n<|tool_call:end|>",
        (("search", {"query": "vLLM tutorial", "max_results": 5}),),
        tools=_SEARCH,
    ),
    Case(SOLAR, "<|tool_call:start|>get_time\n<|tool_call:end|>", (("get_time", {}),)),
    Case(
        SOLAR,
        '<|tool_call:start|>process_data\n<|tool_arg:start|>data<|tool_arg:value|>{"key": "value"}<|tool_arg:end|>\n<|tool_call:end|>',
        (("process_data", {"data": '{"key": "value"}'}),),
        tools={"process_data": {"data": "string"}},
        note="the source reads the value as text when no schema says otherwise; here the tool says string",
    ),
    Case(
        SOLAR,
        "<|think:start|>I should use a tool<|think:end|>Sure, let me help." + _S_SEOUL,
        (_SOLAR_SEOUL,),
        note="the source keeps the reasoning as content; the text is not judged",
    ),
    Case(SOLAR, "  \n\n" + _S_SEOUL, (_SOLAR_SEOUL,)),
    Case(SOLAR, "pre" + _S_SEOUL + "post", (_SOLAR_SEOUL,), note="the source drops text after the call"),
    Case(
        SOLAR,
        "Let me check.<|tool_call:start|>search\n<|tool_arg:start|>query<|tool_arg:value|>Seo",
        problem=True,
        tools=_SEARCH,
        note="cut off",
    ),
    Case(
        SOLAR,
        "<|tool_call:start|>broken\n<|tool_arg:start|>a<|tool_arg:value|>oops<|tool_call:end|>" + _S_SEOUL,
        (("broken", {"a": "oops"}), _SOLAR_SEOUL),
        note="the source recovers an argument whose end marker was dropped",
    ),
    Case(
        SOLAR,
        "Writing the file.<|tool_call:start|>write_file\n<|tool_arg:start|>path<|tool_arg:value|>/tmp/a.py<|tool_arg:end|>\n<|tool_arg:start|>content<|tool_arg:value|>"
        + "".join(f"line {i}\n" for i in range(200)),
        problem=True,
        tools={"write_file": {"path": "string", "content": "string"}},
        note="cut off inside a long value",
    ),
    Case(
        SOLAR,
        "<|tool_call:start|>search\n<|tool_arg:start|>query<|tool_arg:value|>first<|tool_arg:end|>\n<|tool_arg:start|>query<|tool_arg:value|>second<|tool_arg:end|>\n<|tool_call:end|>",
        (("search", {"query": "first"}),),
        note="the source keeps the first of a repeated argument",
    ),
)

# --- Pangu ----------------------------------------------------------------------------------------------------
_SF = ("get_weather", {"city": "San Francisco", "metric": "celsius"})
_USER: dict[str, Any] = {
    "name": "John Doe",
    "age": 37,
    "address": {"city": "San Francisco", "state": "CA"},
    "role": None,
    "passed_test": True,
    "aliases": ["John", "Johnny"],
}
_USER_JSON = '{"name": "register_user", "arguments": {"name": "John Doe", "age": 37, "address": {"city": "San Francisco", "state": "CA"}, "role": null, "passed_test": true, "aliases": ["John", "Johnny"]}}'
PANGU_CASES = (
    Case(PANGU, "How can I help you today?", text="How can I help you today?"),
    Case(
        PANGU,
        '<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "San Francisco", "metric": "celsius"}}]<|tool_call_end|>',
        (_SF,),
    ),
    Case(
        PANGU,
        '<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "San Francisco", "metric": "celsius"}}, '
        + _USER_JSON
        + "]<|tool_call_end|>",
        (_SF, ("register_user", _USER)),
    ),
    Case(
        PANGU,
        'I will call the tool now. <|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Boston"}}]<|tool_call_end|>',
        (("get_weather", {"city": "Boston"}),),
        text="I will call the tool now.",
    ),
    Case(
        PANGU,
        '<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Seattle"}}]<|tool_call_end|>\nThank you!',
        (("get_weather", {"city": "Seattle"}),),
        note="the source drops the text after the call; the text is not judged",
    ),
    Case(
        PANGU,
        '<|tool_call_start|>[{"name": "complex_tool", "arguments": {"level1": {"level2": {"level3": {"value": 123}}}}}]<|tool_call_end|>',
        (("complex_tool", {"level1": {"level2": {"level3": {"value": 123}}}}),),
    ),
    Case(
        PANGU,
        '<|tool_call_start|>[{"name": "get_weather", "arguments": {}}]<|tool_call_end|>',
        (("get_weather", {}),),
    ),
    Case(
        PANGU,
        '<|tool_call_start|>[{"name": "get_weather", "arguments": {}}, ' + _USER_JSON + "]<|tool_call_end|>",
        (("get_weather", {}), ("register_user", _USER)),
    ),
)

# --- MiniCPM 5 --------------------------------------------------------------------------------------------------
_CITY_DATE = {"get_weather": {"city": "string", "date": "string"}}
_SUM = {"sum_values": {"nums": "array", "exact": "boolean"}}
_SHANGHAI = ("get_weather", {"city": "上海", "date": "2024-06-27"})
MINICPM5_CASES = (
    Case(MINICPM5, "How can I help you?", text="How can I help you?", tools=_CITY_DATE),
    Case(
        MINICPM5,
        'Intro before.\n<function name="get_weather"><param name="city">上海</param><param name="date">2024-06-27</param></function>\nOutro after.\n',
        (_SHANGHAI,),
        tools=_CITY_DATE,
    ),
    Case(
        MINICPM5,
        '<function name="get_weather"><param name="city"><![CDATA[北\n京]]></param><param name="date">2024-06-27</param></function>\n',
        (("get_weather", {"city": "北\n京", "date": "2024-06-27"}),),
        tools=_CITY_DATE,
    ),
    Case(
        MINICPM5,
        '<function\u0120name="get_weather"><param\u0120name="city">上海</param><param\u0120name="date">2024-06-27</param></function>\n',
        (_SHANGHAI,),
        tools=_CITY_DATE,
        note="the tokenizer's space marker left in the tags",
    ),
    Case(
        MINICPM5,
        '<functionname="get_weather"><paramname="city">上海</param><paramname="date">2024-06-27</param></function>\n',
        (_SHANGHAI,),
        tools=_CITY_DATE,
        note="the space inside the tags lost",
    ),
    Case(
        MINICPM5,
        '<function name="sum_values"><param name="nums">[1, 2, 3]</param><param name="exact">true</param></function>\n',
        (("sum_values", {"nums": [1, 2, 3], "exact": True}),),
        tools=_SUM,
    ),
    Case(
        MINICPM5,
        'Head\n<function name="get_weather"><param name="city">北京</param></function>\nTXT\n<function name="sum_values"><param name="nums">[7,8,9]</param><param name="exact">false</param></function>\nTail\n',
        (("get_weather", {"city": "北京"}), ("sum_values", {"nums": [7, 8, 9], "exact": False})),
        tools=_CITY_DATE | _SUM,
    ),
    Case(
        MINICPM5,
        '<function name="get_weather"><param name="city">北京</param>',
        problem=True,
        tools=_CITY_DATE,
        note="cut off before </function>",
    ),
    Case(
        MINICPM5,
        '<function name="get_weather"><param>北京</param><param name="date">2024-06-27</param></function>\n',
        problem=True,
        tools=_CITY_DATE,
        note="the source: a parameter without a name makes the call invalid",
    ),
    Case(
        MINICPM5,
        '<function name="get_weather"><param name="city">北京</param><param name="city">上海</param></function>\n',
        problem=True,
        tools=_CITY_DATE,
        note="the source: a repeated parameter makes the call invalid",
    ),
    Case(
        MINICPM5,
        '<function name="noop"></function>\n',
        (("noop", {}),),
        tools={"noop": {"note": "string"}},
    ),
)

# --- Deep Cogito -------------------------------------------------------------------------------------------------
_C_BEGIN, _C_END = "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"
_LOCATION = {"get_weather": {"location": "string"}}


def _cogito_call(name: str, body: str) -> str:
    return f"<｜tool▁call▁begin｜>function<｜tool▁sep｜>{name}\n```json\n{body}\n```<｜tool▁call▁end｜>"


_PARIS = _cogito_call("get_weather", '{"location":"Paris"}')
COGITO_CASES = (
    Case(COGITO, "This is a simple response.", text="This is a simple response."),
    Case(
        COGITO,
        "This is thinking content.</think>This is response content.",
        text="This is response content.",
        note="the text before </think> is the reasoning",
    ),
    Case(COGITO, _C_BEGIN + _PARIS + _C_END, (("get_weather", {"location": "Paris"}),), tools=_LOCATION),
    Case(
        COGITO,
        "I need to check the weather.</think>" + _C_BEGIN + _PARIS + _C_END,
        (("get_weather", {"location": "Paris"}),),
        text="",
        tools=_LOCATION,
    ),
    Case(
        COGITO,
        _C_BEGIN + _PARIS + "\n" + _cogito_call("get_weather", '{"location":"London"}') + _C_END,
        (("get_weather", {"location": "Paris"}), ("get_weather", {"location": "London"})),
        tools=_LOCATION,
    ),
    Case(
        COGITO,
        _C_BEGIN
        + _cogito_call(
            "process_data",
            '{"items":["item1","item2"],"config":{"enabled":true,"threshold":0.95},"count":42}',
        )
        + _C_END,
        (
            (
                "process_data",
                {"items": ["item1", "item2"], "config": {"enabled": True, "threshold": 0.95}, "count": 42},
            ),
        ),
    ),
    Case(
        COGITO,
        _C_BEGIN + _cogito_call("no_args_tool", "{}") + _C_END,
        (("no_args_tool", {}),),
        note="the source's call body, inside the call tokens its other cases write",
    ),
    Case(
        COGITO,
        _C_BEGIN + _cogito_call("get_weather", '{\n  "location": "Paris",\n  "units": "metric"\n}') + _C_END,
        (("get_weather", {"location": "Paris", "units": "metric"}),),
        note="the source's call body, inside the call tokens its other cases write",
    ),
    Case(
        COGITO,
        _C_BEGIN + _cogito_call("get_weather", "{location:Paris}") + _C_END,
        problem=True,
        note="the source: invalid JSON is an error; the body inside the call tokens its other cases write",
    ),
)

# --- Bailing (Ling) ------------------------------------------------------------------------------------------------
BAILING_CASES = (
    Case(
        BAILING,
        "plan</think>I'll check.\n<tool_call>get_weather<arg_key>location</arg_key>\n<arg_value>Tokyo</arg_value>\n</tool_call>",
        (("get_weather", {"location": "Tokyo"}),),
        text="I'll check.",
        tools=_LOCATION,
    ),
    Case(BAILING, "</think>Plain answer", text="Plain answer"),
)

CASES: tuple[Case, ...] = (
    *ERNIE45_CASES,
    *HYPERCLOVAX_CASES,
    *PLAMO3_CASES,
    *POOLSIDE_CASES,
    *DOTS_CASES,
    *SOLAR_CASES,
    *PANGU_CASES,
    *MINICPM5_CASES,
    *COGITO_CASES,
    *BAILING_CASES,
)
