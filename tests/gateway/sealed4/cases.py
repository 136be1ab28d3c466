# ruff: noqa: E501 - replies are kept whole, as their sources write them
"""The gateway's fourth sealed set: replies of model families that neither the call corpus nor the first
three sealed sets used, written down before any reader was changed for the third set's misses (see
SOURCES.md).

New families (the headline): K2 (MBZUAI's Institute of Foundation Models, the `<ifm|…>` call tokens of K2
Horizon and K2-V3) and IQuest Coder. Few families are left that no earlier set used, so this set also
holds replies of families an earlier set or the corpus already used, each from a source file nobody here
read before (mistral.rs's parsers, vLLM's Granite 20B FC and Nemotron JSON tests, Ollama's Ministral
tests); they are `SEEN_FAMILY_CASES` and are reported on their own lines, never in the headline. Each
entry's `source` names the repository, the file and the commit it was transcribed from. Rules as in the
earlier sets: a reply the source expects to yield calls gives those calls (name and arguments, in order);
a reply the source treats as malformed or incomplete must yield no call and be reported (through the
gateway: the model is asked again); prose stays prose, and where the source says what text remains, that
text must remain.
"""

from __future__ import annotations

from corpus.case import Case

_V = "vllm-project/vllm tests/tool_parsers/"
_R = "EricLBuehler/mistral.rs mistralrs-core/src/tools/parsers/"
K2_HORIZON = _V + "test_k2_horizon_tool_parser.py @ 0d2bafa9f1680325f0734530342c1385a55626c6"
K2_V3 = "sgl-project/sglang test/registered/function_call/test_k2v3_tool_parser.py @ acc109af699c27103c4c0e188375d5e92de056bc"
IQUEST = _V + "test_iquest_coder_tool_parser.py @ 059c0b1060f657325edf2004c42bd4b84c4e0de5"
GRANITE_FC = _V + "test_granite_20b_fc_tool_parser.py @ 41c5903d049b80b83a6e570f52f0f55e31316e49"
NEMOTRON = _V + "test_nemotron_json_tool_parser.py @ 32367d45e3ae37d03e9c73598406bc4e6e62fba2"
MINISTRAL = "ollama/ollama model/parsers/ministral_test.go @ 3181dcbbabe568641261cc3a00e721c9f0bd9e5c"
RS_HUNYUAN = _R + "hunyuan.rs @ a0dd56e6ab88fa3a634667e6c18413066904b6ad"
RS_HY_V3 = _R + "hy_v3.rs @ c3f41cabc2af1b61adf75cec51eef548d5570a42"
RS_LIQUID = _R + "liquid.rs @ 04ff1a19749c05f4003133d47b6c7a2f7f04ad62"
RS_QWEN = _R + "qwen.rs @ 25c91c50a7a118464cf8d5d37e3a3f2593549bc9"
RS_NEMO = _R + "mistral_nemo.rs @ 9662b93127052efbdfdb10de1af2b9ff44206738"

FAMILIES = {
    K2_HORIZON: "k2 (ifm)",
    K2_V3: "k2 (ifm)",
    IQUEST: "iquest coder",
    GRANITE_FC: "granite (seen family)",
    NEMOTRON: "nemotron (seen family)",
    MINISTRAL: "mistral (seen family)",
    RS_NEMO: "mistral (seen family)",
    RS_HUNYUAN: "hunyuan (seen family)",
    RS_HY_V3: "hunyuan (seen family)",
    RS_LIQUID: "lfm2 (seen family)",
    RS_QWEN: "qwen (seen family)",
}
"""Each source's model family, as the score table names it."""

SEEN_FAMILIES = frozenset(family for family in FAMILIES.values() if family.endswith("(seen family)"))
"""Families the corpus or an earlier set already used (here from new source files), reported apart."""

# --- K2 (IFM): vLLM's K2 Horizon parser tests ------------------------------------------------------------------
_LOOKUP = {"lookup": {"query": "string", "limit": "integer", "enabled": "boolean"}, "ping": {}}


