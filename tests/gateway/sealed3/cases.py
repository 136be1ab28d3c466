# ruff: noqa: E501 - replies are kept whole, as their sources write them
"""The gateway's third sealed set: replies of model families that neither the call corpus nor the first
two sealed sets used, written down before any reader was changed for the second set's misses (see
SOURCES.md).

New families: Code World Model (CWM), RWKV, Kolibri, Glimmer, Step3, Apertus, Arcee Trinity and
INTELLECT-3. One family already used (Poolside, in the second set) is here again from a new source file
(Laguna); its replies are `SEEN_FAMILY_CASES` and are reported apart from the headline. Each entry's
`source` names the repository, the file and the commit it was transcribed from. Rules as in the earlier
sets: a reply the source expects to yield calls gives those calls (name and arguments, in order); a reply
the source treats as malformed or incomplete must yield no call and be reported (through the gateway: the
model is asked again); prose stays prose, and where the source says what text remains, that text must
remain.
"""

from __future__ import annotations

import json
from typing import Any

from corpus.case import Case

_V = "vllm-project/vllm tests/tool_parsers/"
_VE = "vllm-project/vllm tests/entrypoints/openai/tool_parsers/"
_O = "ollama/ollama model/parsers/"
CWM = _V + "test_cwm_tool_parser.py @ 35cef65a8fd1de9729c27f2bcc5ab4877ef4b9c4"
CWM_SHORT = _V + "test_csm_tool_parser.py @ f4905e929dca0a72b85b568574763c1a29b036e4"
RWKV = _V + "test_rwkv_tool_parser.py @ 04e47dbebc98b1069dbe78163aa7346e38a9e667"
STEP3 = _V + "test_step3_tool_parser.py @ 04b590e613452c30240e574e66102b4838570054"
APERTUS = _V + "test_apertus_tool_parser.py @ 266c3ccc1d53a28e59a1ea6fc49ab9918d4fb693"
APERTUS15 = _O + "apertus15_test.go @ 15b4c6cfeda3b1d2f7da7b71c13fc3c4b1d36852"
TRINITY = _VE + "test_trinity_tool_parser_simple.py @ dc526457e8ebe615cf953b6b2bf6bb569a3b6b44"
KOLIBRI = _O + "kolibri1_test.go @ 75b368ad148b2233a8cbd66c5c240520c8fbb42b"
GLIMMER = _O + "glimmer_test.go @ 43f4eda80887877ad0106574d8f3f4b7d69c9cf9"
INTELLECT3 = _O + "intellect3_test.go @ 412954c45256b447ecb587c6eaf40ecbd324e82c"
LAGUNA = _O + "laguna_test.go @ 081c1bab722bc869fc8d109d5b8553983795a2e9"

FAMILIES = {
    CWM: "cwm",
    CWM_SHORT: "cwm",
    RWKV: "rwkv",
    STEP3: "step3",
    APERTUS: "apertus",
    APERTUS15: "apertus",
    TRINITY: "trinity",
    KOLIBRI: "kolibri",
    GLIMMER: "glimmer",
    INTELLECT3: "intellect3",
    LAGUNA: "laguna (seen family)",
}
"""Each source's model family, as the score table names it."""

SEEN_FAMILIES = frozenset({"laguna (seen family)"})
"""Families an earlier set already used (here from new source files), reported apart from the headline."""

# --- Code World Model (CWM) -----------------------------------------------------------------------------------
CWM_CASES = (
    Case(CWM, "This is a test", text="This is a test"),
    Case(
        CWM,
        '<think>Let me search.</think>\n<tool: function>\nterminal find . -name "*.py" | xargs grep -n "def bulk_create"\n</tool>\n',
        (("terminal", {"command": 'find . -name "*.py" | xargs grep -n "def bulk_create"'}),),
        note="the source keeps the reasoning as content; the text is not judged",
    ),
    Case(
        CWM,
        "preamble\n<tool: function>\nterminal echo hi\n</tool>\n<tool: function>\nterminal echo bye\n</tool>\n",
        (("terminal", {"command": "echo hi"}), ("terminal", {"command": "echo bye"})),
        text="preamble",
    ),
    Case(
        CWM_SHORT,
        'prefix\n</think> <tool: python import os; print(os.listdir("_pytest")) </tool>\n',
        (("python", {"command": 'import os; print(os.listdir("_pytest"))'}),),
        note="the shorthand form (no `>` after the label); the source keeps `prefix\\n</think>` as content, not judged",
    ),
)

