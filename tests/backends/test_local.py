"""The in-process local backend: fast tests need no model; `slow` ones load the embedded GGUF model."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from asi_agent.backends.base import Backend
from asi_agent.backends.local import (
    EMBEDDED_MODEL_FILE,
    LocalBackend,
    LocalBackendConfig,
    build_reply_schema,
    find_embedded_model,
    parse_reply,
    render_messages,
    tools_prompt,
)
from asi_agent.exceptions import BackendError
from asi_agent.messages import Message, ToolCall
from asi_agent.tools.args import ListDirectoryArgs, ReadFileArgs, RunTerminalCmdArgs
from asi_agent.tools.base import ToolArgs


def _tool(
    name: str, description: str, properties: dict[str, object], required: list[str]
) -> dict[str, object]:
    parameters = {"type": "object", "properties": properties, "required": required}
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


TOOLS = [
    _tool(
        "read_file",
        "Read the content of a single file.",
        {"path": {"type": "string"}, "startLine": {"type": "number"}, "endLine": {"type": "number"}},
        ["path"],
    ),
    _tool(
        "list_directory",
        "List the files of a directory.",
        {"path": {"type": "string"}, "recursive": {"type": "boolean", "default": False}},
        ["path"],
    ),
    _tool(
        "run_terminal_cmd",
        "Run a terminal command and return its output.",
        {"command": {"type": "string"}, "cwd": {"type": "string"}},
        ["command"],
    ),
]
ARGS: dict[str, type[ToolArgs]] = {
    "read_file": ReadFileArgs,
    "list_directory": ListDirectoryArgs,
    "run_terminal_cmd": RunTerminalCmdArgs,
}


# --- config and model discovery ------------------------------------------------------------


def test_config_defaults_and_unknown_fields() -> None:
    config = LocalBackendConfig()
    assert (config.model_path, config.n_ctx, config.temperature, config.max_tokens) == (None, 4096, 0.2, 512)
    assert config.constrained is True
    assert config.threads >= 1
    with pytest.raises(ValidationError, match="model_pth"):
        LocalBackendConfig.model_validate({"model_pth": "x.gguf"})
    with pytest.raises(ValidationError, match="threads"):
        LocalBackendConfig(threads=0)


def test_embedded_model_is_found_and_named() -> None:
    path = find_embedded_model()
    assert path is not None and path.name == EMBEDDED_MODEL_FILE and path.is_file()
    assert LocalBackend().model_name == "SmolLM2-135M-Instruct.Q4_1"
    assert LocalBackend(LocalBackendConfig(model_path=Path("m/qwen.gguf"))).model_name == "qwen"


async def test_backend_satisfies_the_protocol_and_offers_native_tools() -> None:
    backend: Backend = LocalBackend()
    assert await backend.supports_native_tools() is True


async def test_missing_model_file_is_a_backend_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "absent.gguf"
    backend = LocalBackend(LocalBackendConfig(model_path=missing))
    with pytest.raises(BackendError, match=r"not found: .*absent\.gguf"):
        await backend.complete([Message("user", "hi")])


async def test_non_gguf_file_is_a_backend_error_naming_it(tmp_path: Path) -> None:
    fake = tmp_path / "weights.bin"
    fake.write_bytes(b"PK\x03\x04 not a model")
    backend = LocalBackend(LocalBackendConfig(model_path=fake))
    with pytest.raises(BackendError, match=r"not a GGUF model file: .*weights\.bin"):
        await backend.complete([Message("user", "hi")])


# --- the reply schema ----------------------------------------------------------------------


def test_reply_schema_is_any_of_answer_and_one_entry_per_tool() -> None:
    original = copy.deepcopy(TOOLS)
    schema = build_reply_schema(TOOLS)
    answer, *calls = schema["anyOf"]
    assert answer["properties"] == {"answer": {"type": "string"}}
    assert answer["required"] == ["answer"] and answer["additionalProperties"] is False
    assert [entry["properties"]["tool"] for entry in calls] == [
        {"const": "read_file"},
        {"const": "list_directory"},
        {"const": "run_terminal_cmd"},
    ]
    for entry, tool in zip(calls, TOOLS, strict=True):
        assert entry["required"] == ["tool", "arguments"] and entry["additionalProperties"] is False
        parameters = tool["function"]["parameters"]  # type: ignore[index]
        assert entry["properties"]["arguments"] == {**parameters, "additionalProperties": False}
    assert original == TOOLS  # the caller's schemas are not modified


def test_reply_schema_closes_nested_objects_and_keeps_explicit_choices() -> None:
    nested = _tool(
        "configure",
        "Set options.",
        {"options": {"type": "object", "properties": {"depth": {"type": "number"}}}},
        ["options"],
    )
    open_tool = {"type": "function", "function": {"name": "free", "parameters": {
        "type": "object", "properties": {}, "additionalProperties": True}}}  # fmt: skip
    _, configure, free = build_reply_schema([nested, open_tool])["anyOf"]
    options = configure["properties"]["arguments"]["properties"]["options"]
    assert options["additionalProperties"] is False
    assert free["properties"]["arguments"]["additionalProperties"] is True


# --- the prompt and the transcript ---------------------------------------------------------


def test_tools_prompt_names_tools_parameters_and_reply_format() -> None:
    prompt = tools_prompt(TOOLS)
    assert '{"tool": "<name>", "arguments": {<parameters>}}' in prompt
    assert '{"answer": "<your answer>"}' in prompt
    assert "- read_file(path*: string, startLine: number, endLine: number): Read the content" in prompt
    assert "- run_terminal_cmd(command*: string, cwd: string): Run a terminal command" in prompt


def test_transcript_renders_calls_and_results_as_text_turns() -> None:
    call = ToolCall("call_1", "read_file", {"path": "a.py"})
    messages = [
        Message("system", "You are a coding assistant."),
        Message("user", "show a.py"),
        Message("assistant", "", tool_calls=(call,)),
        Message("tool", "print(1)", tool_call_id="call_1", name="read_file"),
        Message("user", "and now?"),
        Message("assistant", "It prints 1."),
    ]
    chat = render_messages(messages, TOOLS)
    assert [turn["role"] for turn in chat] == ["system", "user", "assistant", "user", "assistant"]
    assert chat[0]["content"].startswith("You are a coding assistant.\n\nReply with exactly one JSON object")
    assert json.loads(chat[2]["content"]) == {"tool": "read_file", "arguments": {"path": "a.py"}}
    assert chat[3]["content"] == "Result of read_file:\nprint(1)\n\nand now?"
    assert json.loads(chat[4]["content"]) == {"answer": "It prints 1."}


def test_transcript_without_tools_keeps_plain_text() -> None:
    chat = render_messages([Message("user", "hi"), Message("assistant", "hello")], None)
    assert chat == [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]


# --- reply parsing -------------------------------------------------------------------------


def test_parse_valid_call() -> None:
    text, call = parse_reply('{"tool": "read_file", "arguments": {"path": "src/app.py", "startLine": 3}}')
    assert text == ""
    assert call is not None and call.id and call.id.startswith("call_")
    assert (call.name, call.arguments) == ("read_file", {"path": "src/app.py", "startLine": 3})


def test_parse_answer() -> None:
    assert parse_reply('{\n  "answer": "It prints 1."\n}') == ("It prints 1.", None)


@pytest.mark.parametrize(
    "reply",
    [
        '{"tool": "read_file", "arguments": {"path": "src/ap',  # cut by max_tokens
        "Sure, here is the file.",
        '["read_file"]',
        '{"tool": "read_file", "arguments": "path=a.py"}',
        '{"something": "else"}',
    ],
)
def test_parse_broken_reply_comes_back_as_text(reply: str) -> None:
    assert parse_reply(reply) == (reply, None)


def test_lenient_parse_repairs_and_accepts_other_shapes() -> None:
    _, cut = parse_reply('{"tool": "read_file", "arguments": {"path": "a.py"', lenient=True)
    assert cut is not None and (cut.name, cut.arguments) == ("read_file", {"path": "a.py"})
    _, named = parse_reply('Here: {"name": "list_directory", "parameters": {"path": "src",}}', lenient=True)
    assert named is not None and (named.name, named.arguments) == ("list_directory", {"path": "src"})
    _, encoded = parse_reply(
        '{"tool": "run_terminal_cmd", "arguments": "{\\"command\\": \\"ls\\"}"}', lenient=True
    )
    assert encoded is not None and encoded.arguments == {"command": "ls"}
    assert parse_reply('{"answer": "done"}', lenient=True) == ("done", None)
    assert parse_reply("Just prose, no JSON.", lenient=True) == ("Just prose, no JSON.", None)


# --- the real embedded model ---------------------------------------------------------------


@pytest.fixture(scope="module")
def model_backend() -> Iterator[LocalBackend]:
    """One loaded model for all slow tests; one thread because CI runners are shared and busy."""
    backend = LocalBackend(LocalBackendConfig(threads=1, max_tokens=96, seed=7))
    yield backend
    asyncio.run(backend.aclose())


@pytest.mark.slow
async def test_real_model_answers_a_plain_request(model_backend: LocalBackend) -> None:
    seen: list[str] = []
    completion = await model_backend.complete(
        [Message("user", "Say hello in one word.")], on_delta=seen.append
    )
    assert completion.text.strip() and completion.native_calls == ()
    assert seen == [completion.text]
    assert completion.usage.prompt_tokens > 0 and completion.usage.completion_tokens > 0


@pytest.mark.slow
@pytest.mark.parametrize(
    "request_text",
    [
        "Show me the contents of src/main.py.",
        "List the files in the tests folder.",
        "Run the command `ls -la`.",
    ],
)
async def test_real_model_replies_with_an_answer_or_a_schema_valid_call(
    model_backend: LocalBackend, request_text: str
) -> None:
    messages = [Message("system", "You are a coding assistant."), Message("user", request_text)]
    completion = await model_backend.complete(messages, TOOLS)
    assert len(completion.native_calls) <= 1
    if completion.native_calls:
        call = completion.native_calls[0]
        assert call.name in ARGS and isinstance(call.arguments, dict)
        ARGS[call.name].model_validate(call.arguments)
        assert completion.text == ""
    else:
        assert completion.text.strip()


@pytest.mark.slow
async def test_real_model_falls_back_to_free_decoding_when_the_schema_cannot_compile(
    model_backend: LocalBackend,
) -> None:
    exotic = _tool("probe", "A plugin tool with a schema llama.cpp rejects.", {"x": {"type": "bogus"}}, [])
    completion = await model_backend.complete([Message("user", "Say hi.")], [exotic])
    assert completion.finish_reason in ("stop", "length")
    assert completion.text.strip() or completion.native_calls


@pytest.mark.slow
async def test_real_model_prompt_beyond_the_context_is_a_backend_error() -> None:
    backend = LocalBackend(LocalBackendConfig(threads=1, n_ctx=256, max_tokens=8))
    try:
        with pytest.raises(BackendError, match="context"):
            await backend.complete([Message("user", "word " * 400)])
    finally:
        await backend.aclose()


def test_reply_schema_without_the_answer_choice_forces_a_call():
    tools = [
        {
            "type": "function",
            "function": {
                "name": "read_file",
                "description": "",
                "parameters": {"type": "object", "properties": {}},
            },
        }
    ]
    choices = build_reply_schema(tools, allow_answer=False)["anyOf"]
    assert [c["properties"].get("tool", {}).get("const") for c in choices] == ["read_file"]
    assert len(build_reply_schema(tools)["anyOf"]) == 2