def _ifm_group(*calls: str, prefix: str = "", suffix: str = "") -> str:
    """The source's `_group` helper."""
    return prefix + "<ifm|tool_calls>" + "\n".join(calls) + "</ifm|tool_calls>" + suffix


def _ifm_xml(name: str, arguments: list[tuple[str, str]], *, typed: bool = False) -> str:
    """The source's `_xml_call` helper."""
    parts = [f"<ifm|tool_call>{name}"]
    for key, value in arguments:
        parts.append(f"<ifm|arg_key>{key}</ifm|arg_key>")
        if typed:
            parts.append(f"<ifm|arg_type>{'integer' if key == 'limit' else 'string'}</ifm|arg_type>")
        parts.append(f"<ifm|arg_value>{value}</ifm|arg_value>")
    parts.append("</ifm|tool_call>")
    return "".join(parts)


K2_HORIZON_CASES = (
    Case(
        K2_HORIZON,
        _ifm_group(
            _ifm_xml("lookup", [("query", "123"), ("limit", "3")]),
            _ifm_xml("ping", []),
            prefix="Before ",
            suffix=" after.",
        ),
        (("lookup", {"query": "123", "limit": 3}), ("ping", {})),
        text="Before  after.",
        tools=_LOOKUP,
    ),
    Case(
        K2_HORIZON,
        _ifm_group('<ifm|tool_call>{"name": "lookup", "arguments": {"limit": "2"}}</ifm|tool_call>'),
        (("lookup", {"limit": 2}),),
        tools=_LOOKUP,
        note="the source's json format (a request option); the integer is read by the declared type",
    ),
    Case(
        K2_HORIZON,
        _ifm_group(_ifm_xml("lookup", [("query", "weather"), ("limit", "2")], typed=True)),
        (("lookup", {"query": "weather", "limit": 2}),),
        tools=_LOOKUP,
        note="the source's xml_typed format: each value carries an <ifm|arg_type>",
    ),
    Case(
        K2_HORIZON,
        _ifm_group('<ifm|tool_call>{"name": "lookup", "arguments": {"enabled": "true"}}</ifm|tool_call>'),
        (("lookup", {"enabled": True}),),
        text="",
        tools=_LOOKUP,
    ),
    Case(
        K2_HORIZON,
        "<ifm|tool_calls><ifm|tool_call>ping",
        problem=True,
        tools=_LOOKUP,
        note="the source: incomplete input is content, no call",
    ),
    Case(
        K2_HORIZON,
        "<ifm|tool_calls><ifm|tool_call>ping</ifm|tool_call>",
        problem=True,
        tools=_LOOKUP,
        note="the source: the group never closes, so no call",
    ),
    Case(
        K2_HORIZON,
        _ifm_group("junk"),
        problem=True,
        tools=_LOOKUP,
        note="the source: a group holding no call is malformed, no call",
    ),
    Case(
        K2_HORIZON,
        _ifm_group(_ifm_xml("ping", []), prefix=" \n", suffix="\t "),
        (("ping", {}),),
        text="",
        tools=_LOOKUP,
    ),
)

# --- K2 (IFM): SGLang's K2-V3 detector tests --------------------------------------------------------------------
_WEATHER_DAYS = {"get_weather": {"city": "string", "days": "integer"}}
_WEATHER = {"get_weather": {"city": "string"}}
_TOKYO = "<ifm|tool_call>get_weather<ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Tokyo</ifm|arg_value></ifm|tool_call>"
_TOKYO_CALL = (("get_weather", {"city": "Tokyo"}),)
_THINK_NOTE = "the source's server takes the <ifm|think…> block as reasoning; the text is not judged"


def _think(kind: str) -> Case:
    """The source's effort-block test, one reply per kind of block."""
    return Case(
        K2_V3, f"<ifm|{kind}>reasoning</ifm|{kind}>" + _TOKYO, _TOKYO_CALL, tools=_WEATHER, note=_THINK_NOTE
    )


