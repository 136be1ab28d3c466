"""Replies from llama.cpp's and Ollama's tool-call test suites, and malformed replies the way real models
fail (cut off by max_tokens, broken JSON, a marker without a call)."""

from __future__ import annotations

from corpus.case import Case

LC = "ggml-org/llama.cpp tests/test-chat.cpp"
OM = "ollama/ollama server/model_test.go"
OT = "ollama/ollama tools/tools_test.go"
VH = "vllm-project/vllm tests/tool_parsers/test_hermes_tool_parser.py"
VM = "vllm-project/vllm tests/tool_parsers/test_mistral_tool_parser.py"
VL = "vllm-project/vllm tests/tool_parsers/test_llama3_json_tool_parser.py"

SPECIAL = ("special_function", {"arg1": 1})
OPT = ("special_function_with_opt", {"arg1": 1, "arg2": 2})
LC_TOOLS = {
    "special_function": {"arg1": "integer"},
    "special_function_with_opt": {"arg1": "integer", "arg2": "integer"},
    "python": {"code": "string"},
    "html": {"markup": "string"},
    "todo_list": {"todos": "array"},
    "edit": {"filename": "string", "oldString": "string", "newString": "string"},
    "tool_2req_4opt": {
        "req1": "string",
        "req2": "integer",
        "opt1": "string",
        "opt2": "integer",
        "opt3": "string",
        "opt4": "integer",
    },
    "tool_2req_5opt": {
        "req1": "string",
        "req2": "integer",
        "opt1": "string",
        "opt2": "integer",
        "opt3": "string",
        "opt4": "integer",
        "opt5": "string",
    },
    "magic": {"name": "string", "ref": "string"},
    "magic_int": {"ref": "integer", "name": "string"},
    "flashcards": {"flashcards": "array"},
}
HELLO = "Hello, world!\nWhat's up?"
QWEN_SPECIAL = (
    "<tool_call>\n<function=special_function>\n<parameter=arg1>\n1\n</parameter>\n</function>\n</tool_call>"
)
QWEN_OPT = (
    "<tool_call>\n<function=special_function_with_opt>\n<parameter=arg1>\n1\n</parameter>\n<parameter=arg2>\n2\n"
    "</parameter>\n</function>\n</tool_call>"
)
PY_CODE = 'def hello():\n    print("Hello, world!")\n\nhello()'
TODOS = [{"item": "Check stuff", "selected": False}, {"item": "Prepare stuff", "selected": True}]
KIMI = (
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.special_function:0<|tool_call_argument_begin|>"
    '{"arg1": 1}<|tool_call_end|><|tool_calls_section_end|>'
)
W1 = ("get_current_weather", {"format": "fahrenheit", "location": "San Francisco, CA"})
W2 = ("get_current_weather", {"format": "celsius", "location": "Toronto, Canada"})
W1J = '{"name": "get_current_weather", "arguments": {"format":"fahrenheit","location":"San Francisco, CA"}}'
W2J = '{"name": "get_current_weather", "arguments": {"format":"celsius","location":"Toronto, Canada"}}'
ACTION = (
    'Action: ```json\n[\n    {\n        "tool_name": "get_current_weather",\n        "parameters": {\n            '
    '"format": "fahrenheit",\n            "location": "San Francisco, CA"\n        }\n    },\n    {\n        '
    '"tool_name": "get_current_weather",\n        "parameters": {\n            "format": "celsius",\n            '
    '"location": "Toronto, Canada"\n        }\n    }\n]\n```'
)