# --- RWKV ------------------------------------------------------------------------------------------------------
_CITY = {"get_weather": {"city": "string"}, "get_forecast": {"city": "string"}, "bash": {"city": "string"}}


def _rwkv_call(name: str, arguments: dict[str, Any]) -> str:
    """The source's `_tool_call` helper: a bold label and a fenced JSON object."""
    body = json.dumps({"name": name, "arguments": arguments}, indent=2)
    return f"**Tool Call:**\n```json\n{body}\n```"


RWKV_CASES = (
    Case(RWKV, "There is no tool call here.", text="There is no tool call here.", tools=_CITY),
    Case(
        RWKV,
        _rwkv_call("get_weather", {"city": "Paris"}),
        (("get_weather", {"city": "Paris"}),),
        text="",
        tools=_CITY,
    ),
    Case(
        RWKV,
        _rwkv_call("get_weather", {"city": "Paris"}) + "\n" + _rwkv_call("get_forecast", {"city": "Berlin"}),
        (("get_weather", {"city": "Paris"}), ("get_forecast", {"city": "Berlin"})),
        tools=_CITY,
    ),
    Case(
        RWKV,
        "You can run this command manually:\n```bash\nperl -0pi -e 's/return a - b/return a + b/' /tmp/calculator.py\n```\n",
        text="You can run this command manually:\n```bash\nperl -0pi -e 's/return a - b/return a + b/' /tmp/calculator.py\n```\n",
        tools=_CITY,
    ),
    Case(
        RWKV,
        _rwkv_call("bash", {"command": "python /tmp/calculator.py"}),
        (("bash", {"command": "python /tmp/calculator.py"}),),
        tools=_CITY,
        note="the source declares every tool with one `city` parameter, `bash` too",
    ),
    Case(
        RWKV,
        '**Tool Call:**\n```json\n{ "name": "get_weather", "arguments": {"city": "Paris" }\n```',
        problem=True,
        tools=_CITY,
        note="the source: the unbalanced object is no call",
    ),
)

# --- Kolibri ----------------------------------------------------------------------------------------------------
KOLIBRI_CASES = (
    Case(KOLIBRI, "<think>\nCompute.\n</think>\n\n42.", text="42."),
    Case(
        KOLIBRI,
        '<tool_call>{"name":"weather","arguments":{"city":"Berlin"}}</tool_call>',
        (("weather", {"city": "Berlin"}),),
    ),
    Case(KOLIBRI, "42.", text="42."),
)

# --- Glimmer ----------------------------------------------------------------------------------------------------


def _atem(name: str, parameters: str) -> str:
    """The source's `glimmerTestATEM` helper."""
    return f'<atem:function_calls>\n<atem:invoke name="{name}">\n{parameters}</atem:invoke>\n</atem:function_calls>'


