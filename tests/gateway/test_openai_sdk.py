"""The checklist's test matrix through the official `openai` SDK against `asi-agent serve`, in front of
an upstream that gets no tools (`--emulate always`): every call it makes is written as text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from servers.openai_server import Reply

from gateway.conftest import Gateway
from gateway.conftest import openai_client as client

READ = {
    "type": "function",
    "function": {
        "name": "read_file",
        "description": "Read a text file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
}
GREP = {
    "type": "function",
    "function": {
        "name": "grep",
        "description": "Search files for a pattern",
        "parameters": {
            "type": "object",
            "properties": {"pattern": {"type": "string"}},
            "required": ["pattern"],
        },
    },
}
ASK = [{"role": "user", "content": "What does a.py do?"}]
HISTORY: list[Any] = [
    *ASK,
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "call_abc",
                "type": "function",
                "function": {"name": "read_file", "arguments": '{"path": "a.py"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_abc", "content": "print('hello')"},
]


def upstream_text(gateway: Gateway, request: int = -1) -> str:
    """Everything the upstream was sent in one request, as one text."""
    body = gateway.upstream.chat_bodies[request]
    assert "tools" not in body, "an emulating gateway sends no tool definitions upstream"
    return "\n".join(str(m.get("content")) for m in body["messages"])


def test_single_turn_call_is_reencoded_and_the_contract_is_injected(gateway: Gateway) -> None:
    gateway.upstream.reply('Let me look.\n[TOOL_CALL]read_file[ARGS]{"path": "a.py"}')
    reply = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ])
    choice = reply.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content == "Let me look."
    (call,) = choice.message.tool_calls or []
    assert call.type == "function" and call.function.name == "read_file"
    assert json.loads(call.function.arguments) == {"path": "a.py"}
    system = gateway.upstream.chat_bodies[0]["messages"][0]
    assert system["role"] == "system" and "read_file(path: string): Read a text file" in system["content"]


def test_continuation_projects_the_history_and_frames_the_result(gateway: Gateway) -> None:
    gateway.upstream.reply("It prints hello.\nAGENT_STATUS: DONE")
    reply = client(gateway).chat.completions.create(model="m", messages=HISTORY, tools=[READ])
    assert reply.choices[0].finish_reason == "stop"
    assert reply.choices[0].message.content == "It prints hello."  # the contract's status line is not shown
    assert not reply.choices[0].message.tool_calls
    sent = upstream_text(gateway)
    assert '[TOOL_CALL]read_file[ARGS]{"path": "a.py"}' in sent  # its own call, in its own form
    assert "[TOOL_RESULT read_file id=call_abc]\nprint('hello')\n[/TOOL_RESULT]" in sent
    roles = [m["role"] for m in gateway.upstream.chat_bodies[-1]["messages"]]
    assert "tool" not in roles


def test_a_later_turn_without_tools_stays_emulated(gateway: Gateway) -> None:
    gateway.upstream.reply('[TOOL_CALL]read_file[ARGS]{"path": "b.py"}')
    reply = client(gateway).chat.completions.create(model="m", messages=HISTORY)
    assert reply.choices[0].finish_reason == "tool_calls"
    assert reply.choices[0].message.tool_calls[0].function.arguments == '{"path": "b.py"}'  # type: ignore[index]
    assert "read_file(" in upstream_text(gateway)
    logged = gateway.entries()
    assert logged[-1]["tools_from_history"] is True and logged[-1]["tool_history"] is True


def test_forced_tool_retries_a_refusal_with_a_stricter_message(gateway: Gateway) -> None:
    gateway.upstream.reply(
        "I'm sorry, but I cannot access files on your computer.",
        '[TOOL_CALL]grep[ARGS]{"pattern": "TODO"}',
    )
    tools = [READ, GREP]
    choice = {"type": "function", "function": {"name": "grep"}}
    reply = client(gateway).chat.completions.create(model="m", messages=ASK, tools=tools, tool_choice=choice)  # type: ignore[arg-type]
    assert reply.choices[0].message.tool_calls[0].function.name == "grep"  # type: ignore[index]
    assert len(gateway.upstream.chat_bodies) == 2
    first, retry = upstream_text(gateway, 0), upstream_text(gateway, 1)
    assert "grep(pattern: string)" in first and "read_file(" not in first  # only the named tool
    assert "Your last reply could not be used. You do have working tools" in retry
    logged = gateway.entries()
    assert logged[-1]["refusal"] and logged[-1]["retries"][0].startswith("refusal")


def test_required_asks_again_for_a_plain_answer_and_bounds_the_retries(gateway: Gateway) -> None:
    gateway.upstream.reply("a.py prints hello.", "Still no call.", "No.", "never used")
    reply = client(gateway).chat.completions.create(
        model="m", messages=ASK, tools=[READ], tool_choice="required"
    )
    assert len(gateway.upstream.chat_bodies) == 3  # the first answer and two retries, no more
    assert reply.choices[0].finish_reason == "stop" and reply.choices[0].message.content == "No."


def test_auto_keeps_a_legitimate_plain_answer(gateway: Gateway) -> None:
    gateway.upstream.reply("Two plus two is four.")
    reply = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ])
    assert reply.choices[0].message.content == "Two plus two is four."
    assert reply.choices[0].finish_reason == "stop" and len(gateway.upstream.chat_bodies) == 1


def test_auto_retries_a_tools_are_unavailable_answer(gateway: Gateway) -> None:
    gateway.upstream.reply(
        "I don't have access to your files, please paste a.py here.",
        '[TOOL_CALL]read_file[ARGS]{"path": "a.py"}',
    )
    reply = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ])
    assert reply.choices[0].finish_reason == "tool_calls" and len(gateway.upstream.chat_bodies) == 2


def test_tool_choice_none_sends_no_contract_and_reads_no_call(gateway: Gateway) -> None:
    gateway.upstream.reply('[TOOL_CALL]read_file[ARGS]{"path": "a.py"}')
    reply = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ], tool_choice="none")
    assert reply.choices[0].finish_reason == "stop" and not reply.choices[0].message.tool_calls
    assert "read_file(" not in upstream_text(gateway)


def test_several_calls_in_one_reply_in_another_dialect(gateway: Gateway) -> None:
    gateway.upstream.reply(
        'Both:\n<tool_call>{"name": "read_file", "arguments": {"path": "a.py"}}</tool_call>\n'
        '<tool_call>{"name": "grep", "arguments": "{\\"pattern\\": \\"x\\"}"}</tool_call>'
    )
    reply = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ, GREP])
    calls = reply.choices[0].message.tool_calls or []
    assert [(c.function.name, json.loads(c.function.arguments)) for c in calls] == [
        ("read_file", {"path": "a.py"}),
        ("grep", {"pattern": "x"}),
    ]
    assert len({c.id for c in calls}) == 2
    assert reply.choices[0].message.content == "Both:"


def test_invalid_json_is_asked_again(gateway: Gateway) -> None:
    gateway.upstream.reply(
        '[TOOL_CALL]read_file[ARGS]{"path": ', '[TOOL_CALL]read_file[ARGS]{"path": "a.py"}'
    )
    reply = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ])
    assert reply.choices[0].finish_reason == "tool_calls" and len(gateway.upstream.chat_bodies) == 2


def test_error_and_empty_results_are_framed(gateway: Gateway) -> None:
    gateway.upstream.reply("Done.")
    messages = [*HISTORY[:-1], {"role": "tool", "tool_call_id": "call_abc", "content": ""}]
    client(gateway).chat.completions.create(model="m", messages=messages, tools=[READ])
    assert "[TOOL_RESULT read_file id=call_abc]\n(no output)\n[/TOOL_RESULT]" in upstream_text(gateway)


def test_stream_passes_text_then_emits_the_closed_call(gateway: Gateway) -> None:
    gateway.upstream.reply('Reading it now.\n[TOOL_CALL]read_file[ARGS]{"path": "a.py"}')
    stream = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ], stream=True)
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text.strip() == "Reading it now."
    calls = [t for c in chunks if c.choices for t in c.choices[0].delta.tool_calls or ()]
    assert len(calls) == 1 and calls[0].function and calls[0].function.name == "read_file"
    assert json.loads(calls[0].function.arguments or "") == {"path": "a.py"}
    assert chunks[-1].choices[0].finish_reason == "tool_calls"


def test_stream_accumulates_with_the_sdk_helper(gateway: Gateway) -> None:
    gateway.upstream.reply('[TOOL_CALL]read_file[ARGS]{"path": "a.py"}')
    with client(gateway).chat.completions.stream(model="m", messages=ASK, tools=[READ]) as stream:  # type: ignore[arg-type]
        final = stream.get_final_completion()
    assert final.choices[0].message.tool_calls[0].function.name == "read_file"  # type: ignore[index]


@pytest.mark.parametrize("stream", [False, True])
def test_a_reply_cut_off_inside_a_call_gives_no_call(gateway: Gateway, stream: bool) -> None:
    gateway.upstream.reply(Reply(text='[TOOL_CALL]read_file[ARGS]{"path": "a.p', finish_reason="length"))
    if stream:
        chunks = list(
            client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ], stream=True)
        )
        assert not [t for c in chunks if c.choices for t in c.choices[0].delta.tool_calls or ()]
        assert chunks[-1].choices[0].finish_reason == "length"
    else:
        reply = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ])
        assert reply.choices[0].finish_reason == "length" and not reply.choices[0].message.tool_calls


@pytest.mark.parametrize(
    "reply",
    [
        'Reading it now.\n**Tool Call:**\n<tool_call>{"name": "read_file", "arguments": {"path": "a.py"}}'
        "</tool_call>",
        'Reading it now. to=read_file<|message|><q:function_calls><q:invoke name="read_file">'
        '<q:parameter name="path">a.py</q:parameter></q:invoke></q:function_calls><|eom|>',
    ],
)
def test_a_label_or_recipient_header_before_a_call_is_not_streamed(gateway: Gateway, reply: str) -> None:
    gateway.upstream.reply(reply)
    stream = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ], stream=True)
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text.strip() == "Reading it now.", text
    calls = [t for c in chunks if c.choices for t in c.choices[0].delta.tool_calls or ()]
    assert [call.function.name for call in calls if call.function] == ["read_file"]


def test_prose_that_looks_like_an_opener_is_still_delivered_whole(gateway: Gateway) -> None:
    prose = "Tools are fine to use.\nFunction calls: none needed here, I want to answer directly."
    gateway.upstream.reply(prose)
    stream = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ], stream=True)
    text = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
    assert text.strip() == prose