CASES: tuple[Case, ...] = (
    # --- llama.cpp: Qwen3-Coder / Qwen3.5 / StepFun ---------------------------------------------------
    Case(LC, HELLO, text=HELLO),
    Case(LC, QWEN_SPECIAL, (SPECIAL,), text="", tools=LC_TOOLS),
    Case(LC, QWEN_SPECIAL + "\n" + QWEN_OPT, (SPECIAL, OPT), text="", tools=LC_TOOLS),
    Case(
        LC,
        f"<tool_call>\n<function=python>\n<parameter=code>\n{PY_CODE}\n</parameter>\n</function>\n</tool_call>",
        (("python", {"code": PY_CODE}),),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "<tool_call>\n<function=python>\n<parameter=code>\n格\n</parameter>\n</function>\n</tool_call>",
        (("python", {"code": "格"}),),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "<tool_call>\n<function=html>\n<parameter=markup>\n<html>\n <head>\n  <title>Hello!</title>\n </head>\n"
        "</html>\n</parameter>\n</function>\n</tool_call>",
        (("html", {"markup": "<html>\n <head>\n  <title>Hello!</title>\n </head>\n</html>"}),),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        '<tool_call>\n<function=todo_list>\n<parameter=todos>\n[{"item": "Check stuff", "selected": false}, '
        '{"item": "Prepare stuff", "selected": true}]\n</parameter>\n</function>\n</tool_call>',
        (("todo_list", {"todos": TODOS}),),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "<tool_call>\n<function=tool_2req_4opt>\n<parameter=req1>\nhello\n</parameter>\n<parameter=req2>\n42\n"
        "</parameter>\n<parameter=opt4>\n100\n</parameter>\n<parameter=opt2>\n200\n</parameter>\n</function>\n"
        "</tool_call>",
        (("tool_2req_4opt", {"req1": "hello", "req2": 42, "opt4": 100, "opt2": 200}),),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "<tool_call>\n<function=tool_2req_5opt>\n<parameter=req1>\nworld\n</parameter>\n<parameter=req2>\n7\n"
        "</parameter>\n<parameter=opt5>\nlast\n</parameter>\n<parameter=opt3>\nmiddle\n</parameter>\n"
        "<parameter=opt1>\nfirst\n</parameter>\n</function>\n</tool_call>",
        (
            (
                "tool_2req_5opt",
                {"req1": "world", "req2": 7, "opt5": "last", "opt3": "middle", "opt1": "first"},
            ),
        ),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "<tool_call>\n<function=tool_2req_5opt>\n<parameter=req1>\ntest\n</parameter>\n<parameter=req2>\n99\n"
        "</parameter>\n<parameter=opt3>\nc\n</parameter>\n<parameter=opt1>\na\n</parameter>\n<parameter=opt5>\ne\n"
        "</parameter>\n<parameter=opt4>\n4\n</parameter>\n<parameter=opt2>\n2\n</parameter>\n</function>\n</tool_call>",
        (
            (
                "tool_2req_5opt",
                {"req1": "test", "req2": 99, "opt3": "c", "opt1": "a", "opt5": "e", "opt4": 4, "opt2": 2},
            ),
        ),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "The user wants flashcards about California.\n</think>\n\n" + QWEN_SPECIAL,
        (SPECIAL,),
        text="",
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "I will make flashcards.\n</think>\n\n<tool_call>\n<function=flashcards>\n<parameter=flashcards>\n"
        '[{"query": "California", "recall": "Los Angeles"}]}\n</parameter>\n</function>\n</tool_call>',
        (("flashcards", {"flashcards": [{"query": "California", "recall": "Los Angeles"}]}),),
        text="",
        tools=LC_TOOLS,
        note="Qwen3.5-0.8B writes an extra closing brace; the value is repaired",
    ),
    Case(
        LC,
        'Two sets.\n</think>\n\n<tool_call>\n<function=flashcards>\n<parameter=flashcards>\n[{"query": "CA", '
        '"recall": "LA"}]}\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=flashcards>\n'
        '<parameter=flashcards>\n[{"query": "NY", "recall": "NYC"}]}\n</parameter>\n</function>\n</tool_call>',
        (
            ("flashcards", {"flashcards": [{"query": "CA", "recall": "LA"}]}),
            ("flashcards", {"flashcards": [{"query": "NY", "recall": "NYC"}]}),
        ),
        text="",
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "I will make flashcards.\n</think>\n\n<tool_call>\n<function=flashcards>\n<parameter=flashcards>\n"
        '[{"query": "Califor',
        problem=True,
        tools=LC_TOOLS,
        note="cut off mid-value: reported, not run",
    ),
    Case(
        LC,
        'Making cards.\n</think>\n\n<tool_call>\n<function=flashcards>\n<parameter=flashcards>\n[{"query": "CA", '
        '"recall": "LA"}]\n</parameter>\n</function>\n</tool_call>',
        (("flashcards", {"flashcards": [{"query": "CA", "recall": "LA"}]}),),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "Let me call the magic tool\n</think>\n<tool_call>\n<function=magic>\n<parameter=name>\nfooBar\n</parameter>\n"
        "<parameter=ref>\n5123123\n</parameter>\n</function>\n</tool_call>",
        (("magic", {"name": "fooBar", "ref": "5123123"}),),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "Let me call the special function\n</think>\n<tool_call>\n<function=special_function>\n<parameter=arg1>\n"
        "42555916\n</parameter>\n</function>\n</tool_call>",
        (("special_function", {"arg1": 42555916}),),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "Let me call the magic_int function\n</think>\n<tool_call>\n<function=magic_int>\n<parameter=ref>\n42555916\n"
        "</parameter>\n<parameter=name>\nbaz\n</parameter>\n</function>\n</tool_call>",
        (("magic_int", {"ref": 42555916, "name": "baz"}),),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        'I need to output the invoice details in JSON\n</think>\n{"amount": 123.45, "date": "2025-12-03"}',
        text='{"amount": 123.45, "date": "2025-12-03"}',
    ),
    # --- llama.cpp: Seed-OSS ----------------------------------------------------------------------------
    Case(LC, "<seed:think>I'm thinking about the answer</seed:think>\nHello, world!", text="Hello, world!"),
    Case(
        LC,
        "<seed:tool_call>\n<function=special_function>\n<parameter=arg1>1</parameter>\n</function>\n</seed:tool_call>",
        (SPECIAL,),
        text="",
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "<seed:tool_call>\n<function=special_function>\n<parameter=arg1>1</parameter>\n</function>\n</seed:tool_call>\n"
        "<seed:tool_call>\n<function=special_function_with_opt>\n<parameter=arg1>1</parameter>\n<parameter=arg2>2"
        "</parameter>\n</function>\n</seed:tool_call>",
        (SPECIAL, OPT),
        text="",
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        '<seed:tool_call>\n<function=todo_list>\n<parameter=todos>[{"item": "Check stuff", "selected": false}, '
        '{"item": "Prepare stuff", "selected": true}]</parameter>\n</function>\n</seed:tool_call>',
        (("todo_list", {"todos": TODOS}),),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "<seed:tool_call>\n<function=edit>\n<parameter=filename>\nfoo.cpp\n</parameter>\n<parameter=oldString>"
        'def foo(arg = "14"):\n    return arg + "bar"\n\n</parameter>\n<parameter=newString>def foo(arg = "15"):\n'
        "    pass\n\n</parameter>\n</function>\n</seed:tool_call>",
        (
            (
                "edit",
                {
                    "filename": "foo.cpp",
                    "oldString": 'def foo(arg = "14"):\n    return arg + "bar"\n',
                    "newString": 'def foo(arg = "15"):\n    pass\n',
                },
            ),
        ),
        tools=LC_TOOLS,
    ),
    # --- llama.cpp: Command R7B / R+ ----------------------------------------------------------------------
    Case(LC, "<|START_RESPONSE|>Hello, world!\nWhat's up?<|END_RESPONSE|>", text=HELLO),
    Case(
        LC,
        "<|START_THINKING|>I'm\nthinking<|END_THINKING|><|START_RESPONSE|>Hello, world!\nWhat's up?<|END_RESPONSE|>",
        text=HELLO,
    ),
    Case(
        LC,
        '<|START_THINKING|>I\'m\nthinking<|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", '
        '"tool_name": "special_function", "parameters": {"arg1": 1}}\n]<|END_ACTION|>',
        (SPECIAL,),
        text="",
    ),
    Case(
        LC,
        '<|START_THINKING|><|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": '
        '"special_function", "parameters": {"arg1": 1}}\n]<|END_ACTION|>',
        (SPECIAL,),
        text="",
    ),
    Case(
        LC,
        '<|START_THINKING|>I\'m\nthinking<|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", '
        '"tool_name": "special_function", ',
        problem=True,
        note="cut off mid-call",
    ),
    Case(LC, "<|CHATBOT_TOKEN|>Hello, world!\nWhat's up?<|END_OF_TURN_TOKEN|>", text=HELLO),
    Case(
        LC,
        'Action:\n```json\n[{"tool_name": "special_function", "parameters": {"arg1": 1}}]\n```',
        (SPECIAL,),
        text="",
    ),
    # --- llama.cpp: reasoning ---------------------------------------------------------------------------
    Case(LC, "Let me think about this...\n</think>\nThe answer is 42.", text="The answer is 42."),
    Case(LC, "Hello, world!", text="Hello, world!"),
    Case(LC, "Line 1\nLine 2\nLine 3", text="Line 1\nLine 2\nLine 3"),
    Case(LC, "<think>I'm\nthinking</think>Hello, world!\nWhat's up?", text=HELLO),
    Case(LC, "I'm\nthinking</think>Hello, world!\nWhat's up?", text=HELLO),
    Case(LC, "I was thinking</think>\nNow I'm not.", text="Now I'm not."),
    Case(LC, "I'm\nthinking\n[BEGIN FINAL RESPONSE]\nHello, world!\nWhat's up?", text=HELLO),
    Case(
        LC,
        'I\'m\nthinking\n[BEGIN FINAL RESPONSE]\n<tool_calls>[{"name": "special_function", "arguments": {"arg1": 1}}]'
        "</tool_calls>",
        (SPECIAL,),
        text="",
    ),
    # --- llama.cpp: Hermes / Qwen 2.5 / MiMo ------------------------------------------------------------
    Case(
        LC,
        '<tool_call>\n{"name": "special_function", "arguments": {"arg1": 1}}\n</tool_call>',
        (SPECIAL,),
        text="",
    ),
    Case(
        LC,
        'Hello, world!\nWhat\'s up?<tool_call>\n{"name": "special_function", "arguments": {"arg1": 1}}\n</tool_call>',
        (SPECIAL,),
        text=HELLO,
    ),
    # --- llama.cpp: DeepSeek --------------------------------------------------------------------------
    Case(
        LC,
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{"city": "XYZCITY"}<｜tool▁call▁end｜>'
        "<｜tool▁calls▁end｜>",
        (("get_time", {"city": "XYZCITY"}),),
        text="",
    ),
    Case(
        LC,
        'REASONING</think><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{"city": "Tokyo"}'
        "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        (("get_time", {"city": "Tokyo"}),),
        text="",
    ),
    Case(
        LC,
        'REASONING</think>CONTENT<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{"city": "Paris"}'
        '<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜>'
        "<｜tool▁calls▁end｜>",
        (("get_time", {"city": "Paris"}), ("get_weather", {"city": "Paris"})),
        text="CONTENT",
    ),
    Case(LC, "REASONING</think>\nCONTENT", text="CONTENT"),
    Case(LC, "CONTENT", text="CONTENT"),
    Case(
        LC,
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>special_function\n```json\n{"arg1": 1}```'
        "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        (SPECIAL,),
        text="",
    ),
    # --- llama.cpp: GLM -------------------------------------------------------------------------------
    Case(
        LC,
        "<tool_call>special_function\n<arg_key>arg1</arg_key>\n<arg_value>1</arg_value>\n</tool_call>",
        (SPECIAL,),
        text="",
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "<tool_call>special_function<arg_key>arg1</arg_key><arg_value>1</arg_value></tool_call>",
        (SPECIAL,),
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "I'm\nthinking</think><tool_call>special_function<arg_key>arg1</arg_key><arg_value>1</arg_value></tool_call>",
        (SPECIAL,),
        text="",
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        "<tool_call>special_function<arg_key>arg1</arg_key><arg_value>1</arg_value></tool_call><tool_call>"
        "special_function_with_opt<arg_key>arg1</arg_key><arg_value>1</arg_value><arg_key>arg2</arg_key><arg_value>2"
        "</arg_value></tool_call>",
        (SPECIAL, OPT),
        tools=LC_TOOLS,
    ),
    # --- llama.cpp: Kimi K2 ---------------------------------------------------------------------------
    Case(LC, KIMI, (SPECIAL,), text=""),
    Case(LC, "<think>I'm thinking about this</think>" + KIMI, (SPECIAL,), text=""),
    Case(LC, HELLO + KIMI, (SPECIAL,), text=HELLO),
    Case(
        LC,
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.special_function:0<|tool_call_argument_begin|>"
        '{"arg1": 1}<|tool_call_end|><|tool_call_begin|>functions.special_function_with_opt:1'
        '<|tool_call_argument_begin|>{"arg1": 1, "arg2": 2}<|tool_call_end|><|tool_calls_section_end|>',
        (SPECIAL, OPT),
    ),
    Case(
        LC,
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.python:0<|tool_call_argument_begin|>"
        '{"code": "def hello():\\n    print(\\"Hello, world!\\")\\n\\nhello()"}<|tool_call_end|><|tool_calls_section_end|>',
        (("python", {"code": PY_CODE}),),
    ),
    Case(
        LC,
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.empty_args:0<|tool_call_argument_begin|>{}"
        "<|tool_call_end|><|tool_calls_section_end|>",
        (("empty_args", {}),),
    ),
    Case(
        LC,
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.special_function:0<|tool_call_argument_begin|>"
        '{"arg1": 1}<|tool_call_end|><|tool_call_begin|>functions.python:1<|tool_call_argument_begin|>{"code": '
        '"print(1)"}<|tool_call_end|><|tool_call_begin|>functions.html:2<|tool_call_argument_begin|>{"markup": '
        '"<p>test</p>"}<|tool_call_end|><|tool_calls_section_end|>',
        (SPECIAL, ("python", {"code": "print(1)"}), ("html", {"markup": "<p>test</p>"})),
    ),
    Case(
        LC,
        "<think>I need to call two functions<|tool_calls_section_begin|><|tool_call_begin|>functions.special_function:0"
        '<|tool_call_argument_begin|>{"arg1": 1}<|tool_call_end|><|tool_call_begin|>functions.python:1'
        '<|tool_call_argument_begin|>{"code": "print(\'hey\')"}<|tool_call_end|><|tool_calls_section_end|>',
        (SPECIAL, ("python", {"code": "print('hey')"})),
        text="",
    ),
    Case(
        LC,
        "<think>I need to call two functions<|tool_call_begin|>functions.special_function:0<|tool_call_argument_begin|>"
        '{"arg1": 1}<|tool_call_begin|>functions.python:1<|tool_call_argument_begin|>{"code": "print(\'hey\')"}',
        (SPECIAL, ("python", {"code": "print('hey')"})),
        text="",
    ),
    Case(
        LC,
        '<|tool_call_begin|>functions.execute_command:0<|tool_call_argument_begin|>{"command": "ls -lah", "cwd": '
        '"/home/jarvis/development/exllamav3", "timeout": 10}',
        (
            (
                "execute_command",
                {"command": "ls -lah", "cwd": "/home/jarvis/development/exllamav3", "timeout": 10},
            ),
        ),
    ),
    Case(
        LC,
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.special_function:0<|tool_call_argument_begin|>"
        '{"arg1": ',
        problem=True,
        note="cut off mid-arguments",
    ),
    # --- llama.cpp: LFM2 (pythonic) -------------------------------------------------------------------
    Case(LC, "<|tool_call_start|>[special_function(arg1=1)]<|tool_call_end|>", (SPECIAL,), text=""),
    Case(
        LC,
        '<|tool_call_start|>[get_time(city="XYZCITY")]<|tool_call_end|>',
        (("get_time", {"city": "XYZCITY"}),),
    ),
    Case(
        LC,
        "<think>I'm\nthinking</think><|tool_call_start|>[special_function(arg1=1)]<|tool_call_end|>",
        (SPECIAL,),
        text="",
    ),
    Case(
        LC,
        "<|tool_call_start|>[special_function(arg1=1), special_function_with_opt(arg1=1, arg2=2)]<|tool_call_end|>",
        (SPECIAL, OPT),
    ),
    Case(
        LC,
        '<think>I need to call a function</think>Let me check the time.<|tool_call_start|>[get_time(city="Paris")]'
        "<|tool_call_end|>",
        (("get_time", {"city": "Paris"}),),
        text="Let me check the time.",
    ),
    Case(
        LC,
        "<|tool_call_start|>[python(code=\"def hello():\\n    print('hey')\")]<|tool_call_end|>",
        (("python", {"code": "def hello():\n    print('hey')"}),),
    ),
    Case(LC, "<|tool_call_start|>[special_function(arg1=", problem=True, note="cut off mid-call"),
    Case(LC, "<|tool_call_start|>[empty_args()]<|tool_call_end|>", (("empty_args", {}),)),
    # --- llama.cpp: other families --------------------------------------------------------------------
    Case(LC, '<|tools_prefix|>[{"special_function": {"arg1": 1}}]<|tools_suffix|>', (SPECIAL,), text=""),
    Case(
        LC,
        '<minimax:tool_call>\n<invoke name="special_function">\n<parameter name="arg1">1</parameter>\n</invoke>\n'
        "</minimax:tool_call>",
        (SPECIAL,),
        text="",
        tools=LC_TOOLS,
    ),
    Case(
        LC,
        '<TOOLCALL>[{"name": "special_function", "arguments": {"arg1": 1}}]</TOOLCALL><SPECIAL_12>',
        (SPECIAL,),
    ),
    Case(
        LC,
        '[TOOL_CALLS][{"name": "special_function", "arguments": {"arg1": 1}, "id": "123456789"}]',
        (SPECIAL,),
        text="",
    ),
    Case(LC, '<function=special_function>{"arg1": 1}</function>', (SPECIAL,), text=""),
    Case(LC, ">>>all\nHello, world!\nWhat's up?", text=HELLO),
    Case(LC, '>>>special_function\n{"arg1": 1}', (SPECIAL,), text=""),
    Case(
        LC,
        'all\nHello, world!\nnono\nWhat\'s up?\n>>>special_function\n{"arg1": 1}\n',
        (SPECIAL,),
        text="Hello, world!\nnono\nWhat's up?",
    ),
    Case(LC, 'special_function\n{"arg1": 1}', (SPECIAL,), text=""),
    Case(
        LC,
        "python\n# This is a program:\nprint('hey')",
        (("python", {"code": "# This is a program:\nprint('hey')"}),),
    ),
    Case(LC, ' functools[{"name": "special_function", "arguments": {"arg1": 1}}]', (SPECIAL,), text=""),
    Case(
        LC,
        '<tool_calls>[{"name": "special_function", "arguments": {"arg1": 1}}]</tool_calls>',
        (SPECIAL,),
        text="",
    ),
    Case(LC, '[TOOL_CALLS]special_function[CALL_ID]123456789[ARGS]{"arg1": 1}', (SPECIAL,), text=""),
    Case(LC, '[TOOL_CALLS]special_function[ARGS]{"arg1": 1}', (SPECIAL,), text=""),
    Case(
        LC, 'Hello, world!\nWhat\'s up?[TOOL_CALLS]special_function[ARGS]{"arg1": 1}', (SPECIAL,), text=HELLO
    ),
    # --- llama.cpp: gpt-oss -----------------------------------------------------------------------------
    Case(LC, "<|channel|>final<|message|>Hello, world!\nWhat's up?", text=HELLO),
    Case(LC, "<|channel|>commentary<|message|>Hello, world!\nWhat's up?", text=HELLO),
    Case(
        LC,
        "<|channel|>analysis<|message|>I'm\nthinking<|end|>\n<|channel|>final<|message|>Hello, world!\nWhat's up?",
        text=HELLO,
    ),
    Case(LC, "<|channel|>analysis<|message|>I'm\nthinking", text=""),
    Case(LC, ' to=functions.special_function<|channel|>analysis<|message|>{"arg1": 1}', (SPECIAL,), text=""),
    Case(LC, '<|channel|>analysis to=functions.special_function<|message|>{"arg1": 1}', (SPECIAL,), text=""),
    Case(
        LC,
        ' to=functions.special_function<|channel|>analysis <|constrain|>json<|message|>{"arg1": 1}',
        (SPECIAL,),
        text="",
    ),
    Case(
        LC, '<|channel|>commentary to=functions.special_function<|message|>{"arg1": 1}', (SPECIAL,), text=""
    ),
    Case(
        LC,
        "<|channel|>analysis<|message|>I'm\nthinking<|end|>\n<|start|>assistant to=functions.special_function"
        '<|channel|>analysis<|message|>{"arg1": 1}',
        (SPECIAL,),
        text="",
    ),
    Case(
        LC,
        "<|channel|>analysis<|message|>I'm\nthinking<|end|><|start|>assistant<|channel|>commentary"
        ' to=functions.special_function <|message|>{"arg1": 1}',
        (SPECIAL,),
        text="",
    ),
    Case(
        LC,
        "<|channel|>final<|message|><|end|><|start|>assistant<|channel|>analysis<|message|>Thinking about edit...",
        text="",
    ),
    Case(
        LC,
        "<|channel|>final<|message|><|end|><|start|>assistant<|channel|>analysis<|message|>Thinking about edit..."
        "<|end|><|start|>assistant<|channel|>commentary to=functions.edit <|constrain|>json<|message|>"
        '{"oldString": "if (part < railCount - 1) {", "newString": "if (part < 4) {", "replaceAll": false}',
        (
            (
                "edit",
                {
                    "oldString": "if (part < railCount - 1) {",
                    "newString": "if (part < 4) {",
                    "replaceAll": False,
                },
            ),
        ),
        text="",
    ),
    Case(
        LC,
        ' to=functions.special_function<|channel|>analysis<|message|>{"arg1": 1}\n<|start|>assistant '
        'to=functions.special_function_with_opt<|channel|>analysis<|message|>{"arg1": 1, "arg2": 2}',
        (SPECIAL, OPT),
    ),
    # --- Ollama: server/model_test.go -------------------------------------------------------------------
    Case(OM, f"[TOOL_CALLS]  [{W1J},{W2J}]", (W1, W2), text=""),
    Case(
        OM,
        f"[TOOL_CALLS]  [{W1J},{W2J}]\n\nThe temperature in San Francisco, CA is 70°F and in Toronto, Canada is 20°C.",
        (W1, W2),
        text="The temperature in San Francisco, CA is 70°F and in Toronto, Canada is 20°C.",
    ),
    Case(
        OM,
        "I'm not aware of that information. However, I can suggest searching for the weather using the "
        f'"get_current_weather" function:\n\n\t\t[{W1J},{W2J}]',
        (W1, W2),
    ),
    Case(
        OM,
        " The weather in San Francisco, CA is 70°F and in Toronto, Canada is 20°C.",
        text="The weather in San Francisco, CA is 70°F and in Toronto, Canada is 20°C.",
    ),
    Case(OM, ACTION, (W1, W2), text=""),
    Case(OM, f" functools[{W1J},{W2J}]", (W1, W2), text=""),
    Case(OM, f"<tool_call>\n{W1J}\n{W2J}\n</tool_call>", (W1, W2), text=""),
    Case(OM, f'{{"tool_calls": [{W1J},{W2J}]}}', (W1, W2), text=""),
    # --- Ollama: tools/tools_test.go --------------------------------------------------------------------
    Case(OT, '{"name": "test_tool", "arguments": {"arg1": "value1"}}', (("test_tool", {"arg1": "value1"}),)),
    Case(OT, '{"name": "test_tool", "arguments": {"arg1": ', problem=True, note="cut off mid-arguments"),
    Case(OT, "not json at all", text="not json at all"),
    Case(OT, '{"other": "field"}', text='{"other": "field"}'),
    Case(
        OT,
        '[\n\t{"name": "tool1", "arguments": {"arg1": 1}},\n\t{"name": "tool2", "arguments": {"arg2": "value"}}\n]',
        (("tool1", {"arg1": 1}), ("tool2", {"arg2": "value"})),
    ),
    Case(
        OT,
        '\n\t{"name": "tool1", "arguments": {"arg1": 1}},\n\t{"name": "tool2", "arguments": {"arg2": "value"}}\n',
        (("tool1", {"arg1": 1}), ("tool2", {"arg2": "value"})),
    ),
    Case(
        OT,
        '\n\t{"name": "tool1", "arguments": {"arg1": 1}} text\n\t{"name": "tool2", "arguments": {"arg2": "value"}} text\n',
        (("tool1", {"arg1": 1}), ("tool2", {"arg2": "value"})),
        text="text text",
    ),
    Case(OT, '\n\t, {"name": "tool2", "arguments": {"arg2": "value"}}\n', (("tool2", {"arg2": "value"}),)),
    Case(OT, '[{"name": "tool1", "arguments": {"arg1": [1, 2}]', problem=True, note="unbalanced brackets"),
    Case(OT, '[{"name": "tool1", "arguments": {"arg1": [1, 2, 3', problem=True, note="cut off"),
    Case(
        OT,
        '{"name": "tool1", "arguments": {"arg1": [1, 2, ["nested", "array"]]}}',
        (("tool1", {"arg1": [1, 2, ["nested", "array"]]}),),
    ),
    Case(
        OT,
        '[TOOL_CALLS]  [{"name": "get_current_weather", "arguments": {"format":"fahrenheit","location":"San Francisco, '
        'CA"}},{"name": "get_curren}]',
        (W1,),
        problem=True,
        note="the second, broken call is reported while the first runs",
    ),
    Case(OT, f"[{W1J},{W2J} ]", (W1, W2)),
    Case(
        OT,
        f"[{W1J},{W2J}] \n\t\t\tmodel outputs more tokens here and then [{W1J},{W2J}]",
        (W1, W2, W1, W2),
        note="Ollama keeps the second array as text; a call after prose is read",
    ),
    Case(
        OT,
        f"[TOOL_CALLS]  [{W1J},{W2J}]\n\t\t\tmodel outputs more tokens here and then [{W1J},{W2J}]",
        (W1, W2, W1, W2),
    ),
    Case(
        OT,
        '[TOOL_CALLS]  [{"name": "get_current_weather", "arguments": {"format":"fahrenheit","location":"San '
        "Francisco, ",
        problem=True,
    ),
    Case(OT, f"<tool_call>{W1J}</tool_call>", (W1,), text=""),
    Case(OT, f"{W1J} <tool_call>{W1J}</tool_call> <tool_call>{W2J}</tool_call>", (W1, W1, W2), text=""),
    Case(OT, f"[{W1J}, {W2J}] some tokens after call", (W1, W2), text="some tokens after call"),
    Case(
        OT,
        f"some tokens before call [{W1J}, {W2J}]",
        (W1, W2),
        text="some tokens before call",
        note="Ollama leaves a call after prose as text; it is read here",
    ),
    Case(
        OT,
        f"<tool_call> [{W1J}, {W2J}] </tool_call> some tokens after call",
        (W1, W2),
        text="some tokens after call",
    ),
    Case(
        OT,
        f"some tokens before call <tool_call> [{W1J}, {W2J}] </tool_call>",
        (W1, W2),
        text="some tokens before call",
    ),
    Case(OT, f"{W1J} <tool_call>{W2J}</tool_call>", (W1, W2), text=""),
    # --- malformed, the way real models fail ------------------------------------------------------------
    Case(
        VH,
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"',
        problem=True,
        note="cut off by max_tokens; issue 28: a call the reply stopped inside is reported as cut off, never run",
    ),
    Case(VH, "<tool_call>\n</tool_call>", problem=True, note="an empty call block"),
    Case(
        VH,
        "<tool_call>\nI will now look up the weather.\n</tool_call>",
        problem=True,
        note="prose inside the call block",
    ),
    Case(
        VH,
        '<tool_call>\n{"arguments": {"city": "Paris"}}\n</tool_call>',
        problem=True,
        note="the name is missing",
    ),
    Case(VH, "Let me search.\n</tool_call>", problem=True, note="a closing tag without its call"),
    Case(VM, "[TOOL_CALLS]", problem=True, note="the model stopped right after the marker"),
    Case(
        VM,
        '[TOOL_CALLS][{"name": "add", "arguments": {"a": 1, "b": 2}',
        (("add", {"a": 1, "b": 2}),),
        note="cut off: the array and object are closed by repair",
    ),
    Case(VL, "<|python_tag|>", problem=True, note="a tag without a call"),
    Case(
        VL,
        '<|python_tag|>brave_search.call(query="weather in SF")',
        (("brave_search", {"query": "weather in SF"}),),
    ),
    Case(
        VL,
        '<|python_tag|>{"name": "get_weather", "parameters": {"city": "SF"}}<|eom_id|>',
        (("get_weather", {"city": "SF"}),),
        text="",
    ),
    Case(
        LC,
        "<tool_call>\n<function=special_function>\n<parameter=arg1>\n1\n",
        problem=True,
        tools=LC_TOOLS,
        note="cut off inside a parameter; issue 28: a call the reply stopped inside is reported as cut off, never run",
    ),
    Case(
        LC, "<tool_call>\n<function=>\n</function>\n</tool_call>", problem=True, note="an empty function name"
    ),
    Case(
        LC,
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_time{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        problem=True,
        note="the separator token is missing",
    ),
    Case(LC, "<|tool_calls_section_begin|><|tool_calls_section_end|>", problem=True, note="an empty section"),
    Case(
        LC,
        "<start_function_call>call:get_weather{location:<escape>London}<end_function_call>",
        problem=True,
        note="an unclosed <escape> string",
    ),
    Case(
        LC,
        "<start_function_call>get_weather(location='London')<end_function_call>",
        problem=True,
        note="Python syntax inside FunctionGemma's markers",
    ),
    Case(
        LC,
        "<|START_ACTION|>I should call the tool now<|END_ACTION|>",
        problem=True,
        note="prose inside the action",
    ),
    Case(
        LC,
        'Action: ```json\n[{"tool_name": "special_function", "parameters": {"arg1": 1}\n```',
        (SPECIAL,),
        note="the array is not closed; repaired",
    ),
    Case(
        LC,
        "<|channel|>commentary to=functions.special_function <|constrain|>json",
        problem=True,
        note="the header is cut off before <|message|>",
    ),
    Case(
        LC,
        '<tool_calls>[{"name": "special_function", "arguments": {"arg1": 1}}',
        problem=True,
        note="cut off before the array and </tool_calls> close; issue 28: a call the reply stopped inside is reported as cut off, never run",
    ),
    Case(LC, "<tool_calls>\n</tool_calls>", problem=True, note="an empty wrapper"),
    Case(
        LC,
        '<function=special_function>{"arg1": 1',
        problem=True,
        note="cut off after a number (1? 10?): reported",
    ),
    Case(LC, '<function=special_function>{"arg1": }</function>', problem=True, note="a value is missing"),
)

# Replies cut off by max_tokens or garbled, in each family's format (the failure llama.cpp's Qwen3.5
# truncation regression test records): the source names the template whose format is broken.
T = "ggml-org/llama.cpp models/templates/"
CASES += (
    Case(
        T + "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja",
        "<tool_call>\n{'name': 'get_weather', 'arguments': {'city': 'Paris'}}\n</tool_call>",
        (("get_weather", {"city": "Paris"}),),
        note="Python quotes instead of JSON: repaired",
    ),
    Case(
        T + "Qwen3-Coder.jinja",
        "<tool_call>\n<function=get_weather\n<parameter=city>\nParis\n</parameter>\n</function>\n"
        "</tool_call>",
        problem=True,
        note="the function tag is not closed",
    ),
    Case(
        T + "Mistral-Small-3.2-24B-Instruct-2506.jinja",
        "[TOOL_CALLS]get_weather[ARGS]",
        problem=True,
        note="cut off before the arguments",
    ),
    Case(
        T + "meta-llama-Llama-3.1-8B-Instruct.jinja",
        '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Par',
        problem=True,
        note="cut off",
    ),
    Case(
        T + "deepseek-ai-DeepSeek-V3.1.jinja",
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{"city": "Pa',
        problem=True,
        note="cut off",
    ),
    Case(
        T + "openai-gpt-oss-120b.jinja",
        '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location": "Tok',
        problem=True,
        note="cut off",
    ),
    Case(
        "google/functiongemma-270m-it chat_template.jinja (vllm-project/vllm FunctionGemma parser format)",
        "<start_function_call>call:get_weather{location:<escape>Lon",
        problem=True,
        note="cut off",
    ),
    Case(
        T + "GLM-4.6.jinja",
        "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Bei",
        problem=True,
        note="cut off inside a value",
    ),
    Case(
        T + "Kimi-K2-Instruct.jinja",
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
        '<|tool_call_argument_begin|>{"city": "Par',
        problem=True,
        note="cut off",
    ),
    Case(T + "LFM2-8B-A1B.jinja", '<|tool_call_start|>[get_weather(city="Par', problem=True, note="cut off"),
)
