"""A client's `max_tokens` and `tool_choice` reach the upstream: the limit of every API (OpenAI
`max_tokens` / `max_completion_tokens`, Anthropic `max_tokens`, Responses `max_output_tokens`) always,
the tool choice when tools pass through natively (`--emulate never`). Checked on what the fake upstream
received."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anthropic
import httpx
import openai
import pytest
from servers.anthropic_server import AnthropicServer
from servers.anthropic_server import Call as ClaudeCall
from servers.anthropic_server import Reply as ClaudeReply
from servers.openai_server import Call, Reply

from gateway.conftest import Gateway

READ = {
    "type": "function",
    "function": {
        "name": "read_file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
    },
}
GREP = {
    "type": "function",
    "function": {
        "name": "grep",
        "parameters": {"type": "object", "properties": {"pattern": {"type": "string"}}},
    },
}
ASK = [{"role": "user", "content": "What does a.py do?"}]
CLAUDE_READ = {"name": "read_file", "input_schema": READ["function"]["parameters"]}  # type: ignore[index]
CLAUDE_GREP = {"name": "grep", "input_schema": GREP["function"]["parameters"]}  # type: ignore[index]


def sdk(gateway: Gateway) -> openai.OpenAI:
    """The official OpenAI client pointed at the gateway."""
    return openai.OpenAI(base_url=gateway.v1, api_key="unused", max_retries=0)


@pytest.mark.parametrize(
    ("choice", "sent"),
    [
        ("required", "required"),
        ("none", "none"),
        (
            {"type": "function", "function": {"name": "grep"}},
            {"type": "function", "function": {"name": "grep"}},
        ),
    ],
)
def test_native_passthrough_forwards_tool_choice_and_max_tokens(
    serve: Callable[..., Gateway], choice: Any, sent: Any
) -> None:
    gateway = serve("--emulate", "never")
    gateway.upstream.reply(Reply(calls=[Call("grep", {"pattern": "x"}, id="call_g")]))
    sdk(gateway).chat.completions.create(
        model="m",
        messages=ASK,  # type: ignore[arg-type]
        tools=[READ, GREP],  # type: ignore[list-item]
        tool_choice=choice,
        max_tokens=77,
    )
    body = gateway.upstream.chat_bodies[-1]
    assert body["tool_choice"] == sent
    assert [t["function"]["name"] for t in body["tools"]] == ["read_file", "grep"]
    assert body["max_tokens"] == 77


def test_no_choice_and_no_limit_leave_the_upstream_defaults(serve: Callable[..., Gateway]) -> None:
    gateway = serve("--emulate", "never")
    gateway.upstream.reply("Fine.")
    sdk(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ])  # type: ignore[arg-type,list-item]
    body = gateway.upstream.chat_bodies[-1]
    assert "tool_choice" not in body
    assert body["max_tokens"] == 4096  # the configured default of the upstream client


def test_max_completion_tokens_is_the_limit_too(serve: Callable[..., Gateway]) -> None:
    gateway = serve("--emulate", "never")
    gateway.upstream.reply("Fine.")
    sdk(gateway).chat.completions.create(model="m", messages=ASK, max_completion_tokens=33)  # type: ignore[arg-type]
    assert gateway.upstream.chat_bodies[-1]["max_tokens"] == 33


@pytest.mark.parametrize("stream", [False, True])
def test_emulated_requests_carry_the_limit_and_no_native_choice(gateway: Gateway, stream: bool) -> None:
    gateway.upstream.reply('[TOOL_CALL]grep[ARGS]{"pattern": "x"}')
    answer = sdk(gateway).chat.completions.create(
        model="m",
        messages=ASK,  # type: ignore[arg-type]
        tools=[READ, GREP],  # type: ignore[list-item]
        tool_choice={"type": "function", "function": {"name": "grep"}},
        max_tokens=55,
        stream=stream,
    )
    if stream:
        list(answer)  # type: ignore[call-overload]
    body = gateway.upstream.chat_bodies[-1]
    assert body["max_tokens"] == 55
    assert "tools" not in body and "tool_choice" not in body


def test_anthropic_max_tokens_reaches_the_upstream(gateway: Gateway) -> None:
    gateway.upstream.reply("Short.")
    client = anthropic.Anthropic(base_url=gateway.url, api_key="unused", max_retries=0)
    client.messages.create(model="m", max_tokens=99, messages=ASK)  # type: ignore[arg-type]
    assert gateway.upstream.chat_bodies[-1]["max_tokens"] == 99


def test_responses_max_output_tokens_reaches_the_upstream(gateway: Gateway) -> None:
    gateway.upstream.reply("Short.")
    answer = httpx.post(f"{gateway.v1}/responses", json={"input": "Hi", "max_output_tokens": 66}, timeout=30)
    assert answer.status_code == 200, answer.text
    assert gateway.upstream.chat_bodies[-1]["max_tokens"] == 66


@pytest.mark.parametrize(
    ("choice", "sent"),
    [
        ({"type": "any"}, {"type": "any"}),
        ({"type": "tool", "name": "grep"}, {"type": "tool", "name": "grep"}),
    ],
)
def test_anthropic_upstream_gets_the_clients_tool_choice(
    claude: tuple[str, AnthropicServer], choice: dict[str, str], sent: dict[str, str]
) -> None:
    url, server = claude
    server.reply(ClaudeReply(calls=[ClaudeCall("grep", {"pattern": "x"}, id="toolu_g")]))
    client = anthropic.Anthropic(base_url=url, api_key="unused", max_retries=0)
    reply = client.messages.create(
        model="m",
        max_tokens=123,
        messages=ASK,  # type: ignore[arg-type]
        tools=[CLAUDE_READ, CLAUDE_GREP],  # type: ignore[list-item]
        tool_choice=choice,  # type: ignore[arg-type]
    )
    assert reply.stop_reason == "tool_use"
    body = server.chat_bodies[-1]
    assert body["tool_choice"] == sent
    assert body["max_tokens"] == 123
    assert [t["name"] for t in body["tools"]] == ["read_file", "grep"]