K2_V3_CASES = (
    Case(K2_V3, _TOKYO, _TOKYO_CALL, text="", tools=_WEATHER_DAYS),
    Case(
        K2_V3,
        "<ifm|tool_call>get_weather<ifm|arg_key>days</ifm|arg_key><ifm|arg_value>3</ifm|arg_value></ifm|tool_call>",
        (("get_weather", {"days": 3}),),
        tools=_WEATHER_DAYS,
    ),
    Case(K2_V3, "<ifm|tool_call>get_weather</ifm|tool_call>", (("get_weather", {}),), tools=_WEATHER_DAYS),
    Case(K2_V3, "plain text", text="plain text", tools=_WEATHER_DAYS),
    Case(
        K2_V3,
        "<ifm|tool_call>not_registered<ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Tokyo</ifm|arg_value></ifm|tool_call>",
        (("not_registered", {"city": "Tokyo"}),),
        tools=_WEATHER_DAYS,
        note="the source forwards a name its tool list lacks; the runner offers every name the set uses",
    ),
    Case(
        K2_V3,
        "<ifm|tool_call>study_args<ifm|arg_key>user_id</ifm|arg_key><ifm|arg_type>string</ifm|arg_type><ifm|arg_value>12345</ifm|arg_value></ifm|tool_call>",
        (("study_args", {"user_id": "12345"}),),
        tools={"study_args": {"city": "string"}},
        note="the value's own <ifm|arg_type> keeps it a string",
    ),
    Case(
        K2_V3,
        "<ifm|think>need lookup</ifm|think>\n<ifm|tool_calls>\n" + _TOKYO + "\n</ifm|tool_calls>",
        _TOKYO_CALL,
        tools=_WEATHER,
        note=_THINK_NOTE,
    ),
    _think("think_fast"),
    _think("think_faster"),
    Case(
        K2_V3,
        "<think>legacy reasoning</think>\n" + _TOKYO,
        _TOKYO_CALL,
        tools=_WEATHER,
        note="the source keeps the <think> block as text; reasoning handling belongs to the server, not judged",
    ),
    Case(
        K2_V3,
        '<ifm|tool_call>{"name": "get_weather", "arguments": {"city": "Tokyo"}}</ifm|tool_call>',
        _TOKYO_CALL,
        tools=_WEATHER,
    ),
    Case(
        K2_V3,
        '<ifm|tool_call>{"name": "get_weather", "arguments": "{\\"city\\": \\"Tokyo\\"}"}</ifm|tool_call>',
        _TOKYO_CALL,
        tools=_WEATHER,
        note="arguments written as a JSON string",
    ),
    Case(
        K2_V3,
        '<ifm|tool_call>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}, {"name": "get_weather", "arguments": {"city": "Osaka"}}]</ifm|tool_call>',
        (("get_weather", {"city": "Tokyo"}), ("get_weather", {"city": "Osaka"})),
        tools=_WEATHER,
    ),
)

# --- IQuest Coder (vLLM) -----------------------------------------------------------------------------------------
_CURRENT = {"get_current_weather": {"city": "string", "state": "string", "unit": "string"}}


def _iq(name: str, params: list[tuple[str, str]]) -> str:
    """One call in the source's Qwen3-Coder-shaped form."""
    body = "".join(f"<parameter={key}>\n{value}\n</parameter>\n" for key, value in params)
    return f"<tool_call>\n<function={name}>\n{body}</function>\n</tool_call>"


