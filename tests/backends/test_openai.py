"""OpenAIBackend through the real `openai` client against the local OpenAI-compatible server."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from servers.openai_server import Call, OpenAIServer, Reply

from asi_agent.backends.openai import OpenAIBackend, OpenAIBackendConfig
from asi_agent.exceptions import BackendError, ToolsUnsupportedError
from asi_agent.messages import Message, RawCall, ToolCall, Usage
from asi_agent.tools.registry import default_registry
from asi_agent.tools.schema import tool_schema

READ_FILE = tool_schema(default_registry().get("read_file"), "en")
"""The built-in `read_file`, as the agent offers it to a model."""
USER = [Message("system", "You are a coding assistant."), Message("user", "Show me a.py")]

MakeBackend = Callable[..., OpenAIBackend]


@pytest.fixture
async def make_backend(openai_server: OpenAIServer) -> AsyncIterator[MakeBackend]:
    """Builds backends on the test server (fast retries) and closes them afterwards."""
    made: list[OpenAIBackend] = []

    def make(**options: Any) -> OpenAIBackend:
        settings: dict[str, Any] = {"model": "test-model", "base_url": openai_server.base_url}
        settings |= {"retry_backoff": 0.01, "idle_timeout": 5.0} | options
        made.append(OpenAIBackend(OpenAIBackendConfig(**settings)))
        return made[-1]

    yield make
    for backend in made:
        await backend.aclose()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_streams_text_to_on_delta_and_reports_usage(
    openai_server: OpenAIServer, make_backend: MakeBackend
):
    openai_server.reply(Reply(text="Here is the file content.", prompt_tokens=42, completion_tokens=6))
    deltas: list[str] = []

    completion = await make_backend().complete(USER, on_delta=deltas.append)

    assert completion.text == "Here is the file content."
    assert len(deltas) > 1 and "".join(deltas) == completion.text
    assert completion.native_calls == ()
    assert completion.usage == Usage(42, 6)
    assert completion.finish_reason == "stop"
    body = openai_server.chat_bodies[0]
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["model"] == "test-model" and body["temperature"] == 0.2
    assert "tools" not in body
    assert body["messages"] == [
        {"role": "system", "content": "You are a coding assistant."},
        {"role": "user", "content": "Show me a.py"},
    ]


@pytest.mark.parametrize("omit_index", [False, True])
async def test_assembles_several_fragmented_tool_calls(
    openai_server: OpenAIServer, make_backend: MakeBackend, omit_index: bool
):
    openai_server.omit_tool_index = omit_index
    arguments = {"path": "src/app/main.py", "offset": 10}
    calls = [Call("read_file", arguments, id="call_a"), Call("grep", '{"pattern": "def main"}', id="call_b")]
    openai_server.reply(Reply(text="Looking.", calls=calls))

    completion = await make_backend().complete(USER, [READ_FILE])

    assert completion.native_calls == (
        RawCall("call_a", "read_file", json.dumps(arguments)),
        RawCall("call_b", "grep", '{"pattern": "def main"}'),
    )
    assert completion.text == "Looking."
    assert completion.finish_reason == "tool_calls"
    assert openai_server.chat_bodies[0]["tools"] == [READ_FILE]


async def test_keeps_object_arguments_of_a_non_conforming_server(
    openai_server: OpenAIServer, make_backend: MakeBackend
):
    openai_server.arguments_as_object = True
    openai_server.reply(Reply(calls=[Call("read_file", {"path": "a.py"}, id="c1")]))

    completion = await make_backend().complete(USER, [READ_FILE])

    assert completion.native_calls == (RawCall("c1", "read_file", {"path": "a.py"}),)


async def test_sends_tool_calls_and_results_in_wire_shape(
    openai_server: OpenAIServer, make_backend: MakeBackend
):
    openai_server.reply("Done.")
    history = [
        *USER,
        Message("assistant", "", tool_calls=(ToolCall("c1", "read_file", {"path": "a.py"}),)),
        Message("tool", "print('hi')", tool_call_id="c1", name="read_file"),
    ]

    await make_backend(max_tokens=256, temperature=None).complete(history, [READ_FILE])

    body = openai_server.chat_bodies[0]
    assistant, tool = body["messages"][2:]
    assert assistant["role"] == "assistant" and assistant["content"] is None
    assert assistant["tool_calls"] == [
        {"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a.py"}'}}
    ]
    assert tool == {"role": "tool", "content": "print('hi')", "tool_call_id": "c1"}
    assert body["max_tokens"] == 256 and "temperature" not in body


async def test_retries_after_429_and_503_then_succeeds(
    openai_server: OpenAIServer, make_backend: MakeBackend
):
    openai_server.fail_next(1, status=429)
    openai_server.fail_next(1, status=503)
    openai_server.reply("finally")

    completion = await make_backend(max_retries=3).complete(USER)

    assert completion.text == "finally"
    assert len(openai_server.chat_bodies) == 3


async def test_honours_retry_after(openai_server: OpenAIServer, make_backend: MakeBackend):
    openai_server.fail_next(1, status=429, retry_after=0.4)
    openai_server.reply("ok")

    started = time.monotonic()
    await make_backend(retry_backoff=0.0).complete(USER)

    assert time.monotonic() - started >= 0.4


async def test_gives_up_when_retries_are_spent(openai_server: OpenAIServer, make_backend: MakeBackend):
    openai_server.fail_next(5, status=503)

    with pytest.raises(BackendError, match=r"answered 503 .*gave up after 3 attempts"):
        await make_backend(max_retries=2).complete(USER)

    assert len(openai_server.chat_bodies) == 3


async def test_unreachable_server_fails_fast_with_a_hint():
    url = f"http://127.0.0.1:{free_port()}/v1"
    backend = OpenAIBackend(OpenAIBackendConfig(model="m", base_url=url, max_retries=1, retry_backoff=0.01))
    started = time.monotonic()

    with pytest.raises(BackendError) as caught:
        await backend.complete(USER)
    await backend.aclose()

    assert time.monotonic() - started < 3
    message = str(caught.value)
    assert f"cannot reach the model server at {url} (connection refused)" in message
    assert "ASI_BASE_URL" in message and "\n" not in message


async def test_slow_server_times_out(openai_server: OpenAIServer, make_backend: MakeBackend):
    openai_server.reply(Reply(text="late", delay=1.5))

    with pytest.raises(BackendError, match=r"did not answer within 0\.3 s"):
        await make_backend(idle_timeout=0.3, max_retries=0).complete(USER)


async def test_unknown_model_lists_the_models_offered(make_backend: MakeBackend):
    server = OpenAIServer(models=["qwen3-8b", "llama-3.1-8b"])
    server.reject_unknown_models = True
    with server:
        backend = make_backend(model="gpt-9", base_url=server.base_url)
        with pytest.raises(BackendError) as caught:
            await backend.complete(USER)

    message = str(caught.value)
    assert "model 'gpt-9' is not available" in message
    assert "llama-3.1-8b, qwen3-8b" in message and "ASI_MODEL" in message


async def test_wrong_api_key_says_which_variable_to_set(
    openai_server: OpenAIServer, make_backend: MakeBackend
):
    openai_server.api_key = "sk-right"
    openai_server.reply("welcome")

    with pytest.raises(BackendError, match=r"refused the API key \(401.*set ASI_API_KEY or OPENAI_API_KEY"):
        await make_backend(api_key="sk-wrong").complete(USER)
    assert (await make_backend(api_key="sk-right").complete(USER)).text == "welcome"


async def test_rejected_tools_raise_tools_unsupported(openai_server: OpenAIServer, make_backend: MakeBackend):
    openai_server.reject_tools = True
    openai_server.reply("plain text works")
    backend = make_backend()

    with pytest.raises(ToolsUnsupportedError, match="tools are not supported"):
        await backend.complete(USER, [READ_FILE])
    assert (await backend.complete(USER)).text == "plain text works"
    assert await backend.supports_native_tools() is True


async def test_falls_back_when_stream_options_are_rejected(
    openai_server: OpenAIServer, make_backend: MakeBackend
):
    openai_server.reject_stream_options = True
    openai_server.reply("one", "two")
    backend = make_backend()

    assert (await backend.complete(USER)).text == "one"
    assert (await backend.complete(USER)).text == "two"

    bodies = openai_server.chat_bodies
    assert ["stream_options" in body for body in bodies] == [True, False, False]


async def test_other_client_errors_carry_the_server_message(make_backend: MakeBackend):
    with pytest.raises(
        BackendError, match=r"rejected the request \(400: test server has no scripted reply left"
    ):
        await make_backend().complete(USER)


async def test_an_empty_tool_list_sends_no_tools(openai_server: OpenAIServer, make_backend: MakeBackend):
    openai_server.reject_tools = True
    openai_server.reply("fine")

    assert (await make_backend().complete(USER, [])).text == "fine"
    assert "tools" not in openai_server.chat_bodies[0]


async def test_reasoning_content_comes_back_between_think_tags(
    openai_server: OpenAIServer, make_backend: MakeBackend
):
    openai_server.reply(Reply(text="Here it is.", reasoning="Look at a.py first."))
    deltas: list[str] = []

    completion = await make_backend().complete(USER, on_delta=deltas.append)

    assert completion.text == "<think>Look at a.py first.</think>Here it is."
    assert "".join(deltas) == completion.text


async def test_switches_to_max_completion_tokens_when_the_server_asks(
    openai_server: OpenAIServer, make_backend: MakeBackend
):
    openai_server.reject_max_tokens = True
    openai_server.reply("one", "two")
    backend = make_backend(max_tokens=1000)

    assert (await backend.complete(USER)).text == "one"
    assert (await backend.complete(USER)).text == "two"

    sent = [(body.get("max_tokens"), body.get("max_completion_tokens")) for body in openai_server.chat_bodies]
    assert sent == [(1000, None), (None, 1000), (None, 1000)]


async def test_max_tokens_has_a_default(openai_server: OpenAIServer, make_backend: MakeBackend):
    openai_server.reply("bounded")

    await make_backend().complete(USER)

    assert openai_server.chat_bodies[0]["max_tokens"] == 4096
