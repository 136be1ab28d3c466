"""Replies from SGLang's and vLLM's tool-parser test suites."""

from __future__ import annotations

from corpus.case import Case

SG = "sgl-project/sglang test/srt/test_function_call_parser.py"
VH = "vllm-project/vllm tests/tool_parsers/test_hermes_tool_parser.py"
VM = "vllm-project/vllm tests/tool_parsers/test_mistral_tool_parser.py"
VP = "vllm-project/vllm tests/tool_parsers/test_pythonic_tool_parser.py"
VL = "vllm-project/vllm tests/tool_parsers/test_llama3_json_tool_parser.py"
VX = "vllm-project/vllm tests/tool_use/test_xlam_tool_parser.py"
VD = "vllm-project/vllm tests/tool_use/test_deepseekv31_tool_parser.py"
VO = "vllm-project/vllm tests/tool_use/test_openai_tool_parser.py"
VF = "vllm-project/vllm tests/tool_parsers/test_functiongemma_tool_parser.py"

QWEN_TOOLS = {
    "get_current_weather": {"city": "string", "state": "string", "unit": "string"},
    "calculate_area": {"shape": "string", "dimensions": "object", "precision": "integer"},
}
TYPES_TOOL = {
    "test_types": {
        "int_param": "integer",
        "float_param": "float",
        "bool_param": "boolean",
        "str_param": "string",
        "obj_param": "object",
    }
}
DALLAS = ("get_current_weather", {"city": "Dallas", "state": "TX", "unit": "fahrenheit"})
ORLANDO = ("get_current_weather", {"city": "Orlando", "state": "FL", "unit": "fahrenheit"})
DALLAS_XML = (
    "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n"
    "</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>"
)
ORLANDO_XML = DALLAS_XML.replace("Dallas", "Orlando").replace("TX", "FL")
SIMPLE = "get_weather(city='San Francisco', metric='celsius')"
SIMPLE_CALL = ("get_weather", {"city": "San Francisco", "metric": "celsius"})
MORE = (
    "register_user(name='John Doe', age=37, address={'city': 'San Francisco', 'state': 'CA'}, role=None, "
    "passed_test=True, aliases=['John', 'Johnny'])"
)
MORE_CALL = (
    "register_user",
    {
        "name": "John Doe",
        "age": 37,
        "address": {"city": "San Francisco", "state": "CA"},
        "role": None,
        "passed_test": True,
        "aliases": ["John", "Johnny"],
    },
)
NEXT_STEP = (
    "```\nTOOL: Access a weather API or service\nOBSERVATION: Retrieve the current weather data for the top 5 "
    "populated cities in the US\nANSWER: The weather in the top 5 populated cities in the US is as follows: "
    "[City Name] - [Weather Conditions] - [Temperature]\n```"
)
SF_CA = {"city": "San Francisco", "state": "CA", "unit": "celsius"}

