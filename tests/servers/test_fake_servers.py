"""The local test servers themselves, driven by the real `openai` and `ollama` clients."""

from __future__ import annotations

import json
from typing import Any

import ollama
import openai
from servers.ollama_server import Call, OllamaServer, Reply
from servers.openai_server import OpenAIServer


async def test_openai_server_answers_without_streaming(openai_server: OpenAIServer):
    def echo(body: dict[str, Any]) -> Reply:
        return Reply(text=f"{len(body['messages'])} messages", calls=[Call("grep", {"q": "x"}, id="c9")])

    openai_server.reply(echo)
    async with openai.AsyncOpenAI(api_key="k", base_url=openai_server.base_url, max_retries=0) as client:
        reply = await client.chat.completions.create(
            model="test-model", messages=[{"role": "user", "content": "hi"}]
        )
        models = await client.models.list()

    message = reply.choices[0].message
    assert message.content == "1 messages"
    assert message.tool_calls is not None
    call = message.tool_calls[0]
    assert call.type == "function" and call.id == "c9"
    assert (call.function.name, json.loads(call.function.arguments)) == ("grep", {"q": "x"})
    # The prompt is counted from the request: ~4 characters of its messages and tools per token.
    counted = len(json.dumps([[{"role": "user", "content": "hi"}], []])) // 4
    assert reply.usage is not None and reply.usage.prompt_tokens == counted
    assert [m.id for m in models.data] == ["test-model"]
    assert [r.path for r in openai_server.requests] == ["/v1/chat/completions", "/v1/models"]
    assert openai_server.replies_used == 1


async def test_ollama_server_answers_chat_show_and_tags(ollama_server: OllamaServer):
    ollama_server.reply(Reply(text="hello", calls=[Call("read_file", {"path": "a.py"})]))
    client = ollama.AsyncClient(host=ollama_server.host)

    reply = await client.chat(model="test-model", messages=[{"role": "user", "content": "hi"}], stream=False)
    show = await client.show("test-model")
    tags = await client.list()
    await client.close()  # type: ignore[no-untyped-call]

    assert reply.message.content == "hello" and reply.done
    assert reply.message.tool_calls is not None
    assert reply.message.tool_calls[0].function.arguments == {"path": "a.py"}
    counted = len(json.dumps([[{"role": "user", "content": "hi"}], []])) // 4
    assert reply.prompt_eval_count == counted and reply.eval_count == 7
    assert show.capabilities == ["completion", "tools"]
    assert [m.model for m in tags.models] == ["test-model"]
