"""Real call sets (from the suites above) written the way each model family's chat template renders an
assistant turn with tool calls — the text the model was trained to produce. The renderings follow the
templates in llama.cpp's models/templates/ (and Ollama's tools/testdata), written out here independently
of the parser.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from corpus.case import Call, Case

T = "ggml-org/llama.cpp models/templates/"
PY_CODE = 'def hello():\n    print("Hello, world!")\n\nhello()'
EDIT_OLD = 'def foo(arg = "14"):\n    return arg + "bar"\n'
EDIT_NEW = 'def foo(arg = "15"):\n    pass\n'

CALL_SETS: tuple[tuple[Call, ...], ...] = (
    (("special_function", {"arg1": 1}),),
    (("get_current_weather", {"location": "San Francisco, CA", "unit": "fahrenheit"}),),
    (("python", {"code": PY_CODE}),),
    (
        (
            "todo_list",
            {
                "todos": [
                    {"item": "Check stuff", "selected": False},
                    {"item": "Prepare stuff", "selected": True},
                ]
            },
        ),
    ),
    (("edit", {"filename": "foo.cpp", "oldString": EDIT_OLD, "newString": EDIT_NEW}),),
    (("get_time", {"city": "Paris"}), ("get_weather", {"city": "Paris"})),
    (("empty_args", {}),),
    (("search", {"query": "天气 北京", "limit": 5}),),
    (("html", {"markup": "<p>test</p>"}),),
)
TOOLS = {
    "special_function": {"arg1": "integer"},
    "get_current_weather": {"location": "string", "unit": "string"},
    "python": {"code": "string"},
    "todo_list": {"todos": "array"},
    "edit": {"filename": "string", "oldString": "string", "newString": "string"},
    "get_time": {"city": "string"},
    "get_weather": {"city": "string"},
    "empty_args": {},
    "search": {"query": "string", "limit": "integer"},
    "html": {"markup": "string"},
}


def _j(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _text(value: Any) -> str:
    """How XML-style templates write a value: strings as they are, the rest as JSON."""
    return value if isinstance(value, str) else _j(value)


def hermes(calls: tuple[Call, ...]) -> str:
    return "\n".join(f'<tool_call>\n{{"name": "{n}", "arguments": {_j(a)}}}\n</tool_call>' for n, a in calls)


def qwen3_coder(calls: tuple[Call, ...]) -> str:
    out = []
    for name, args in calls:
        params = "".join(f"<parameter={k}>\n{_text(v)}\n</parameter>\n" for k, v in args.items())
        out.append(f"<tool_call>\n<function={name}>\n{params}</function>\n</tool_call>")
    return "\n".join(out)


def seed_oss(calls: tuple[Call, ...]) -> str:
    out = []
    for name, args in calls:
        params = "".join(f"<parameter={k}>{_text(v)}</parameter>\n" for k, v in args.items())
        out.append(f"<seed:tool_call>\n<function={name}>\n{params}</function>\n</seed:tool_call>")
    return "\n".join(out)


def minimax_m2(calls: tuple[Call, ...]) -> str:
    invokes = "".join(
        f'<invoke name="{name}">\n'
        + "".join(f'<parameter name="{k}">{_text(v)}</parameter>\n' for k, v in args.items())
        + "</invoke>\n"
        for name, args in calls
    )
    return f"<minimax:tool_call>\n{invokes}</minimax:tool_call>"


def glm(calls: tuple[Call, ...]) -> str:
    return "\n".join(
        f"<tool_call>{name}\n"
        + "".join(f"<arg_key>{k}</arg_key>\n<arg_value>{_text(v)}</arg_value>\n" for k, v in args.items())
        + "</tool_call>"
        for name, args in calls
    )


def mistral_nemo(calls: tuple[Call, ...]) -> str:
    items = [{"name": n, "arguments": a, "id": f"abcdefgh{i}"} for i, (n, a) in enumerate(calls)]
    return "[TOOL_CALLS]" + _j(items)


def mistral_small(calls: tuple[Call, ...]) -> str:
    return "".join(f"[TOOL_CALLS]{n}[ARGS]{_j(a)}" for n, a in calls)


def llama32(calls: tuple[Call, ...]) -> str:
    return "; ".join(f'{{"name": "{n}", "parameters": {_j(a)}}}' for n, a in calls)


def llama31(calls: tuple[Call, ...]) -> str:
    return "<|python_tag|>" + llama32(calls)


def pythonic(calls: tuple[Call, ...]) -> str:
    return (
        "[" + ", ".join(f"{n}(" + ", ".join(f"{k}={v!r}" for k, v in a.items()) + ")" for n, a in calls) + "]"
    )


def lfm2(calls: tuple[Call, ...]) -> str:
    return f"<|tool_call_start|>{pythonic(calls)}<|tool_call_end|>"


def functionary_v31(calls: tuple[Call, ...]) -> str:
    return "".join(f"<function={n}>{_j(a)}</function>" for n, a in calls)


def functionary_v32(calls: tuple[Call, ...]) -> str:
    return "\n".join(f">>>{n}\n{_j(a)}" for n, a in calls)


def apriel(calls: tuple[Call, ...]) -> str:
    return "<tool_calls>" + _j([{"name": n, "arguments": a} for n, a in calls]) + "</tool_calls>"


def granite(calls: tuple[Call, ...]) -> str:
    return "<|tool_call|>" + _j([{"name": n, "arguments": a} for n, a in calls])


def nemotron(calls: tuple[Call, ...]) -> str:
    return "<TOOLCALL>" + _j([{"name": n, "arguments": a} for n, a in calls]) + "</TOOLCALL>"


def firefunction(calls: tuple[Call, ...]) -> str:
    return " functools" + _j([{"name": n, "arguments": a} for n, a in calls])


def deepseek_r1(calls: tuple[Call, ...]) -> str:
    inner = "".join(
        f"<｜tool▁call▁begin｜>function<｜tool▁sep｜>{n}\n```json\n{_j(a)}\n```<｜tool▁call▁end｜>"
        for n, a in calls
    )
    return f"<｜tool▁calls▁begin｜>{inner}<｜tool▁calls▁end｜>"


def deepseek_v31(calls: tuple[Call, ...]) -> str:
    inner = "".join(f"<｜tool▁call▁begin｜>{n}<｜tool▁sep｜>{_j(a)}<｜tool▁call▁end｜>" for n, a in calls)
    return f"<｜tool▁calls▁begin｜>{inner}<｜tool▁calls▁end｜>"


def kimi_k2(calls: tuple[Call, ...]) -> str:
    inner = "".join(
        f"<|tool_call_begin|>functions.{n}:{i}<|tool_call_argument_begin|>{_j(a)}<|tool_call_end|>"
        for i, (n, a) in enumerate(calls)
    )
    return f"<|tool_calls_section_begin|>{inner}<|tool_calls_section_end|>"


def gpt_oss(calls: tuple[Call, ...]) -> str:
    return "".join(
        f"<|start|>assistant<|channel|>commentary to=functions.{n} <|constrain|>json<|message|>{_j(a)}<|call|>"
        for n, a in calls
    )


def _gemma_value(value: Any) -> str:
    if isinstance(value, str):
        return f"<escape>{value}<escape>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_gemma_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_gemma_value(v) for v in value) + "]"
    return str(value)


def functiongemma(calls: tuple[Call, ...]) -> str:
    return "".join(f"<start_function_call>call:{n}{_gemma_value(a)}<end_function_call>" for n, a in calls)


def command_r_plus(calls: tuple[Call, ...]) -> str:
    return (
        "Action: ```json\n"
        + json.dumps([{"tool_name": n, "parameters": a} for n, a in calls], ensure_ascii=False, indent=4)
        + "\n```"
    )


def command_r7b(calls: tuple[Call, ...]) -> str:
    items = [{"tool_call_id": str(i), "tool_name": n, "parameters": a} for i, (n, a) in enumerate(calls)]
    return (
        "<|START_THINKING|>I will call the tools.<|END_THINKING|><|START_ACTION|>"
        + _j(items)
        + "<|END_ACTION|>"
    )


RENDERERS: tuple[tuple[str, Callable[[tuple[Call, ...]], str]], ...] = (
    (T + "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja", hermes),
    (T + "Qwen3-Coder.jinja", qwen3_coder),
    (T + "ByteDance-Seed-OSS.jinja", seed_oss),
    (T + "MiniMax-M2.jinja", minimax_m2),
    (T + "GLM-4.6.jinja", glm),
    (T + "mistralai-Mistral-Nemo-Instruct-2407.jinja", mistral_nemo),
    (T + "Mistral-Small-3.2-24B-Instruct-2506.jinja", mistral_small),
    (T + "meta-llama-Llama-3.2-3B-Instruct.jinja", llama32),
    (T + "meta-llama-Llama-3.1-8B-Instruct.jinja", llama31),
    (T + "LFM2-8B-A1B.jinja", lfm2),
    (T + "meetkai-functionary-medium-v3.1.jinja", functionary_v31),
    (T + "meetkai-functionary-medium-v3.2.jinja", functionary_v32),
    (T + "unsloth-Apriel-1.5.jinja", apriel),
    (T + "ibm-granite-granite-3.3-2B-Instruct.jinja", granite),
    (T + "NVIDIA-Nemotron-Nano-v2.jinja", nemotron),
    (T + "fireworks-ai-llama-3-firefunction-v2.jinja", firefunction),
    (T + "llama-cpp-deepseek-r1.jinja", deepseek_r1),
    (T + "deepseek-ai-DeepSeek-V3.1.jinja", deepseek_v31),
    (T + "Kimi-K2-Instruct.jinja", kimi_k2),
    (T + "openai-gpt-oss-120b.jinja", gpt_oss),
    (
        "google/functiongemma-270m-it chat_template.jinja (vllm-project/vllm FunctionGemma parser format)",
        functiongemma,
    ),
    (T + "CohereForAI-c4ai-command-r-plus-tool_use.jinja", command_r_plus),
    (T + "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja", command_r7b),
)
PROSE = "Let me check that first.\n"


def _cases() -> tuple[Case, ...]:
    cases = []
    for source, render in RENDERERS:
        for index, calls in enumerate(CALL_SETS):
            tools = {name: TOOLS[name] for name, _ in calls}
            prefix = PROSE if index % 2 else ""
            cases.append(Case(source, prefix + render(calls), calls, text=prefix.strip(), tools=tools))
    return tuple(cases)


CASES = _cases()