CASES: tuple[Case, ...] = (
    # --- SGLang: pythonic ---------------------------------------------------------------------------
    Case(
        SG,
        "This is just normal text without any tool calls.",
        text="This is just normal text without any tool calls.",
    ),
    Case(
        SG,
        "Here's a tool call: [get_weather(location='New York', unit='celsius')]",
        (("get_weather", {"location": "New York", "unit": "celsius"}),),
        text="Here's a tool call:",
    ),
    Case(
        SG,
        "This is some text before [get_weather(location='London')]",
        (("get_weather", {"location": "London"}),),
        text="This is some text before",
    ),
    Case(
        SG,
        "Let me check the weather: [get_weather(location='Paris')]",
        (("get_weather", {"location": "Paris"}),),
    ),
    Case(SG, "[search(query='python programming')]", (("search", {"query": "python programming"}),), text=""),
    Case(
        SG,
        "[get_weather(location='Tokyo')] Here's the forecast:",
        (("get_weather", {"location": "Tokyo"}),),
        text="Here's the forecast:",
    ),
    Case(
        SG,
        "[get_weather(location='Berlin')] and [search(query='restaurants')]",
        (("get_weather", {"location": "Berlin"}), ("search", {"query": "restaurants"})),
        text="and",
    ),
    Case(
        SG,
        "[get_weather(location='New York', unit='celsius', data=[1, 2, 3])]",
        (("get_weather", {"location": "New York", "unit": "celsius", "data": [1, 2, 3]}),),
    ),
    Case(
        SG,
        "[search(query='test', config={'options': [1, 2], 'nested': {'key': 'value'}})]",
        (("search", {"query": "test", "config": {"options": [1, 2], "nested": {"key": "value"}}}),),
    ),
    Case(
        SG,
        "[get_weather(location='Paris', data=[10, 20]), search(query='test', filters=['a', 'b'])]",
        (
            ("get_weather", {"location": "Paris", "data": [10, 20]}),
            ("search", {"query": "test", "filters": ["a", "b"]}),
        ),
    ),
    Case(
        SG,
        "Here's a call: [get_weather(location='Tokyo', data=[1, 2, 3])]",
        (("get_weather", {"location": "Tokyo", "data": [1, 2, 3]}),),
    ),
    Case(
        SG,
        "Here's a call: <|python_start|>[get_weather(location='Tokyo', data=[1, 2, 3])]<|python_end|>",
        (("get_weather", {"location": "Tokyo", "data": [1, 2, 3]}),),
        text="Here's a call:",
    ),
    Case(
        SG,
        "User wants to get the weather in Mars. <|python_start|>[get_weather(location='Mars', unit='celsius')]"
        "<|python_end|> In this way we will get the weather in Mars.",
        (("get_weather", {"location": "Mars", "unit": "celsius"}),),
        text="User wants to get the weather in Mars.  In this way we will get the weather in Mars.",
    ),
    Case(
        SG,
        "Let me check the weather: [get_weather(location=",
        problem=True,
        note="SGLang buffers the partial call while streaming; a finished reply that ends there lost a call",
    ),
    # --- SGLang: Mistral ------------------------------------------------------------------------------
    Case(
        SG,
        '[TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"","content":'
        + __import__("json").dumps(NEXT_STEP)
        + "}}]",
        (("make_next_step_decision", {"decision": "", "content": NEXT_STEP}),),
        text="",
    ),
    Case(
        SG,
        '[TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"TOOL", "content":"Use weather API"}}]',
        (("make_next_step_decision", {"decision": "TOOL", "content": "Use weather API"}),),
    ),
    Case(
        SG,
        'Here is some text before the tool call: [TOOL_CALLS] [{"name":"make_next_step_decision", '
        '"arguments":{"decision":"ANSWER", "content":"The answer is 42"}}]',
        (("make_next_step_decision", {"decision": "ANSWER", "content": "The answer is 42"}),),
        text="Here is some text before the tool call:",
    ),
    # --- SGLang: Hermes / Qwen 2.5 --------------------------------------------------------------------
    Case(
        SG,
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
        (("get_weather", {"city": "Paris"}),),
    ),
    Case(
        SG,
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}, '
        '{"name": "get_tourist_attractions", "arguments": {"city": "London"}} </tool_call>',
        (("get_weather", {"city": "Paris"}), ("get_tourist_attractions", {"city": "London"})),
    ),
    Case(
        SG,
        '<tool_call>{"name": "invalid_tool", "arguments": {"city": "Paris"}}</tool_call>',
        (("invalid_tool", {"city": "Paris"}),),
        note="SGLang drops unknown tools; here the runner rejects them and tells the model",
    ),
    # --- SGLang: Llama 3.2 ----------------------------------------------------------------------------
    Case(
        SG,
        '{"name": "get_weather", "parameters": {"city": "Paris"}}',
        (("get_weather", {"city": "Paris"}),),
        text="",
    ),
    Case(
        SG,
        '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}};'
        '{"name": "get_tourist_attractions", "parameters": {"city": "Paris"}}',
        (("get_weather", {"city": "Paris"}), ("get_tourist_attractions", {"city": "Paris"})),
        text="",
    ),
    Case(
        SG,
        '<|python_tag|>{"name": "get_weather", "parameters": {}}<|python_tag|>'
        '{"name": "get_tourist_attractions", "parameters": {}}',
        (("get_weather", {}), ("get_tourist_attractions", {})),
        text="",
    ),
    Case(
        SG,
        '{"name": "get_weather", "parameters": {}} Some follow-up text',
        (("get_weather", {}),),
        text="Some follow-up text",
    ),
    Case(
        SG,
        '{"name": "get_weather", "parameters": {{"name": "get_weather", "parameters": {}}',
        (("get_weather", {}),),
        problem=True,
        note="the malformed first object is reported, the valid second one runs",
    ),
    Case(SG, "This is just plain explanation text.", text="This is just plain explanation text."),
    Case(
        SG,
        'Some intro. <|python_tag|>{"name": "get_weather", "parameters": {}}',
        (("get_weather", {}),),
        text="Some intro.",
    ),
    # --- SGLang: Kimi K2 ------------------------------------------------------------------------------
    Case(
        SG,
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
        '{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
        (("get_weather", {"city": "Paris"}),),
        text="",
    ),
    Case(
        SG,
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
        '{"city": "Paris"}<|tool_call_end|><|tool_call_begin|>functions.get_tourist_attractions:1'
        '<|tool_call_argument_begin|>{"city": "London"}<|tool_call_end|><|tool_calls_section_end|>',
        (("get_weather", {"city": "Paris"}), ("get_tourist_attractions", {"city": "London"})),
        text="",
    ),
    # --- SGLang: DeepSeek V3 --------------------------------------------------------------------------
    Case(
        SG,
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city":"Shanghai"}\n```'
        "<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_tourist_attractions\n```json\n"
        '{"city": "Beijing"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        (("get_weather", {"city": "Shanghai"}), ("get_tourist_attractions", {"city": "Beijing"})),
        text="",
    ),
    # --- SGLang: Qwen3-Coder --------------------------------------------------------------------------
    Case(
        SG,
        "This is a test response without any tool calls",
        text="This is a test response without any tool calls",
    ),
    Case(SG, DALLAS_XML, (DALLAS,), text="", tools=QWEN_TOOLS),
    Case(
        SG,
        "Sure! Let me check the weather for you." + DALLAS_XML,
        (DALLAS,),
        text="Sure! Let me check the weather for you.",
        tools=QWEN_TOOLS,
    ),
    Case(
        SG,
        "<tool_call>\n<function=calculate_area>\n<parameter=shape>\nrectangle\n</parameter>\n"
        '<parameter=dimensions>\n{"width": 10,\n "height": 20}\n</parameter>\n<parameter=precision>\n2\n'
        "</parameter>\n</function>\n</tool_call>",
        (
            (
                "calculate_area",
                {"shape": "rectangle", "dimensions": {"width": 10, "height": 20}, "precision": 2},
            ),
        ),
        tools=QWEN_TOOLS,
    ),
    Case(SG, DALLAS_XML + "\n" + ORLANDO_XML, (DALLAS, ORLANDO), text="", tools=QWEN_TOOLS),
    Case(
        SG,
        "<tool_call>\n<function=get_current_weather>\n</function>\n</tool_call>",
        (("get_current_weather", {}),),
        tools=QWEN_TOOLS,
    ),
    Case(
        SG,
        "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas->TX\n</parameter>\n</function>\n"
        "</tool_call>",
        (("get_current_weather", {"city": "Dallas->TX"}),),
        tools=QWEN_TOOLS,
    ),
    Case(
        SG,
        "<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n"
        "</parameter>\n</function>",
        (("get_current_weather", {"city": "Dallas", "state": "TX"}),),
        tools=QWEN_TOOLS,
    ),
    Case(
        SG,
        "<tool_call>\n<function=test_types>\n<parameter=int_param>\n42\n</parameter>\n<parameter=float_param>\n"
        "3.14\n</parameter>\n<parameter=bool_param>\ntrue\n</parameter>\n<parameter=str_param>\nhello world\n"
        '</parameter>\n<parameter=obj_param>\n{"key": "value"}\n</parameter>\n</function>\n</tool_call>',
        (
            (
                "test_types",
                {
                    "int_param": 42,
                    "float_param": 3.14,
                    "bool_param": True,
                    "str_param": "hello world",
                    "obj_param": {"key": "value"},
                },
            ),
        ),
        tools=TYPES_TOOL,
    ),
    Case(
        SG,
        "I'll check the weather.<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n"
        "</parameter>\n<parameter=state>\nTX\n</parameter>\n</function>\n</tool_call>",
        (("get_current_weather", {"city": "Dallas", "state": "TX"}),),
        text="I'll check the weather.",
        tools=QWEN_TOOLS,
    ),
    Case(
        SG,
        "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\n"
        "TX\n</parameter>\n</function>\n</tool_call>\nSome text in between.\n<tool_call>\n<function=calculate_area>\n"
        '<parameter=shape>\ncircle\n</parameter>\n<parameter=dimensions>\n{"radius": 5}\n</parameter>\n</function>\n'
        "</tool_call>",
        (
            ("get_current_weather", {"city": "Dallas", "state": "TX"}),
            ("calculate_area", {"shape": "circle", "dimensions": {"radius": 5}}),
        ),
        text="Some text in between.",
        tools=QWEN_TOOLS,
    ),
    Case(
        SG,
        "<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX",
        problem=True,
        tools=QWEN_TOOLS,
        note="cut off before its closing tags (max_tokens); issue 28: a call the reply stopped inside is reported as cut off, never run",
    ),
    # --- SGLang: GLM-4.5 ------------------------------------------------------------------------------
    Case(
        SG,
        "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n"
        "<arg_value>2024-06-27</arg_value>\n</tool_call>",
        (("get_weather", {"city": "Beijing", "date": "2024-06-27"}),),
        text="",
        tools={"get_weather": {"city": "string", "date": "string"}},
    ),
    Case(
        SG,
        "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n"
        "<arg_value>2024-06-27</arg_value>\n</tool_call><tool_call>get_weather\n<arg_key>city</arg_key>\n"
        "<arg_value>Shanghai</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2024-06-28</arg_value>\n</tool_call>",
        (
            ("get_weather", {"city": "Beijing", "date": "2024-06-27"}),
            ("get_weather", {"city": "Shanghai", "date": "2024-06-28"}),
        ),
        text="",
        tools={"get_weather": {"city": "string", "date": "string"}},
    ),
    Case(
        SG,
        "<tool_call>invalid_func\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n</tool_call>",
        (("invalid_func", {"city": "Beijing"}),),
        note="unknown tools are rejected by the runner, not the parser",
    ),
    Case(
        SG,
        '<tool_call>todo_write\n<arg_key>todos</arg_key>\n<arg_value>[{"id": "1", "task": "Check for hard-coded '
        'issues in the backend code", "status": "in_progress"}, {"id": "2", "task": "Check for hard-coded issues in '
        'the frontend code", "status": "pending"}]</arg_value>\n</tool_call>',
        (
            (
                "todo_write",
                {
                    "todos": [
                        {
                            "id": "1",
                            "task": "Check for hard-coded issues in the backend code",
                            "status": "in_progress",
                        },
                        {
                            "id": "2",
                            "task": "Check for hard-coded issues in the frontend code",
                            "status": "pending",
                        },
                    ]
                },
            ),
        ),
        tools={"todo_write": {"todos": "array"}},
    ),
    Case(
        SG,
        '<tool_call>todo_write\n<arg_key>todos</arg_key>\n<arg_value>[{\\"id\\": \\"1\\", \\"task\\": \\"Generate a '
        'rectification proposal report\\", \\"status\\": \\"pending\\"}]</arg_value>\n</tool_call>',
        (
            (
                "todo_write",
                {
                    "todos": [
                        {"id": "1", "task": "Generate a rectification proposal report", "status": "pending"}
                    ]
                },
            ),
        ),
        tools={"todo_write": {"todos": "array"}},
        note="GLM-4.6 escapes the quotes inside the value",
    ),
    # --- SGLang: JSON arrays --------------------------------------------------------------------------
    Case(
        SG,
        '[{"name": "get_weather", "parameters": {"location": "Tokyo"}}, {"name": "search", "parameters": '
        '{"query": "restaurants"}}, {"name": "get_weather", "parameters": {"location": "Paris"}}]',
        (
            ("get_weather", {"location": "Tokyo"}),
            ("search", {"query": "restaurants"}),
            ("get_weather", {"location": "Paris"}),
        ),
    ),
    Case(
        SG,
        '[{"name": "get_weather", "parameters": {"location": "has } inside"}}]',
        (("get_weather", {"location": "has } inside"}),),
    ),
    Case(
        SG,
        '[{"name": "get_weather", "parameters": {"location": "Tokyo", "nested": {"key": "value"}}}]',
        (("get_weather", {"location": "Tokyo", "nested": {"key": "value"}}),),
    ),
    Case(
        SG,
        ' \n\n [{"name": "get_weather", "parameters": {"location": "Tokyo"}}]',
        (("get_weather", {"location": "Tokyo"}),),
    ),
    Case(
        SG,
        '[{"name": "get_weather", "parameters": {"location": "Tokyo", "unit": "celsius"}}]',
        (("get_weather", {"location": "Tokyo", "unit": "celsius"}),),
    ),
    Case(SG, '[{"name": "get_weather", "parameters": {}}]', (("get_weather", {}),)),
    # --- vLLM: Hermes ---------------------------------------------------------------------------------
    Case(
        VH,
        "This is some prior text that has nothing to do with tool calling.",
        text="This is some prior text that has nothing to do with tool calling.",
    ),
    Case(
        VH,
        '<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}}\n</tool_call>',
        (("final_answer", {"trigger": True}),),
        text="",
    ),
    Case(
        VH,
        '<tool_call>{"name": "get_current_temperature","arguments": {"location":"San Francisco, California, United '
        'States", "unit": "celsius"}}</tool_call>',
        (
            (
                "get_current_temperature",
                {"location": "San Francisco, California, United States", "unit": "celsius"},
            ),
        ),
    ),
    Case(
        VH,
        'Sure, let me check the weather.<tool_call>{"name": "get_weather", "arguments": {"city": "NYC"}}</tool_call>',
        (("get_weather", {"city": "NYC"}),),
        text="Sure, let me check the weather.",
    ),
    Case(
        VH,
        '<tool_call>{"name": "search", "arguments": {"q": "cats"}}</tool_call><tool_call>{"name": "search", '
        '"arguments": {"q": "dogs"}}</tool_call>',
        (("search", {"q": "cats"}), ("search", {"q": "dogs"})),
    ),
    Case(
        VH,
        "This is plain text with no tool calling involved.",
        text="This is plain text with no tool calling involved.",
    ),
    Case(VH, "This is not a tool call.", text="This is not a tool call."),
    Case(
        VH,
        '<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}}',
        (("final_answer", {"trigger": True}),),
    ),
    Case(
        VH,
        '<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}',
        problem=True,
        note="the reply ends with the object open (vLLM rejects it too); issue 28: a call the reply stopped inside is reported as cut off, never run",
    ),
    Case(
        VH,
        '<tool_call>\n{"name": "get_db_config", "arguments": "{\\"param\\": \\"max_connections\\"}"}\n</tool_call>',
        (("get_db_config", {"param": "max_connections"}),),
    ),
    Case(
        VH,
        '<tool_call>\n{"name": "do_thing", "arguments": "hello"}\n</tool_call>',
        problem=True,
        note="a bare string is not an arguments object: the model is told what to send",
    ),
    # --- vLLM: Mistral --------------------------------------------------------------------------------
    Case(VM, "This is a test", text="This is a test"),
    Case(
        VM,
        '[TOOL_CALLS][{"name": "add", "arguments":{"a": 3.5, "b": 4}}]',
        (("add", {"a": 3.5, "b": 4}),),
        text="",
    ),
    Case(
        VM,
        '[TOOL_CALLS] [{"name": "get_current_weather", "arguments":{"city": "San Francisco", "state": "CA", '
        '"unit": "celsius"}}]',
        (("get_current_weather", SF_CA),),
    ),
    Case(
        VM,
        '[TOOL_CALLS] [{"arguments":{"city": "San Francisco", "state": "CA", "unit": "celsius"}, '
        '"name": "get_current_weather"}]',
        (("get_current_weather", SF_CA),),
    ),
    Case(
        VM,
        '[TOOL_CALLS] [{"arguments":{"name": "John Doe"}, "name": "get_age"}]',
        (("get_age", {"name": "John Doe"}),),
    ),
    Case(
        VM,
        '[TOOL_CALLS] [{"name": "add", "arguments": {"a": 3.5, "b": 4}}, {"name": "get_current_weather", '
        '"arguments":{"city": "San Francisco", "state": "CA", "unit": "celsius"}}]',
        (("add", {"a": 3.5, "b": 4}), ("get_current_weather", SF_CA)),
    ),
    Case(
        VM,
        'Hello[TOOL_CALLS] [{"name": "add", "arguments":{"a": 1, "b": 2}}]',
        (("add", {"a": 1, "b": 2}),),
        text="Hello",
    ),
    Case(
        VM,
        '[TOOL_CALLS] [{"name": "get_current_weather", "arguments":{"city": "Dallas", "state": "TX", '
        '"unit": "fahrenheit"}}]\nextra trailing data',
        (DALLAS,),
        text="extra trailing data",
    ),
    Case(
        VM,
        '[TOOL_CALLS] [{"name": "add", "arguments":{"a": 1}}][TOOL_CALLS] [{"name": "sub", "arguments":{"b": 2}}]',
        (("add", {"a": 1}), ("sub", {"b": 2})),
        note="vLLM's pre-v11 parser refuses two BOT tokens; both are read",
    ),
    Case(
        VM,
        '[TOOL_CALLS]  junk [{"name": "add", "arguments":{"a": 1, "b": 2}}] trail',
        (("add", {"a": 1, "b": 2}),),
    ),
    Case(VM, "[TOOL_CALLS] not json at all", problem=True),
    Case(
        VM,
        '[TOOL_CALLS]add_this_and_that{"a": 3.5, "b": 4}',
        (("add_this_and_that", {"a": 3.5, "b": 4}),),
        text="",
    ),
    Case(
        VM,
        '[TOOL_CALLS]get_current_weather{"city": "San Francisco", "state": "CA", "unit": "celsius"}',
        (("get_current_weather", SF_CA),),
    ),
    Case(
        VM,
        '[TOOL_CALLS]add{"a": 3.5, "b": 4}[TOOL_CALLS]multiply{"a": 3, "b": 6}',
        (("add", {"a": 3.5, "b": 4}), ("multiply", {"a": 3, "b": 6})),
    ),
    # --- vLLM: pythonic -------------------------------------------------------------------------------
    Case(VP, "How can I help you today?", text="How can I help you today?"),
    Case(VP, f"[{SIMPLE}]", (SIMPLE_CALL,), text=""),
    Case(VP, f"[{MORE}]", (MORE_CALL,)),
    Case(VP, "[get_weather()]", (("get_weather", {}),)),
    Case(VP, "[do_something_cool(additional_data={})]", (("do_something_cool", {"additional_data": {}}),)),
    Case(VP, "[do_something_cool(steps=[])]", (("do_something_cool", {"steps": []}),)),
    Case(
        VP,
        "[get_weather(city='Martha\\'s Vineyard', metric='\\\"cool units\\\"')]",
        (("get_weather", {"city": "Martha's Vineyard", "metric": '"cool units"'}),),
    ),
    Case(VP, f"[{SIMPLE}, {MORE}]", (SIMPLE_CALL, MORE_CALL)),
    Case(
        VP,
        "[get_weather(city='San Francisco', metric='celsius'), get_weather(), do_something_cool(steps=[])]",
        (SIMPLE_CALL, ("get_weather", {}), ("do_something_cool", {"steps": []})),
    ),
    Case(VP, f"[bad(x=b'z'), {SIMPLE}]", (SIMPLE_CALL,), problem=True),
    Case(VP, f"[calc(x=1e999), {SIMPLE}]", (SIMPLE_CALL,), problem=True),
    Case(VP, f"[{SIMPLE}, f(a='x 'y', b='z')]", (SIMPLE_CALL,), problem=True),
    Case(
        VP,
        "[f(a='x 'y' 'z), g(b='p 'q' 'r)]",
        problem=True,
        note="vLLM returns it as content; here the broken calls are reported so the model retries",
    ),
    Case(VP, "[foo(x=1])]", problem=True),
    # --- vLLM: Llama 3 JSON ---------------------------------------------------------------------------
    Case(
        VL,
        'Here is the result: {"name": "getOpenIncidentsTool", "parameters": {}} Would you like to know more?',
        (("getOpenIncidentsTool", {}),),
        text="Here is the result: Would you like to know more?",
        note="vLLM drops the prose; it is kept as the assistant's text",
    ),
    Case(
        VL,
        '{"name": "searchTool", "parameters": {"query": "test query", "limit": 10}}',
        (("searchTool", {"query": "test query", "limit": 10}),),
    ),
    Case(
        VL,
        "This is just some text without any tool calls",
        text="This is just some text without any tool calls",
    ),
    Case(VL, '{"name": "invalidTool", "parameters": {invalid json}', problem=True),
    Case(VL, '{"name": "searchTool", "arguments": {"query": "test"}}', (("searchTool", {"query": "test"}),)),
    Case(
        VL,
        '{"name": "searchTool", "parameters": {"query": "test1"}}; {"name": "getOpenIncidentsTool", "parameters": {}}; '
        '{"name": "searchTool", "parameters": {"query": "test2"}}',
        (
            ("searchTool", {"query": "test1"}),
            ("getOpenIncidentsTool", {}),
            ("searchTool", {"query": "test2"}),
        ),
    ),
    Case(
        VL,
        '{"name": "searchTool", "parameters": {"query": "test1"}} ; {"name": "getOpenIncidentsTool", "parameters": {}} ; '
        '{"name": "searchTool", "parameters": {"query": "test2"}}',
        (
            ("searchTool", {"query": "test1"}),
            ("getOpenIncidentsTool", {}),
            ("searchTool", {"query": "test2"}),
        ),
    ),
    Case(
        VL,
        'Here are the results: {"name": "searchTool", "parameters": {"query": "test1"}}; {"name": '
        '"getOpenIncidentsTool", "parameters": {}}; {"name": "searchTool", "parameters": {"query": "test2"}} '
        "Would you like to know more?",
        (
            ("searchTool", {"query": "test1"}),
            ("getOpenIncidentsTool", {}),
            ("searchTool", {"query": "test2"}),
        ),
    ),
    Case(
        VL,
        '{"name": "complexTool", "parameters": {"level1": {"level2": {"level3": {"level4": {"value": "deep"}}}}}}',
        (("complexTool", {"level1": {"level2": {"level3": {"level4": {"value": "deep"}}}}}),),
    ),
    Case(
        VL,
        '{"name": "simpleTool", "parameters": {"value": "test"}}; {"name": "complexTool", "parameters": '
        '{"config": {"database": {"connection": {"pool": {"size": 10}}}}}}',
        (
            ("simpleTool", {"value": "test"}),
            ("complexTool", {"config": {"database": {"connection": {"pool": {"size": 10}}}}}),
        ),
    ),
    Case(
        VL,
        '{"name": "searchTool", "parameters": {"query": "test {value} [complex]","nested": {"inner": "more {brackets}"}}}',
        (("searchTool", {"query": "test {value} [complex]", "nested": {"inner": "more {brackets}"}}),),
    ),
    Case(
        VL,
        '{"name": "parserTool", "parameters": {"text": "He said \\"Hello {world}\\""}}',
        (("parserTool", {"text": 'He said "Hello {world}"'}),),
    ),
    Case(
        VL,
        '{"parameters": {}}',
        problem=True,
        note="arguments without a tool name: reported, vLLM keeps it as text",
    ),
    Case(
        VL,
        '{"name": "searchTool", "parameters": {"query": "test"}} I used {searchTool} for this.',
        (("searchTool", {"query": "test"}),),
        text="I used {searchTool} for this.",
    ),
    Case(
        VL,
        '{"name": "searchTool", "parameters": {"query": "test"}} The arguments I passed were {"query": "test"}',
        (("searchTool", {"query": "test"}),),
    ),
    Case(
        VL,
        '{"name": "searchTool", "parameters": {"query": "test1"}}\n{"name": "getOpenIncidentsTool", "parameters": {}}',
        (("searchTool", {"query": "test1"}), ("getOpenIncidentsTool", {})),
    ),
    # --- vLLM: xLAM -----------------------------------------------------------------------------------
    Case(
        VX,
        '[{"name": "get_current_weather", "arguments": {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}, '
        '{"name": "get_current_weather", "arguments": {"city": "Orlando", "state": "FL", "unit": "fahrenheit"}}]',
        (DALLAS, ORLANDO),
        text="",
    ),
    Case(
        VX,
        '<think>I\'ll help you with that.</think>[{"name": "get_current_weather", "arguments": {"city": "Dallas", '
        '"state": "TX", "unit": "fahrenheit"}}]',
        (DALLAS,),
        text="",
        note="vLLM keeps the think block as content; here it is reasoning",
    ),
    Case(
        VX,
        'I\'ll help you with that.\n```json\n[{"name": "get_current_weather", "arguments": {"city": "Dallas", '
        '"state": "TX", "unit": "fahrenheit"}}]\n```',
        (DALLAS,),
        text="I'll help you with that.",
    ),
    Case(
        VX,
        'I\'ll check the weather for you.[TOOL_CALLS][{"name": "get_current_weather", "arguments": {"city": "Dallas", '
        '"state": "TX", "unit": "fahrenheit"}}]',
        (DALLAS,),
        text="I'll check the weather for you.",
    ),
    Case(
        VX,
        '[{"name": "get_current_weather", "arguments": {"city": "Seattle", "state": "WA", "unit": "celsius"}}]',
        (("get_current_weather", {"city": "Seattle", "state": "WA", "unit": "celsius"}),),
    ),
    Case(VX, "I'll help you with that.", text="I'll help you with that."),
    # --- vLLM: DeepSeek V3.1 --------------------------------------------------------------------------
    Case(
        VD,
        'normal text<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>foo<｜tool▁sep｜>{"x":1}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        (("foo", {"x": 1}),),
        text="normal text",
    ),
    Case(
        VD,
        'some prefix text<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>foo<｜tool▁sep｜>{"x":1}<｜tool▁call▁end｜>'
        '<｜tool▁call▁begin｜>bar<｜tool▁sep｜>{"y":2}<｜tool▁call▁end｜><｜tool▁calls▁end｜> some suffix text',
        (("foo", {"x": 1}), ("bar", {"y": 2})),
        text="some prefix text some suffix text",
    ),
    # --- vLLM: gpt-oss (harmony renderings of the test conversations) ----------------------------------
    Case(VO, "<|channel|>final<|message|>This is a test<|return|>", text="This is a test"),
    Case(
        VO,
        '<|channel|>analysis<|message|>User asks: "What is the weather in Tokyo?" We need to use get_current_weather '
        "tool.<|end|><|start|>assistant<|channel|>commentary to=functions.get_current_weather <|constrain|>json"
        '<|message|>{"location": "Tokyo"}<|call|>',
        (("get_current_weather", {"location": "Tokyo"}),),
        text="",
    ),
    Case(
        VO,
        "<|channel|>analysis<|message|>We need to use get_current_weather tool.<|end|><|start|>assistant<|channel|>"
        'commentary to=functions.get_current_weather <|constrain|>json<|message|>{\n"location": "Tokyo"\n}<|call|>',
        (("get_current_weather", {"location": "Tokyo"}),),
    ),
    Case(
        VO,
        "<|channel|>analysis<|message|>We need get_current_weather and get_user_location.<|end|><|start|>assistant"
        '<|channel|>commentary to=functions.get_current_weather <|constrain|>json<|message|>{"location": "Tokyo"}'
        "<|call|><|start|>assistant<|channel|>commentary to=functions.get_user_location <|constrain|>json<|message|>"
        '{"location": "Tokyo"}<|call|><|start|>assistant<|channel|>commentary to=functions.no_content_type'
        '<|message|>{"location": "Tokyo"}<|call|><|start|>assistant<|channel|>commentary to=functions.empty_args '
        "<|constrain|>json<|message|>{}<|call|><|start|>assistant<|channel|>commentary to=functions.no_args "
        "<|constrain|>json<|message|><|call|>",
        (
            ("get_current_weather", {"location": "Tokyo"}),
            ("get_user_location", {"location": "Tokyo"}),
            ("no_content_type", {"location": "Tokyo"}),
            ("empty_args", {}),
            ("no_args", {}),
        ),
    ),
    Case(
        VO,
        "<|start|>assistant<|channel|>commentary to=functions.not_json_no_content_type<|message|>foo<|call|>",
        problem=True,
        note="vLLM passes `foo` on as the arguments string; arguments must be an object",
    ),
    Case(
        VO,
        "<|channel|>analysis<|message|>We need the weather.<|end|><|start|>assistant<|channel|>commentary "
        'to=functions.get_current_weather <|constrain|>json<|message|>{"location": "Tokyo"}<|call|><|start|>assistant'
        "<|channel|>final<|message|>This tool call will get the weather.<|return|>",
        (("get_current_weather", {"location": "Tokyo"}),),
        text="This tool call will get the weather.",
    ),
    # --- vLLM: FunctionGemma --------------------------------------------------------------------------
    Case(VF, "Hello, how can I help you today?", text="Hello, how can I help you today?"),
    Case(
        VF,
        "<start_function_call>call:get_weather{location:<escape>London<escape>}<end_function_call>",
        (("get_weather", {"location": "London"}),),
        text="",
    ),
    Case(
        VF,
        "<start_function_call>call:get_weather{location:<escape>San Francisco<escape>,unit:<escape>celsius<escape>}"
        "<end_function_call>",
        (("get_weather", {"location": "San Francisco", "unit": "celsius"}),),
    ),
    Case(
        VF,
        "Let me check the weather for you. <start_function_call>call:get_weather{location:<escape>Paris<escape>}"
        "<end_function_call>",
        (("get_weather", {"location": "Paris"}),),
        text="Let me check the weather for you.",
    ),
    Case(
        VF,
        "<start_function_call>call:get_weather{location:<escape>London<escape>}<end_function_call>"
        "<start_function_call>call:get_time{timezone:<escape>UTC<escape>}<end_function_call>",
        (("get_weather", {"location": "London"}), ("get_time", {"timezone": "UTC"})),
    ),
    Case(
        VF,
        "<start_function_call>call:get_weather{city:<escape>NYC<escape>unit:<escape>celsius<escape>}<end_function_call>",
        (("get_weather", {"city": "NYC", "unit": "celsius"}),),
    ),
    Case(
        VF,
        "<start_function_call>call:search{query:<escape>python<escape>limit:<escape>10<escape>sort:<escape>relevance"
        "<escape>}<end_function_call>",
        (("search", {"query": "python", "limit": 10, "sort": "relevance"}),),
    ),
    Case(
        VF,
        "<start_function_call>call:count{count:<escape>42<escape>,enabled:<escape>true<escape>,message:<escape>Hello "
        "World<escape>}<end_function_call>",
        (("count", {"count": 42, "enabled": True, "message": "Hello World"}),),
    ),
)