_SF = '<atem:parameter name="city">SF</atem:parameter>\n'
_G_WEATHER = {"get_weather": {"city": "string"}}
_BASH_ATEM = _atem("muse.bash", '<atem:parameter name="command">pwd && ls -la</atem:parameter>\n')
_MUSE = {"muse.bash": {"command": "string"}}
_PWD = (("muse.bash", {"command": "pwd && ls -la"}),)
_CONTROL = "literal <|eot|> and <|start|>assistant to=user<|message|> text"
_TYPES = '<atem:parameter name="text"> keep  spaces </atem:parameter>\n<atem:parameter name="count">3</atem:parameter>\n<atem:parameter name="enabled">true</atem:parameter>\n<atem:parameter name="items">["one", "two"]</atem:parameter>\n<atem:parameter name="config">{"mode":"fast"}</atem:parameter>\n<atem:parameter name="choice">null</atem:parameter>\n'
_PWD_NOTE = "the recipient header is fumbled; the source takes the block as the call its invoke names"
GLIMMER_CASES = (
    Case(GLIMMER, " to=user<|message|>Hello", text="Hello"),
    Case(GLIMMER, " to=self<|message|>Check the facts.", text="", note="a message to itself is reasoning"),
    Case(
        GLIMMER,
        " to=self<|message|>Check the facts.<|eom|><|start|>assistant to=user<|message|>Answer<|eot|>",
        text="Answer",
    ),
    Case(GLIMMER, " to=user<|message|>Use `<|start|>` here.", text="Use `<|start|>` here."),
    Case(
        GLIMMER,
        " to=get_weather<|message|>" + _atem("get_weather", _SF) + "<|eot|>",
        (("get_weather", {"city": "SF"}),),
        text="",
        tools=_G_WEATHER,
    ),
    Case(
        GLIMMER,
        " to=tools.run<|message|>" + _atem("tools.run", _TYPES),
        (
            (
                "tools.run",
                {
                    "text": " keep  spaces ",
                    "count": 3,
                    "enabled": True,
                    "items": ["one", "two"],
                    "config": {"mode": "fast"},
                    "choice": None,
                },
            ),
        ),
        text="",
        tools={
            "tools.run": {
                "text": "string",
                "count": "integer",
                "enabled": "boolean",
                "items": "array",
                "config": "object",
            }
        },
        note="`choice` is declared anyOf null/string in the source, which a type name cannot say: left undeclared",
    ),
    Case(
        GLIMMER,
        " to=echo<|message|>"
        + _atem("echo", f'<atem:parameter name="text">{_CONTROL}</atem:parameter>\n')
        + "<|eot|>",
        (("echo", {"text": _CONTROL}),),
        text="",
        tools={"echo": {"text": "string"}},
    ),
    Case(
        GLIMMER,
        " to=self<|message|>Think<|eom|><|start|>assistant to=first<|message|>"
        + _atem("first", '<atem:parameter name="x">1</atem:parameter>\n')
        + "<|eom|><|start|>assistant to=second<|message|>"
        + _atem("second", "")
        + "<|eot|>",
        (("first", {"x": 1}), ("second", {})),
        text="",
        tools={"first": {"x": "integer"}},
    ),
    Case(
        GLIMMER,
        " to=read<|message|>"
        + _atem("read<|message|>", '<atem:parameter name="path">go.mod</atem:parameter>\n')
        + "<|eot|>",
        (("read", {"path": "go.mod"}),),
        text="",
        tools={"read": {"path": "string"}},
        note="the boundary token fumbled into the invoke name",
    ),
    Case(
        GLIMMER,
        " to=get_weather<|message|>" + _atem("read_file", ""),
        problem=True,
        note="the source: the invoke does not match the recipient, an error",
    ),
    Case(
        GLIMMER,
        ' to=get_weather<|message|>{"city":"SF"}',
        problem=True,
        note="the source: no function_calls wrapper, an error",
    ),
    Case(GLIMMER, " to=muse<|message|>" + _BASH_ATEM + "<|eom|>", _PWD, text="", tools=_MUSE, note=_PWD_NOTE),
    Case(GLIMMER, "<|message|>" + _BASH_ATEM + "<|eom|>", _PWD, text="", tools=_MUSE, note=_PWD_NOTE),
    Case(GLIMMER, " to=user<|message|>" + _BASH_ATEM + "<|eot|>", _PWD, text="", tools=_MUSE, note=_PWD_NOTE),
    Case(
        GLIMMER,
        " to=atem:function_calls<|message|>" + _BASH_ATEM + "<|eom|>",
        _PWD,
        text="",
        tools=_MUSE,
        note=_PWD_NOTE,
    ),
    Case(
        GLIMMER,
        " to=self<|message|>let me look<|eom|><|start|>assistant<|message|>" + _BASH_ATEM + "<|eom|>",
        _PWD,
        text="",
        tools=_MUSE,
        note=_PWD_NOTE,
    ),
    Case(
        GLIMMER,
        "<|message|>" + _BASH_ATEM + "<|start|>assistant to=user<|message|>Done<|eot|>",
        _PWD,
        text="Done",
        tools=_MUSE,
        note=_PWD_NOTE,
    ),
    Case(
        GLIMMER,
        " to=user<|message|>Running:\n" + _BASH_ATEM + "<|eot|>",
        text="Running:\n" + _BASH_ATEM,
        tools=_MUSE,
        note="the source: a block after prose in a message to the user stays content",
    ),
    Case(
        GLIMMER,
        " to=user<|message|>" + _BASH_ATEM + "\nDone.<|eot|>",
        text=_BASH_ATEM + "\nDone.",
        tools=_MUSE,
        note="the source: a block followed by prose in a message to the user stays content",
    ),
    Case(
        GLIMMER,
        " to=self<|message|>Think<|start|>assistant to=get_weather<|message|>"
        + _atem("get_weather", _SF)
        + "<|start|>assistant to=user<|message|>Done<|eot|>",
        (("get_weather", {"city": "SF"}),),
        text="Done",
        tools=_G_WEATHER,
    ),
)