_DALLAS = [("city", "Dallas"), ("state", "TX"), ("unit", "fahrenheit")]
_ORLANDO = [("city", "Orlando"), ("state", "FL"), ("unit", "celsius")]
_SHELL = {"shell_command": {"command": "string", "timeout_ms": "integer"}}
_ALL_TYPES = (
    "<tool_call>\n<function=do_it>\n"
    "<parameter=text>\nhello\n</parameter>\n"
    "<parameter=count>\n42\n</parameter>\n"
    "<parameter=ratio>\n3.14\n</parameter>\n"
    "<parameter=flag>\ntrue\n</parameter>\n"
    '<parameter=tags>\n["a", "b"]\n</parameter>\n'
    '<parameter=opts>\n{"k": 1, "nested": [1, 2, 3]}\n</parameter>\n'
    "<parameter=numeric_str>\n007\n</parameter>\n"
    "</function>\n</tool_call>"
)
_CHUNKS_NOTE = "from a test that feeds the reply in chunks of every size, the whole reply at once among them"
IQUEST_CASES = (
    Case(
        IQUEST,
        _iq("get_current_weather", _DALLAS) + "\n" + _iq("get_current_weather", _ORLANDO),
        (("get_current_weather", dict(_DALLAS)), ("get_current_weather", dict(_ORLANDO))),
        tools=_CURRENT,
    ),
    Case(
        IQUEST,
        _iq("shell_command", [("command", "apt-get update"), ("timeout_ms", "300000")]),
        (("shell_command", {"command": "apt-get update", "timeout_ms": 300000}),),
        tools=_SHELL,
    ),
    Case(
        IQUEST,
        _iq("shell_command", [("command", "12345")]),
        (("shell_command", {"command": "12345"}),),
        tools={"shell_command": {"command": "string"}},
        note="a numeric-looking value of a string parameter stays a string",
    ),
    Case(
        IQUEST,
        _ALL_TYPES,
        (
            (
                "do_it",
                {
                    "text": "hello",
                    "count": 42,
                    "ratio": 3.14,
                    "flag": True,
                    "tags": ["a", "b"],
                    "opts": {"k": 1, "nested": [1, 2, 3]},
                    "numeric_str": "007",
                },
            ),
        ),
        tools={
            "do_it": {
                "text": "string",
                "count": "integer",
                "ratio": "number",
                "flag": "boolean",
                "tags": "array",
                "opts": "object",
                "numeric_str": "string",
            }
        },
    ),
    Case(
        IQUEST,
        _iq("get_current_weather", [("city", "Dallas"), ("state", "TX")]),
        (("get_current_weather", {"city": "Dallas", "state": "TX"}),),
        text="",
        tools=_CURRENT,
        note=_CHUNKS_NOTE,
    ),
    Case(
        IQUEST,
        "\n".join(_iq("get_current_weather", [("city", city)]) for city in ("Dallas", "Orlando", "Boston")),
        tuple(("get_current_weather", {"city": city}) for city in ("Dallas", "Orlando", "Boston")),
        text="",
        tools=_CURRENT,
        note=_CHUNKS_NOTE,
    ),
    Case(
        IQUEST,
        "Let me check the weather.\n" + _iq("get_current_weather", [("city", "Dallas")]),
        (("get_current_weather", {"city": "Dallas"}),),
        text="Let me check the weather.",
        tools=_CURRENT,
        note=_CHUNKS_NOTE,
    ),
    Case(
        IQUEST,
        "No tool needed here, just a plain answer.",
        text="No tool needed here, just a plain answer.",
        tools=_CURRENT,
    ),
    Case(
        IQUEST,
        "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDall",
        problem=True,
        tools=_CURRENT,
        note="a call cut off inside its value; the source only checks its own bookkeeping: no call is run from a cut-off reply",
    ),
)

CASES: tuple[Case, ...] = (*K2_HORIZON_CASES, *K2_V3_CASES, *IQUEST_CASES)
"""The headline: replies of families no earlier set and not the corpus used."""

