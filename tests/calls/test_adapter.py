"""The call adapter on its own, without the agent: any chat backend takes native tool schemas and returns
native calls (contract, call shapes, text retry, history projection), as a gateway would serve it."""

from __future__ import annotations

from typing import Any

import pytest
from servers.openai_server import OpenAIServer, Reply

from asi_agent.backends.openai import OpenAIBackend, OpenAIBackendConfig
from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.calls.adapter import CallAdapter
from asi_agent.messages import Message, ToolCall

READ = {
    "type": "function",
    "function": {
        "name": "read_file",
        "description": "Read a file.",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
}
ASK = [Message("system", "You are a coding assistant."), Message("user", "Show me a.py")]


async def test_a_text_model_gets_the_contract_and_its_call_comes_back_native() -> None:
    model = ScriptedBackend(['I will read it.\n[TOOL_CALL]read_file[ARGS]{"path": "a.py"}'], native=False)
    adapter = CallAdapter(model)
    reply = await adapter.complete(ASK, [READ])
    (call,) = reply.native_calls
    assert (call.name, call.arguments) == ("read_file", {"path": "a.py"})
    assert reply.text == "I will read it." and reply.retry is None
    sent, tools = model.requests[0]
    assert tools is None  # the model saw no tool schemas: the contract describes them
    assert sent[0].content.startswith("You are a coding assistant.\n\n")
    assert "read_file" in sent[0].content and "[TOOL_CALL]" in sent[0].content


async def test_a_refusal_is_asked_again_and_the_retry_speaks_the_dialect() -> None:
    model = ScriptedBackend(
        ["As an AI, I cannot access your files.", '[TOOL_CALL]read_file[ARGS]{"path": "a.py"}'], native=False
    )
    reply = await CallAdapter(model).complete(ASK, [READ])
    assert [c.name for c in reply.native_calls] == ["read_file"]
    retried, _ = model.requests[1]
    assert retried[-2] == Message("assistant", "As an AI, I cannot access your files.")
    assert retried[-1].content.startswith("Your last reply could not be used. You do have working tools")
    assert "[TOOL_CALL]read_file[ARGS]" in retried[-1].content


async def test_past_its_retries_the_reply_says_why_it_cannot_be_used() -> None:
    model = ScriptedBackend(["As an AI, I cannot access your files."], native=False)
    reply = await CallAdapter(model, max_retries=0).complete(ASK, [READ])
    assert reply.retry is not None and reply.retry.startswith("refusal")
    assert reply.retry_prompt.startswith("Your last reply could not be used.") and not reply.native_calls


async def test_earlier_calls_and_results_are_projected_into_the_models_form() -> None:
    model = ScriptedBackend(["a.py holds one line.\nAGENT_STATUS: DONE"], native=False)
    history = [
        *ASK,
        Message("assistant", "", (ToolCall("call_1", "read_file", {"path": "a.py"}),)),
        Message("tool", "ERROR: no such file", tool_call_id="call_1", name="read_file", outcome="error"),
    ]
    reply = await CallAdapter(model).complete(history, [READ])
    assert reply.native_calls == () and reply.text.endswith("AGENT_STATUS: DONE")
    sent, _ = model.requests[0]
    assert [m.role for m in sent] == ["system", "user", "assistant", "user"]
    assert sent[2].content == '[TOOL_CALL]read_file[ARGS]{"path": "a.py"}'
    assert sent[3].content.startswith("[TOOL_RESULT read_file id=call_1 error]\nERROR: no such file")


async def test_a_native_model_is_passed_the_schemas_and_a_text_call_in_its_content_is_read() -> None:
    native = ScriptedReply(text="", calls=[ScriptedCall(name="read_file", arguments={"path": "a.py"})])
    written = '<tool_call>{"name": "read_file", "arguments": {"path": "b.py"}}</tool_call>'
    model = ScriptedBackend([native, written])
    adapter = CallAdapter(model)
    first = await adapter.complete(ASK, [READ])
    second = await adapter.complete(ASK, [READ])
    assert [c.arguments for c in first.native_calls] == [{"path": "a.py"}]
    assert [c.arguments for c in second.native_calls] == [{"path": "b.py"}]
    assert model.requests[0][1] == [READ]


@pytest.fixture
async def openai_model(openai_server: OpenAIServer) -> Any:
    backend = OpenAIBackend(OpenAIBackendConfig(model="test-model", base_url=openai_server.base_url))
    yield backend
    await backend.aclose()


async def test_over_http_a_text_mode_model_is_driven_through_the_adapter(
    openai_server: OpenAIServer, openai_model: OpenAIBackend
) -> None:
    openai_server.reply(
        Reply(text="I cannot access your files as an AI."),
        Reply(text='[TOOL_CALL]read_file[ARGS]{"path": "a.py"}'),
    )
    adapter = CallAdapter(openai_model, tool_mode="text")
    reply = await adapter.complete(ASK, [READ])
    assert [(c.name, c.arguments) for c in reply.native_calls] == [("read_file", {"path": "a.py"})]
    first, second = openai_server.chat_bodies
    assert "tools" not in first and "tools" not in second
    assert "[TOOL_CALL]" in first["messages"][0]["content"]
    assert second["messages"][-1]["content"].startswith("Your last reply could not be used.")