# --- Step3 ------------------------------------------------------------------------------------------------------
_S_BEGIN, _S_END = "<｜tool_calls_begin｜><｜tool_call_begin｜>", "<｜tool_call_end｜><｜tool_calls_end｜>"
_TOKYO = '<steptml:invoke name="get_weather"><steptml:parameter name="city">Tokyo</steptml:parameter></steptml:invoke>'
_EDIT = {"edit_file": {"old_string": "string", "indent": "integer", "enabled": "boolean"}}


def _step3_ws(value: str) -> str:
    """The source's `_ws_output`: a string value whose surrounding whitespace is data."""
    return (
        "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>edit_file\n"
        f'<steptml:invoke name="edit_file"><steptml:parameter name="old_string">{value}</steptml:parameter>'
        '<steptml:parameter name="indent"> 4 </steptml:parameter><steptml:parameter name="enabled"> true </steptml:parameter>'
        "</steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>"
    )


STEP3_CASES = (
    Case(
        STEP3,
        "This is a regular response without any tool calls.",
        text="This is a regular response without any tool calls.",
    ),
    Case(STEP3, _S_BEGIN + _TOKYO + _S_END, (("get_weather", {"city": "Tokyo"}),)),
    Case(
        STEP3,
        _S_BEGIN
        + _TOKYO
        + '<｜tool_call_end｜><｜tool_sep｜><｜tool_call_begin｜><steptml:invoke name="get_time"><steptml:parameter name="timezone">Asia/Tokyo</steptml:parameter></steptml:invoke>'
        + _S_END,
        (("get_weather", {"city": "Tokyo"}), ("get_time", {"timezone": "Asia/Tokyo"})),
        note="the source checks the names; the arguments are the reply's",
    ),
    Case(STEP3, _S_BEGIN + '<steptml:invoke name="refresh"></steptml:invoke>' + _S_END, (("refresh", {}),)),
    Case(
        STEP3,
        "Let me check the weather for you.\n\n"
        + _S_BEGIN
        + _TOKYO
        + _S_END
        + "\n\nI'll get that information.",
        (("get_weather", {"city": "Tokyo"}),),
        note="the source checks that the call is taken, not the text",
    ),
    Case(
        STEP3,
        '<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="func">',
        problem=True,
        note="the source only checks that it does not fail; a call cut off before its end is reported here",
    ),
    Case(
        STEP3,
        _step3_ws("    if x:\n        return 1\n"),
        (("edit_file", {"old_string": "    if x:\n        return 1\n", "indent": 4, "enabled": True}),),
        tools=_EDIT,
    ),
    Case(
        STEP3,
        _step3_ws("hello "),
        (("edit_file", {"old_string": "hello ", "indent": 4, "enabled": True}),),
        tools=_EDIT,
    ),
    Case(
        STEP3,
        _step3_ws("return 1\n"),
        (("edit_file", {"old_string": "return 1\n", "indent": 4, "enabled": True}),),
        tools=_EDIT,
    ),
)