# --- Granite 20B FC (vLLM): a family the corpus used (Granite 3.3's template), a new source file ---------------
GRANITE_CASES = (
    Case(
        GRANITE_FC,
        "This is a regular response without any tool calls.",
        text="This is a regular response without any tool calls.",
    ),
    Case(
        GRANITE_FC,
        '<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}',
        (("get_weather", {"city": "Tokyo"}),),
        text="",
    ),
    Case(
        GRANITE_FC,
        '<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}\n<function_call> {"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}',
        (("get_weather", {"city": "Tokyo"}), ("get_time", {"timezone": "Asia/Tokyo"})),
    ),
    Case(
        GRANITE_FC,
        """<function_call> {
  "name": "test_function",
  "arguments": {
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
}""",
        (
            (
                "test_function",
                {
                    "string_field": "hello",
                    "int_field": 42,
                    "float_field": 3.14,
                    "bool_field": True,
                    "null_field": None,
                    "array_field": ["a", "b", "c"],
                    "object_field": {"nested": "value"},
                    "empty_array": [],
                    "empty_object": {},
                },
            ),
        ),
    ),
    Case(GRANITE_FC, '<function_call> {"name": "refresh", "arguments": {}}', (("refresh", {}),)),
    Case(
        GRANITE_FC,
        """Let me check the weather for you.
<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}""",
        (("get_weather", {"city": "Tokyo"}),),
    ),
    Case(
        GRANITE_FC,
        """<function_call> {
  "name": "test_function",
  "arguments": {
    "quoted": "He said \\"hello\\"",
    "path": "C:\\\\Users\\\\file.txt",
    "newline": "line1\\nline2",
    "unicode": "emoji: 🎉"
  }
}""",
        (
            (
                "test_function",
                {
                    "quoted": 'He said "hello"',
                    "path": "C:\\Users\\file.txt",
                    "newline": "line1\nline2",
                    "unicode": "emoji: 🎉",
                },
            ),
        ),
    ),
    Case(
        GRANITE_FC,
        '<function_call> {"name": "func", "arguments": {',
        problem=True,
        note="the source only checks that a malformed reply does not fail; a cut-off call is never run",
    ),
)

# --- Nemotron JSON (vLLM): a family the corpus used (<TOOLCALL>), a new source file -------------------------------
NEMOTRON_CASES = (
    Case(NEMOTRON, "No tool call here.", text="No tool call here."),
    Case(
        NEMOTRON,
        'Let me check that.<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Tokyo", "unit": "celsius"}}]</TOOLCALL>',
        (("get_weather", {"city": "Tokyo", "unit": "celsius"}),),
        text="Let me check that.",
    ),
    Case(
        NEMOTRON,
        '<TOOLCALL>{"name": "lookup", "arguments": {"query": "vllm"}}</TOOLCALL>',
        (("lookup", {"query": "vllm"}),),
    ),
    Case(
        NEMOTRON,
        '<TOOLCALL>[{"name": "run_query", "arguments": "{\\"sql\\": \\"select 1\\"}"}]</TOOLCALL>',
        (("run_query", {"sql": "select 1"}),),
    ),
    Case(
        NEMOTRON,
        '<TOOLCALL>[{"name": "broken", "arguments": {}</TOOLCALL>',
        problem=True,
        note="the source: malformed JSON is no call",
    ),
    Case(
        NEMOTRON,
        '<think>\nI need the weather for Tokyo.\n</think>\n<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]</TOOLCALL>',
        (("get_weather", {"city": "Tokyo"}),),
        note="the source keeps the reasoning as content; the text is not judged",
    ),
)

