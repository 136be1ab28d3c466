"""OllamaBackend through the real `ollama` client and HTTP against the local Ollama server."""

from __future__ import annotations

import copy
import logging
import socket
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from servers.ollama_server import Call, OllamaServer, Reply

from asi_agent.backends.ollama import OllamaBackend, OllamaBackendConfig
from asi_agent.exceptions import BackendError, ToolsUnsupportedError
from asi_agent.messages import Message, RawCall, ToolCall, Usage
from asi_agent.tools.registry import default_registry
from asi_agent.tools.schema import tool_schema

READ_FILE = tool_schema(default_registry().get("read_file"), "en")
"""The built-in `read_file`, as the agent offers it to a model."""
USER = [Message("system", "You are a coding assistant."), Message("user", "Show me a.py")]

MakeBackend = Callable[..., OllamaBackend]


@pytest.fixture
async def make_backend(ollama_server: OllamaServer) -> AsyncIterator[MakeBackend]:
    """Builds backends on the test server (fast retries) and closes them afterwards."""
    made: list[OllamaBackend] = []

    def make(**options: Any) -> OllamaBackend:
        settings: dict[str, Any] = {"model": "test-model", "host": ollama_server.host}
        settings |= {"retry_backoff": 0.01, "idle_timeout": 5.0} | options
        made.append(OllamaBackend(OllamaBackendConfig(**settings)))
        return made[-1]

    yield make
    for backend in made:
        await backend.aclose()


async def test_streams_text_and_sends_num_ctx(ollama_server: OllamaServer, make_backend: MakeBackend):
    ollama_server.reply(Reply(text="Here is a.py.", prompt_tokens=30, completion_tokens=5))
    deltas: list[str] = []

    completion = await make_backend(num_ctx=16384).complete(USER, on_delta=deltas.append)

    assert completion.text == "Here is a.py." and len(deltas) > 1 and "".join(deltas) == completion.text
    assert completion.usage == Usage(30, 5)
    assert completion.finish_reason == "stop"
    body = ollama_server.chat_bodies[0]
    assert body["options"] == {"num_ctx": 16384, "num_predict": 4096, "temperature": 0.2}
    assert body["stream"] is True and "tools" not in body


