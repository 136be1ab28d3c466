"""Images through `asi-agent serve`: a client's OpenAI `image_url` parts, Anthropic `image` blocks (also in a
`tool_result`) and Responses `input_image` parts reach the upstream as image content in the upstream's own
form (OpenAI `image_url` parts, Anthropic image blocks, Ollama `images`), streamed or not, emulated or
native; image URLs pass only to upstreams whose API takes them (the gateway fetches nothing); a model that
reads no images, an image over 5 MiB or of a type the APIs do not take get a clear error in the client's
API. Checked on what the fake upstream received, with the official SDKs."""

from __future__ import annotations

import base64
import struct
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
from servers.anthropic_server import AnthropicServer
from servers.anthropic_server import Reply as ClaudeReply
from servers.ollama_server import OllamaServer
from servers.openai_server import OpenAIServer

from gateway.conftest import (
    Gateway,
    claude_client,
    final_message,
    final_response,
    openai_client,
    start_gateway,
    stop,
)
from gateway.test_anthropic_sdk import READ as CLAUDE_READ
from gateway.test_openai_sdk import READ


def png(width: int, height: int) -> bytes:
    """A PNG header (enough for the type and the size)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + header
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))


SHOT = base64.b64encode(png(40, 20)).decode()
SHOT_URL = f"data:image/png;base64,{SHOT}"
REMOTE = "https://images.example.test/cat.jpg"


def sent_images(body: dict[str, Any]) -> list[str]:
    """The URLs of every `image_url` part of a Chat Completions request, in order."""
    return [
        part["image_url"]["url"]
        for message in body["messages"]
        if isinstance(message.get("content"), list)
        for part in message["content"]
        if part.get("type") == "image_url"
    ]


LOOK = [
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "What is on these pictures?"},
            {"type": "image_url", "image_url": {"url": SHOT_URL}},
            {"type": "image_url", "image_url": {"url": REMOTE, "detail": "low"}},
        ],
    }
]


@pytest.mark.parametrize("stream", [False, True])
def test_openai_image_parts_reach_an_emulated_upstream(gateway: Gateway, stream: bool) -> None:
    gateway.upstream.reply("A red square and a cat.")
    sdk = openai_client(gateway)
    if stream:
        chunks = sdk.chat.completions.create(model="m", messages=LOOK, tools=[READ], stream=True)  # type: ignore[arg-type,list-item,call-overload]
        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    else:
        reply = sdk.chat.completions.create(model="m", messages=LOOK, tools=[READ])  # type: ignore[arg-type,list-item]
        text = reply.choices[0].message.content or ""
    assert text == "A red square and a cat."
    body = gateway.upstream.chat_bodies[-1]
    assert "tools" not in body  # emulated: the contract is text, the images are still image parts
    assert sent_images(body) == [SHOT_URL, REMOTE]
    assert any("What is on these pictures?" in str(m["content"]) for m in body["messages"])


@pytest.mark.parametrize("stream", [False, True])
def test_openai_image_parts_pass_through_natively(serve: Callable[..., Gateway], stream: bool) -> None:
    gateway = serve("--emulate", "never")
    gateway.upstream.reply("A red square and a cat.")
    created = openai_client(gateway).chat.completions.create(
        model="m",
        messages=LOOK,  # type: ignore[arg-type]
        tools=[READ],  # type: ignore[list-item]
        stream=stream,
    )
    chunks = list(created) if stream else [created]  # a stream drained: the upstream has answered
    assert chunks
    body = gateway.upstream.chat_bodies[-1]
    assert [t["function"]["name"] for t in body["tools"]] == ["read_file"]
    assert sent_images(body) == [SHOT_URL, REMOTE]


def test_a_tool_results_image_follows_the_framed_result(gateway: Gateway) -> None:
    gateway.upstream.reply("It is a small picture.")
    call = {"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}
    history: list[Any] = [
        {"role": "user", "content": "Look at shot.png"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": [
            {"type": "text", "text": "shot.png is an image"},
            {"type": "image_url", "image_url": {"url": SHOT_URL}},
        ]},
    ]  # fmt: skip
    openai_client(gateway).chat.completions.create(model="m", messages=history, tools=[READ])  # type: ignore[arg-type,list-item]
    messages = gateway.upstream.chat_bodies[-1]["messages"]
    framed = next(
        i for i, m in enumerate(messages) if "[TOOL_RESULT read_file id=call_1]" in str(m["content"])
    )
    assert sent_images({"messages": messages[framed:]}) == [SHOT_URL]


@pytest.mark.parametrize("stream", [False, True])
def test_a_model_that_reads_no_images_is_named_in_a_clear_error(
    serve: Callable[..., Gateway], openai_server: OpenAIServer, stream: bool
) -> None:
    # llama.cpp without a vision projector; set before the gateway starts, which asks `/props` once
    openai_server.props = {"modalities": {"vision": False}}
    gateway = serve("--emulate", "always")
    with pytest.raises(openai.BadRequestError) as caught:
        openai_client(gateway).chat.completions.create(model="m", messages=LOOK, stream=stream)  # type: ignore[arg-type,call-overload]
    assert caught.value.status_code == 400
    assert "model 'test-model' does not read images" in str(caught.value)
    assert openai_server.chat_bodies == []  # nothing was sent upstream


REFUSED = {
    "too-big": (
        lambda: "data:image/png;base64," + base64.b64encode(b"x" * (5 * 1024 * 1024 + 1)).decode(),
        "over the limit",
    ),
    "bmp": (lambda: f"data:image/bmp;base64,{SHOT}", "image type 'image/bmp' is not taken"),
    "not-base64": (lambda: "data:image/png;base64,@@not-base64@@", "not valid base64"),
    "file-url": (lambda: "file:///etc/hostname", "must be a data: URL or an http(s) address"),
    "not-a-base64-url": (lambda: "data:image/png,rawbytes", "must be data:<type>;base64,<data>"),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_images_the_agent_would_not_send_are_refused(gateway: Gateway, case: str) -> None:
    make, said = REFUSED[case]
    url = make()  # built here: a 5 MiB parameter would land in the environment of every subprocess
    ask = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]}]
    with pytest.raises(openai.BadRequestError) as caught:
        openai_client(gateway).chat.completions.create(model="m", messages=ask)  # type: ignore[arg-type]
    assert said in str(caught.value) and "messages[0].content[0]" in str(caught.value)
    assert gateway.upstream.chat_bodies == []


CLAUDE_LOOK: list[Any] = [
    {"role": "user", "content": "Read shot.png"},
    {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "shot.png"}}
    ]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "text", "text": "shot.png is an image"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": SHOT}},
        ]},
        {"type": "image", "source": {"type": "url", "url": REMOTE}},
        {"type": "text", "text": "And this one?"},
    ]},
]  # fmt: skip


@pytest.mark.parametrize("stream", [False, True])
def test_anthropic_image_blocks_reach_an_openai_upstream(gateway: Gateway, stream: bool) -> None:
    gateway.upstream.reply("A square; a cat.")
    ask = {"model": "m", "max_tokens": 64, "messages": CLAUDE_LOOK, "tools": [CLAUDE_READ]}
    final = final_message(claude_client(gateway.url), stream=stream, **ask)
    assert final.content[0].text == "A square; a cat."  # type: ignore[union-attr]
    assert sorted(sent_images(gateway.upstream.chat_bodies[-1])) == sorted([SHOT_URL, REMOTE])


@pytest.mark.parametrize("stream", [False, True])
def test_anthropic_upstream_gets_image_blocks_and_urls(
    claude: tuple[str, AnthropicServer], stream: bool
) -> None:
    url, server = claude
    server.reply(ClaudeReply(text="A square; a cat."))
    final = final_message(claude_client(url), stream=stream, model="m", max_tokens=64, messages=CLAUDE_LOOK)
    assert final.content[0].text == "A square; a cat."  # type: ignore[union-attr]
    last = server.chat_bodies[-1]["messages"][-1]
    result, *rest = last["content"]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_1"
    assert result["content"][1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": SHOT},
    }
    assert {"type": "image", "source": {"type": "url", "url": REMOTE}} in rest


@pytest.fixture
def ollama(tmp_path: Path) -> Iterator[tuple[str, OllamaServer]]:
    """A gateway in front of a local Ollama server whose model reads images."""
    with OllamaServer(models=["test-model"]) as server:
        server.capabilities = ["completion", "tools", "vision"]
        url, process, _log = start_gateway(
            tmp_path, "unused", "--provider", "ollama", "--base-url", server.host
        )
        try:
            yield url, server
        finally:
            stop(process)


def test_ollama_upstream_gets_inline_images_and_urls_are_refused(ollama: tuple[str, OllamaServer]) -> None:
    url, server = ollama
    server.reply("A square.")
    sdk = openai.OpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)
    inline = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What?"},
                {"type": "image_url", "image_url": {"url": SHOT_URL}},
            ],
        }
    ]
    assert sdk.chat.completions.create(model="m", messages=inline).choices[0].message.content == "A square."  # type: ignore[arg-type]
    (asked,) = server.chat_bodies[-1]["messages"]
    assert asked["content"] == "What?" and asked["images"] == [SHOT]
    with pytest.raises(openai.BadRequestError) as caught:
        sdk.chat.completions.create(model="m", messages=LOOK)  # type: ignore[arg-type]
    assert "takes only inline images" in str(caught.value) and "does not fetch image URLs" in str(
        caught.value
    )
    assert len(server.chat_bodies) == 1


@pytest.mark.parametrize("stream", [False, True])
def test_responses_input_images_reach_the_upstream(gateway: Gateway, stream: bool) -> None:
    gateway.upstream.reply("Both are small.")
    items: list[Any] = [
        {"role": "user", "content": [
            {"type": "input_text", "text": "Compare the pictures."},
            {"type": "input_image", "image_url": SHOT_URL, "detail": "auto"},
        ]},
        {"type": "function_call", "call_id": "call_9", "name": "read_file", "arguments": '{"path": "b.png"}'},
        {"type": "function_call_output", "call_id": "call_9", "output": [
            {"type": "input_text", "text": "b.png is an image"}, {"type": "input_image", "image_url": REMOTE},
        ]},
    ]  # fmt: skip
    tool = {"type": "function", **READ["function"]}  # type: ignore[dict-item]
    final = final_response(openai_client(gateway), stream=stream, model="m", input=items, tools=[tool])
    assert final.output_text == "Both are small."
    body = gateway.upstream.chat_bodies[-1]
    assert sent_images(body) == [SHOT_URL, REMOTE]
    assert any("b.png is an image" in str(m["content"]) for m in body["messages"])


def test_count_tokens_counts_an_image_by_anthropics_rule(gateway: Gateway) -> None:
    square = base64.b64encode(png(1024, 1024)).decode()
    block = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": square}}
    ask = [{"role": "user", "content": [{"type": "text", "text": "What is this?"}]}]
    shown = [{"role": "user", "content": [*ask[0]["content"], block]}]
    client = claude_client(gateway.url)
    plain = client.messages.count_tokens(model="m", messages=ask).input_tokens  # type: ignore[arg-type]
    with_image = client.messages.count_tokens(model="m", messages=shown).input_tokens  # type: ignore[arg-type]
    assert with_image - plain == 1399  # 1024 × 1024 / 750