# --- Apertus ----------------------------------------------------------------------------------------------------
_TP, _TS = "<|tools_prefix|>", "<|tools_suffix|>"
_IP, _IS = "<|inner_prefix|>", "<|inner_suffix|>"
_LONDON = ("get_weather", {"location": "London"})
APERTUS_CASES = (
    Case(APERTUS, "Hello, how can I help you today?", text="Hello, how can I help you today?"),
    Case(APERTUS, _TP + '[{"get_weather": {"location": "London"}}]' + _TS, (_LONDON,)),
    Case(
        APERTUS,
        _TP + '[{"get_weather": {"location": "San Francisco", "unit": "celsius"}}]' + _TS,
        (("get_weather", {"location": "San Francisco", "unit": "celsius"}),),
    ),
    Case(
        APERTUS,
        "Let me check the weather for you. " + _TP + '[{"get_weather": {"location": "Paris"}}]' + _TS,
        (("get_weather", {"location": "Paris"}),),
        text="Let me check the weather for you.",
    ),
    Case(
        APERTUS,
        _TP + '[{"get_weather": {"location": "London"}}, {"get_time": {"location": "London"}}]' + _TS,
        (_LONDON, ("get_time", {"location": "London"})),
    ),
    Case(
        APERTUS,
        _TP + '[{"complex_function": {"nested": {"inner": "value"}, "list": ["a", "b"]}}]' + _TS,
        (("complex_function", {"nested": {"inner": "value"}, "list": ["a", "b"]}),),
    ),
    Case(
        APERTUS,
        _TP + '[{"get_weather": {"location": "London"}',
        problem=True,
        note="the source completes the cut-off JSON and takes the call; here a call cut off is reported, never run",
    ),
    Case(
        APERTUS,
        _TP + '[{"get_weather": {"location": "San Francisco", "unit": "celsius"}}]',
        (("get_weather", {"location": "San Francisco", "unit": "celsius"}),),
        note="the list is complete; only the closing token is missing",
    ),
    Case(
        APERTUS15,
        "<|assistant_start|>Before." + _IP + "Reason carefully." + _IS + "After.<|assistant_end|>",
        text="Before.After.",
    ),
    Case(
        APERTUS15,
        "I will check."
        + _TP
        + '[{"get_weather":{"city":"Zurich"}},{"get_time":{"offset":2,"dst":true}}]'
        + _TS,
        (("get_weather", {"city": "Zurich"}), ("get_time", {"offset": 2, "dst": True})),
        text="I will check.",
    ),
    Case(
        APERTUS15,
        _IP + "Need weather." + _TP + '[{"get_weather":{"city":"Bern"}}]' + _TS,
        (("get_weather", {"city": "Bern"}),),
        text="",
        note="the call follows reasoning that was never closed",
    ),
    Case(
        APERTUS15,
        _TP + '[{"lookup":{"id":"42"}}]',
        (("lookup", {"id": "42"}),),
        note="the closing token was consumed",
    ),
    Case(
        APERTUS15,
        "Before."
        + _TP
        + '[{"first":{"x":1}}]'
        + _TS
        + "Between."
        + _TP
        + '[{"second":{"y":2}}]'
        + _TS
        + "After.",
        (("first", {"x": 1}), ("second", {"y": 2})),
        text="Before.Between.After.",
    ),
    Case(
        APERTUS15,
        "<|assistant_start|>"
        + _IP
        + "Think."
        + _IS
        + "Answer."
        + _TP
        + '[{"lookup":{"id":"42"}}]'
        + _TS
        + "<|assistant_end|>",
        (("lookup", {"id": "42"}),),
        text="Answer.",
    ),
    Case(APERTUS15, _TP + '[{"lookup":' + _TS, problem=True, note="the source: a parsing error"),
    Case(
        APERTUS15,
        _TP + '[{"one":{},"two":{}}]' + _TS,
        problem=True,
        note="the source: two names in one entry is an error",
    ),
    Case(
        APERTUS15,
        _TP + '[{"lookup":"not-an-object"}]' + _TS,
        problem=True,
        note="the source: arguments that are no object are an error",
    ),
    Case(
        APERTUS15,
        _TP + '[{"lookup":[1,2]}]' + _TS,
        problem=True,
        note="the source: arguments that are no object are an error",
    ),
    Case(
        APERTUS15,
        _TP + '[{"lookup":null}]' + _TS,
        problem=True,
        note="the source: arguments that are no object are an error",
    ),
)