def with_what_the_client_drops(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with what the `ollama` client's own Tool model would drop: a default and a minimum, the
    properties of a nested object, `additionalProperties`."""
    whole = copy.deepcopy(schema)
    parameters = whole["function"]["parameters"]
    parameters["properties"] |= {
        "offset": {"type": "integer", "default": 0, "minimum": 0},
        "options": {"type": "object", "properties": {"raw": {"type": "boolean"}}},
    }
    parameters["additionalProperties"] = False
    return whole


async def test_tool_schema_reaches_the_wire_whole(ollama_server: OllamaServer, make_backend: MakeBackend):
    ollama_server.reply("ok")
    tool = with_what_the_client_drops(READ_FILE)

    await make_backend().complete(USER, [tool])

    sent = ollama_server.chat_bodies[0]["tools"]
    assert sent == [tool]
    assert sent[0]["function"]["parameters"]["properties"]["offset"]["default"] == 0


async def test_tool_calls_keep_dict_arguments_and_have_no_id(
    ollama_server: OllamaServer, make_backend: MakeBackend
):
    calls = [Call("read_file", {"path": "a.py", "offset": 3}), Call("list_dir", {"path": "."})]
    ollama_server.reply(Reply(text="Reading.", calls=calls))

    completion = await make_backend().complete(USER, [READ_FILE])

    assert completion.text == "Reading."
    assert completion.native_calls == (
        RawCall(None, "read_file", {"path": "a.py", "offset": 3}),
        RawCall(None, "list_dir", {"path": "."}),
    )


async def test_tool_results_are_sent_with_tool_name(ollama_server: OllamaServer, make_backend: MakeBackend):
    ollama_server.reply("Done.")
    history = [
        *USER,
        Message(
            "assistant",
            "",
            tool_calls=(
                ToolCall("c1", "read_file", {"path": "a.py"}),
                ToolCall("c2", "list_dir", {"path": "."}),
            ),
        ),
        Message("tool", "print('hi')", tool_call_id="c1"),
        Message("tool", "a.py", tool_call_id="c2", name="list_dir"),
    ]

    await make_backend(temperature=None).complete(history)

    body = ollama_server.chat_bodies[0]
    assistant, first, second = body["messages"][2:]
    assert assistant["tool_calls"] == [
        {"function": {"name": "read_file", "arguments": {"path": "a.py"}}},
        {"function": {"name": "list_dir", "arguments": {"path": "."}}},
    ]
    assert first == {"role": "tool", "content": "print('hi')", "tool_name": "read_file"}
    assert second == {"role": "tool", "content": "a.py", "tool_name": "list_dir"}
    assert body["options"] == {"num_ctx": 8192, "num_predict": 4096}


@pytest.mark.parametrize(
    ("capabilities", "expected"),
    [(["completion", "tools"], True), (["completion"], False), (None, True)],
)
async def test_native_tools_follow_the_capabilities(
    ollama_server: OllamaServer, make_backend: MakeBackend, capabilities: list[str] | None, expected: bool
):
    ollama_server.capabilities = capabilities
    backend = make_backend()

    assert await backend.supports_native_tools() is expected
    assert await backend.supports_native_tools() is expected
    shows = [r for r in ollama_server.requests if r.path == "/api/show"]
    assert len(shows) == 1 and shows[0].body["model"] == "test-model"


@pytest.mark.parametrize("ask_capabilities", [False, True])
async def test_unknown_model_suggests_pull_and_lists_local_models(
    make_backend: MakeBackend, ask_capabilities: bool
):
    server = OllamaServer(models=["qwen3:8b", "llama3.2:latest"])
    server.reject_unknown_models = True
    with server:
        backend = make_backend(model="nope:1b", host=server.host)
        with pytest.raises(BackendError) as caught:
            await (backend.supports_native_tools() if ask_capabilities else backend.complete(USER))

    message = str(caught.value)
    assert "run `ollama pull nope:1b`" in message
    assert "local models: llama3.2:latest, qwen3:8b" in message


async def test_rejected_tools_raise_tools_unsupported(ollama_server: OllamaServer, make_backend: MakeBackend):
    ollama_server.reject_tools = True

    with pytest.raises(ToolsUnsupportedError, match="does not support tools"):
        await make_backend().complete(USER, [READ_FILE])


async def test_retries_server_errors_then_succeeds(ollama_server: OllamaServer, make_backend: MakeBackend):
    ollama_server.fail_next(1, status=500)
    ollama_server.fail_next(1, status=503)
    ollama_server.reply("recovered")

    assert (await make_backend().complete(USER)).text == "recovered"
    assert len(ollama_server.chat_bodies) == 3


async def test_gives_up_when_retries_are_spent(ollama_server: OllamaServer, make_backend: MakeBackend):
    ollama_server.fail_next(3, status=500)

    with pytest.raises(
        BackendError, match=r"answered 500 \(injected failure 500\).*gave up after 2 attempts"
    ):
        await make_backend(max_retries=1).complete(USER)


async def test_unreachable_host_mentions_ollama_host():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    backend = OllamaBackend(
        OllamaBackendConfig(model="m", host=f"127.0.0.1:{port}", max_retries=1, retry_backoff=0.01)
    )
    started = time.monotonic()

    with pytest.raises(BackendError) as caught:
        await backend.complete(USER)
    with pytest.raises(BackendError, match="connection refused"):
        await backend.supports_native_tools()
    await backend.aclose()

    assert time.monotonic() - started < 3
    message = str(caught.value)
    assert f"cannot reach Ollama at http://127.0.0.1:{port} (connection refused)" in message
    assert "OLLAMA_HOST" in message


async def test_warns_when_the_prompt_exceeds_num_ctx(
    ollama_server: OllamaServer, make_backend: MakeBackend, caplog: pytest.LogCaptureFixture
):
    ollama_server.reply("short", "long")
    backend = make_backend(num_ctx=100)
    caplog.set_level(logging.WARNING, logger="asi_agent.backends.ollama")

    await backend.complete(USER)
    assert caplog.records == []
    await backend.complete([Message("user", "word " * 200)])

    assert [r.name for r in caplog.records] == ["asi_agent.backends.ollama"]
    assert "exceeds num_ctx=100" in caplog.records[0].getMessage()


async def test_thinking_comes_back_between_think_tags(ollama_server: OllamaServer, make_backend: MakeBackend):
    ollama_server.reply(Reply(text="It is a.py.", reasoning="The user wants a.py."))
    deltas: list[str] = []

    completion = await make_backend().complete(USER, on_delta=deltas.append)

    assert completion.text == "<think>The user wants a.py.</think>It is a.py."
    assert "".join(deltas) == completion.text


async def test_a_reply_that_only_thinks_closes_its_think_tag(
    ollama_server: OllamaServer, make_backend: MakeBackend
):
    ollama_server.reply(Reply(text="", reasoning="Still thinking"))

    completion = await make_backend().complete(USER)

    assert completion.text == "<think>Still thinking</think>"