# --- Ministral (Ollama): a family the corpus used (Mistral), a new source file -----------------------------------
_M_NOTE = "the source's test harness leaves part of the call in its content; the text is not judged"
MINISTRAL_CASES = (
    Case(MINISTRAL, "Hello, how can I help you?", text="Hello, how can I help you?"),
    Case(
        MINISTRAL,
        '[TOOL_CALLS]get_weather[ARGS]{"location": "San Francisco"}',
        (("get_weather", {"location": "San Francisco"}),),
        note=_M_NOTE,
    ),
    Case(
        MINISTRAL,
        '[TOOL_CALLS]create_entities[ARGS]{"entities": [{"entityType": "Person", "name": "Jack", "observations": ["Works as a baker at Big Baker Co."]}]}',
        (
            (
                "create_entities",
                {
                    "entities": [
                        {
                            "entityType": "Person",
                            "name": "Jack",
                            "observations": ["Works as a baker at Big Baker Co."],
                        }
                    ]
                },
            ),
        ),
        note=_M_NOTE,
    ),
    Case(
        MINISTRAL,
        '[TOOL_CALLS]update_config[ARGS]{"settings": {"user": {"profile": {"name": "John", "age": 30}}, "theme": "dark"}}',
        (
            (
                "update_config",
                {"settings": {"user": {"profile": {"name": "John", "age": 30}}, "theme": "dark"}},
            ),
        ),
        note=_M_NOTE,
    ),
    Case(
        MINISTRAL,
        '[TOOL_CALLS]process_items[ARGS]{"items": [{"id": 1}, {"id": 2}, {"id": 3}]}',
        (("process_items", {"items": [{"id": 1}, {"id": 2}, {"id": 3}]}),),
        note=_M_NOTE,
    ),
    Case(
        MINISTRAL,
        '[TOOL_CALLS]search[ARGS]{"query": "say \\"hello\\""}',
        (("search", {"query": 'say "hello"'}),),
        note=_M_NOTE,
    ),
    Case(
        MINISTRAL,
        '[TOOL_CALLS]format[ARGS]{"template": "Hello {name}!"}',
        (("format", {"template": "Hello {name}!"}),),
        note=_M_NOTE,
    ),
    Case(
        MINISTRAL,
        "[TOOL_CALLS]test[ARGS]{invalid json}",
        problem=True,
        note="the source: invalid JSON is an error, no call",
    ),
    Case(MINISTRAL, "[TOOL_CALLS]no_args[ARGS]{}", (("no_args", {}),), note=_M_NOTE),
    Case(
        MINISTRAL,
        '[TOOL_CALLS]write[ARGS]{"content": "line1\\nline2\\nline3"}',
        (("write", {"content": "line1\nline2\nline3"}),),
        note=_M_NOTE,
    ),
    Case(
        MINISTRAL,
        '[TOOL_CALLS]path[ARGS]{"dir": "C:\\\\Users\\\\test"}',
        (("path", {"dir": "C:\\Users\\test"}),),
        note=_M_NOTE,
    ),
)