# --- Arcee Trinity ----------------------------------------------------------------------------------------------
_FINAL = (("final_answer", {"trigger": True}),)
_FINAL_CALL = '<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}}\n</tool_call>'
TRINITY_CASES = (
    Case(
        TRINITY,
        "<think>internal reasoning</think>\n" + _FINAL_CALL,
        _FINAL,
        note="the source keeps the reasoning as content; not judged",
    ),
    Case(
        TRINITY,
        "<think>internal reasoning\n" + _FINAL_CALL + "\nmore reasoning</think>",
        _FINAL,
        note="the call sits inside the reasoning; the source takes it; the text is not judged",
    ),
    Case(
        TRINITY,
        "<think>internal reasoning</think> done",
        note="the source keeps the reasoning as content; not judged",
    ),
    Case(
        TRINITY,
        '<think>thinking</think>\n<tool_call>\n{"name": "search", "arguments": {"query": "test"}}\n</tool_call>\n<tool_call>\n{"name": "calculate", "arguments": {"expr": "2+2"}}\n</tool_call>',
        (("search", {"query": "test"}), ("calculate", {"expr": "2+2"})),
    ),
    Case(
        TRINITY,
        'Some content\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "NYC"}}\n</tool_call>',
        (("get_weather", {"city": "NYC"}),),
        text="Some content",
    ),
    Case(TRINITY, '<tool_call>\n{"name": "no_args", "arguments": {}}\n</tool_call>', (("no_args", {}),)),
    Case(
        TRINITY,
        '<tool_call>\n{"name": "complex", "arguments": {"nested": {"a": 1, "b": [1, 2, 3]}}}\n</tool_call>',
        (("complex", {"nested": {"a": 1, "b": [1, 2, 3]}}),),
    ),
    Case(
        TRINITY,
        "Just some regular text without any special tags.",
        text="Just some regular text without any special tags.",
    ),
)

# --- INTELLECT-3 ------------------------------------------------------------------------------------------------
_I_TOOLS = {"get_weather": {"location": "string", "unit": "string"}}


def _i3(location: str, unit: str) -> str:
    return f"<tool_call><function=get_weather>\n<parameter=location>\n{location}\n</parameter>\n<parameter=unit>\n{unit}\n</parameter>\n</function></tool_call>"


def _w(location: str, unit: str) -> tuple[str, dict[str, Any]]:
    return ("get_weather", {"location": location, "unit": unit})


INTELLECT3_CASES = (
    Case(
        INTELLECT3,
        "Let me check the weather" + _i3("San Francisco", "celsius"),
        (_w("San Francisco", "celsius"),),
        text="Let me check the weather",
        tools=_I_TOOLS,
    ),
    Case(
        INTELLECT3,
        "Checking" + _i3("New York", "fahrenheit") + "Done",
        (_w("New York", "fahrenheit"),),
        text="CheckingDone",
        tools=_I_TOOLS,
    ),
    Case(
        INTELLECT3,
        _i3("Boston", "celsius") + _i3("Seattle", "fahrenheit"),
        (_w("Boston", "celsius"), _w("Seattle", "fahrenheit")),
        text="",
        tools=_I_TOOLS,
    ),
    Case(INTELLECT3, "Just regular content", text="Just regular content", tools=_I_TOOLS),
    Case(
        INTELLECT3,
        "<think>Need to get weather data</think>Let me check" + _i3("Paris", "celsius"),
        (_w("Paris", "celsius"),),
        text="Let me check",
        tools=_I_TOOLS,
    ),
    Case(
        INTELLECT3,
        "<think>User wants weather info</think>Checking weather" + _i3("Tokyo", "celsius") + "Done!",
        (_w("Tokyo", "celsius"),),
        text="Checking weatherDone!",
        tools=_I_TOOLS,
    ),
    Case(
        INTELLECT3,
        "<think>Need multiple locations</think>"
        + _i3("Boston", "celsius")
        + "and"
        + _i3("Berlin", "celsius"),
        (_w("Boston", "celsius"), _w("Berlin", "celsius")),
        text="and",
        tools=_I_TOOLS,
    ),
    Case(
        INTELLECT3,
        "<tool_call><function=test_func>\n<parameter=param>\nvalue\n</parameter>\n</function>",
        problem=True,
        tools={"test_func": {"param": "string"}},
        note="the source waits for `</tool_call>` and gives no call; cut off, so reported",
    ),
    Case(INTELLECT3, "<tool>Not a tool call</tool>", text="<tool>Not a tool call</tool>"),
    Case(INTELLECT3, "<think>思考中 🤔</think>答案是 42", text="答案是 42"),
)

