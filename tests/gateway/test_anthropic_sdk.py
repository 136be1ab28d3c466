"""The checklist's Anthropic rows through the official `anthropic` SDK against `asi-agent serve`, in
front of an upstream that gets no tools (`--emulate always`)."""

from __future__ import annotations

import json
from typing import Any

import anthropic

from gateway.conftest import Gateway

READ = {
    "name": "read_file",
    "description": "Read a text file",
    "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
}
ASK: list[Any] = [{"role": "user", "content": "What does a.py do?"}]
HISTORY: list[Any] = [
    *ASK,
    {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Let me look."},
            {"type": "tool_use", "id": "toolu_01", "name": "read_file", "input": {"path": "a.py"}},
        ],
    },
    {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01", "content": "no such file", "is_error": True}
        ],
    },
]


def client(gateway: Gateway) -> anthropic.Anthropic:
    """The official client pointed at the gateway."""
    return anthropic.Anthropic(base_url=gateway.url, api_key="unused", max_retries=0)


def upstream_text(gateway: Gateway) -> str:
    """Everything the upstream was sent in the last request, as one text."""
    body = gateway.upstream.chat_bodies[-1]
    assert "tools" not in body
    return "\n".join(str(m.get("content")) for m in body["messages"])


def test_single_turn_tool_use(gateway: Gateway) -> None:
    gateway.upstream.reply('I will read it.\n[TOOL_CALL]read_file[ARGS]{"path": "a.py"}')
    reply = client(gateway).messages.create(
        model="m", max_tokens=512, messages=ASK, tools=[READ], system="Be brief."
    )
    assert reply.stop_reason == "tool_use"
    text, use = reply.content
    assert text.type == "text" and text.text == "I will read it."
    assert use.type == "tool_use" and use.name == "read_file" and use.input == {"path": "a.py"}
    assert use.id.startswith("toolu_")
    system = gateway.upstream.chat_bodies[0]["messages"][0]["content"]
    assert system.startswith("Be brief.") and "read_file(path: string)" in system


def test_tool_result_continuation_frames_an_error_result(gateway: Gateway) -> None:
    gateway.upstream.reply('[TOOL_CALL]read_file[ARGS]{"path": "src/a.py"}')
    reply = client(gateway).messages.create(model="m", max_tokens=512, messages=HISTORY, tools=[READ])
    assert reply.stop_reason == "tool_use" and reply.content[-1].input == {"path": "src/a.py"}  # type: ignore[union-attr]
    sent = upstream_text(gateway)
    assert 'Let me look.\n[TOOL_CALL]read_file[ARGS]{"path": "a.py"}' in sent
    assert "[TOOL_RESULT read_file id=toolu_01 error]\nno such file\n[/TOOL_RESULT]" in sent


def test_a_later_turn_without_tools_stays_emulated(gateway: Gateway) -> None:
    gateway.upstream.reply("The file is missing.\nAGENT_STATUS: DONE")
    reply = client(gateway).messages.create(model="m", max_tokens=512, messages=HISTORY)
    assert reply.stop_reason == "end_turn" and reply.content[0].text == "The file is missing."  # type: ignore[union-attr]
    assert "read_file(" in upstream_text(gateway)


def test_tool_choice_any_retries_a_plain_answer(gateway: Gateway) -> None:
    gateway.upstream.reply("It probably prints something.", '[TOOL_CALL]read_file[ARGS]{"path": "a.py"}')
    reply = client(gateway).messages.create(
        model="m", max_tokens=512, messages=ASK, tools=[READ], tool_choice={"type": "any"}
    )
    assert reply.stop_reason == "tool_use" and len(gateway.upstream.chat_bodies) == 2


def test_streaming_tool_use_validates_with_the_sdk_stream_parser(gateway: Gateway) -> None:
    gateway.upstream.reply('Looking.\n[TOOL_CALL]read_file[ARGS]{"path": "a.py"}')
    with client(gateway).messages.stream(model="m", max_tokens=512, messages=ASK, tools=[READ]) as stream:
        kinds = [event.type for event in stream]
        final = stream.get_final_message()
    assert kinds[0] == "message_start" and kinds[-1] == "message_stop"
    assert final.stop_reason == "tool_use"
    assert [block.type for block in final.content] == ["text", "tool_use"]
    assert final.content[0].text == "Looking."  # type: ignore[union-attr]
    assert final.content[1].input == {"path": "a.py"}  # type: ignore[union-attr]


def test_streaming_plain_text(gateway: Gateway) -> None:
    gateway.upstream.reply("Nothing to do here.")
    with client(gateway).messages.stream(model="m", max_tokens=512, messages=ASK, tools=[READ]) as stream:
        text = "".join(stream.text_stream)
        final = stream.get_final_message()
    assert text == "Nothing to do here." and final.stop_reason == "end_turn"


def test_count_tokens(gateway: Gateway) -> None:
    counted = client(gateway).messages.count_tokens(model="m", messages=ASK, tools=[READ])  # type: ignore[arg-type]
    assert counted.input_tokens > len(json.dumps(READ)) // 8