# --- mistral.rs: Mistral Nemo, Hunyuan (two forms), LFM2 and Qwen parsers' own tests ------------------------------
RS_CASES = (
    Case(
        RS_NEMO,
        'I\'ll check.[TOOL_CALLS][{"name":"search","arguments":{"query":"rust"}}]',
        (("search", {"query": "rust"}),),
    ),
    Case(
        RS_HUNYUAN,
        '<tool_calls>[{"name":"search","arguments":{"query":"rust"}},{"name":"weather","arguments":{"city":"Paris"}}]</tool_calls>',
        (("search", {"query": "rust"}), ("weather", {"city": "Paris"})),
    ),
    Case(
        RS_HUNYUAN,
        'before<tool_calls>[{"name":"search","arguments":{}}]</tool_calls>after',
        (("search", {}),),
        text="beforeafter",
    ),
    Case(
        RS_HUNYUAN,
        '<tool_calls>[{"name":"search","arguments":{}}]',
        problem=True,
        note="the source: an incomplete call is left unparsed",
    ),
    Case(
        RS_HUNYUAN,
        'before<tool_calls>[{"name":"echo","arguments":{"value":"</tool_calls> and <tool_calls> kept"}}]</tool_calls>after',
        (("echo", {"value": "</tool_calls> and <tool_calls> kept"}),),
        text="beforeafter",
    ),
    Case(
        RS_HY_V3,
        "<tool_calls:opensource>\n<tool_call:opensource>get_weather<tool_sep:opensource>\n<arg_key:opensource>city</arg_key:opensource>\n<arg_value:opensource>Paris</arg_value:opensource>\n<arg_key:opensource>days</arg_key:opensource>\n<arg_value:opensource>3</arg_value:opensource>\n</tool_call:opensource>\n</tool_calls:opensource>",
        (("get_weather", {"city": "Paris", "days": 3}),),
    ),
    Case(
        RS_HY_V3,
        '<tool_calls>\n<tool_call>search<tool_sep>\n<arg_key>query</arg_key>\n<arg_value>{"term":"rust"}</arg_value>\n</tool_call>\n</tool_calls>',
        (("search", {"query": {"term": "rust"}}),),
    ),
    Case(
        RS_HY_V3,
        "<tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Tokyo</arg_value></tool_call>",
        (("get_weather", {"city": "Tokyo"}),),
    ),
    Case(
        RS_HY_V3,
        "before<tool_calls:opensource>\n<tool_call:opensource>search<tool_sep:opensource>\n</tool_call:opensource>\n</tool_calls:opensource>after",
        (("search", {}),),
        text="beforeafter",
    ),
    Case(
        RS_HY_V3,
        "<tool_calls:opensource>\n<tool_call:opensource>search<tool_sep:opensource>\n",
        problem=True,
        note="the source: an incomplete call is left unparsed",
    ),
    Case(
        RS_LIQUID,
        '<|tool_call_start|>[get_weather(location="Paris")]<|tool_call_end|>',
        (("get_weather", {"location": "Paris"}),),
    ),
    Case(
        RS_LIQUID,
        "<|tool_call_start|>[search(query='rust, candle'), set_flags(enabled=True, limit=3, ratio=0.5, meta={\"source\":\"web\"}, tags=['a', 'b'], value=None)]<|tool_call_end|>",
        (
            ("search", {"query": "rust, candle"}),
            (
                "set_flags",
                {
                    "enabled": True,
                    "limit": 3,
                    "ratio": 0.5,
                    "meta": {"source": "web"},
                    "tags": ["a", "b"],
                    "value": None,
                },
            ),
        ),
    ),
    Case(
        RS_LIQUID,
        'before <|tool_call_start|>[search(query="rust")]<|tool_call_end|> after',
        (("search", {"query": "rust"}),),
        text="before  after",
    ),
    Case(
        RS_LIQUID,
        '<|tool_call_start|>[get_weather(location="Paris")]<|tool_call_end|>Checking.',
        (("get_weather", {"location": "Paris"}),),
        text="Checking.",
    ),
    Case(
        RS_LIQUID,
        '<|tool_call_start|>[search(query="rust")]',
        problem=True,
        note="the source: an incomplete call is left unparsed",
    ),
    Case(
        RS_QWEN,
        '<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>',
        (("get_weather", {"city": "Paris"}),),
    ),
    Case(
        RS_QWEN,
        '<tool_call>\n<function=get_weather>\n<parameter=locations>\n[{"country":"France","city":"Paris"}]\n</parameter>\n<parameter=temp_units>\ncelsius\n</parameter>\n</function>\n</tool_call>',
        (("get_weather", {"locations": [{"country": "France", "city": "Paris"}], "temp_units": "celsius"}),),
    ),
    Case(
        RS_QWEN,
        "<tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</tool_call><tool_call>\n<function=get_time>\n<parameter=timezone>Asia/Tokyo</parameter>\n</function>\n</tool_call>",
        (("get_weather", {"city": "Tokyo"}), ("get_time", {"timezone": "Asia/Tokyo"})),
    ),
    Case(
        RS_QWEN,
        "<tool_call>\n<function=mistralrs_execute_python>\n<parameter=code>\nprint(1 < 2)\n</parameter>\n</function>\n</tool_call>",
        (("mistralrs_execute_python", {"code": "print(1 < 2)"}),),
    ),
)

SEEN_FAMILY_CASES: tuple[Case, ...] = (*GRANITE_CASES, *NEMOTRON_CASES, *MINISTRAL_CASES, *RS_CASES)
"""Replies of families the corpus or an earlier set used, from source files not read before: reported apart."""