CASES: tuple[Case, ...] = (
    *CWM_CASES,
    *RWKV_CASES,
    *KOLIBRI_CASES,
    *GLIMMER_CASES,
    *STEP3_CASES,
    *APERTUS_CASES,
    *TRINITY_CASES,
    *INTELLECT3_CASES,
)
"""The headline: replies of families no earlier set or corpus used."""

# --- Laguna (Poolside: a family the second set used, from a new source file) -----------------------------------
_L_TOOLS = {"get_weather": {"location": "string", "days": "integer"}}
_L_PARIS = ("get_weather", {"location": "Paris", "days": 3})
SEEN_FAMILY_CASES = (
    Case(
        LAGUNA,
        "<tool_call>get_weather\n<arg_key>location</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>",
        (_L_PARIS,),
        text="",
        tools=_L_TOOLS,
    ),
    Case(
        LAGUNA,
        '<tool_call>\n{"name":"get_weather","arguments":{"location":"Paris","days":3}}\n</tool_call>',
        (_L_PARIS,),
        tools=_L_TOOLS,
    ),
    Case(
        LAGUNA,
        '{"name":"get_weather","arguments":{"location":"Paris","days":3}}',
        (_L_PARIS,),
        text="",
        tools=_L_TOOLS,
    ),
    Case(
        LAGUNA,
        'Let me call the weather tool.\n{"name":"get_weather","arguments":{"location":"Paris"}}',
        (("get_weather", {"location": "Paris"}),),
        text="Let me call the weather tool.",
        tools=_L_TOOLS,
    ),
    Case(
        LAGUNA,
        '<tool_call>get_weather\n{"location":"San Francisco"}</tool_call>',
        (("get_weather", {"location": "San Francisco"}),),
        tools=_L_TOOLS,
    ),
    Case(
        LAGUNA,
        '<tool_call>skill\n{"name":"git-diff-review"}\n<tool_call>skill\n{"name":"git-diff-review"}</tool_call>',
        (("skill", {"name": "git-diff-review"}),),
        tools={"skill": {"name": "string"}},
        note="the source: a call opened twice is one call",
    ),
    Case(
        LAGUNA,
        "<thought>Need current weather.</thought>\n<tool_call>get_weather\n<arg_key>location</arg_key>\n<arg_value>SF</arg_value>\n</tool_call>",
        (("get_weather", {"location": "SF"}),),
        tools=_L_TOOLS,
        note="whether the thought stays in the text depends on the source's thinking setting; not judged",
    ),
    Case(
        LAGUNA,
        "<user>get_weather\n<arg_key>location</arg_key>\n<arg_value>San Francisco, CA</arg_value>\n</user>",
        (("get_weather", {"location": "San Francisco, CA"}),),
        text="",
        tools=_L_TOOLS,
    ),
    Case(
        LAGUNA,
        "I'll read the file for you.\n<user>read\n<arg_key>path</arg_key>\n<arg_value>/Users/test/code/myproject/go.mod</arg_value>\n</user>",
        (("read", {"path": "/Users/test/code/myproject/go.mod"}),),
        text="I'll read the file for you.",
        tools={"read": {"path": "string"}},
    ),
    Case(
        LAGUNA,
        'I\'ll run git diff for you.<user>\n{"name":"bash","arguments":{"command":"git diff main"}}\n</user>',
        (("bash", {"command": "git diff main"}),),
        text="I'll run git diff for you.",
        tools={"bash": {"command": "string"}},
    ),
    Case(LAGUNA, "<user>hello</user>", text="<user>hello</user>", tools=_L_TOOLS),
    Case(
        LAGUNA,
        "<thought>Need to reason.</thought>\nDirect answer.",
        text="Direct answer.",
        note="the source, with no tools offered, takes the thought as reasoning",
    ),
)
"""Replies of a family an earlier set used, from a source file not read before: reported apart."""
