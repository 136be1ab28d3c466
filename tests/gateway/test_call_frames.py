"""Through `asi-agent serve` and the official `openai` SDK: a `<function_calls>` block of Python calls
becomes `tool_calls`, streamed or not; control tokens around a call never reach the client; a wrapped
call without its arguments object is asked again, never passed on."""

from __future__ import annotations

import json

import pytest

from gateway.conftest import Gateway
from gateway.test_openai_sdk import ASK, READ, client

BLOCK = (
    "Reading both.\n<function_calls>read_file(path='a.py')\n"
    "read_file(path='b.py', verbose=true)</function_calls>"
)


@pytest.mark.parametrize("stream", [False, True])
def test_a_block_of_python_calls_reaches_the_client_as_tool_calls(gateway: Gateway, stream: bool) -> None:
    gateway.upstream.reply(BLOCK)
    if stream:
        chunks = list(
            client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ], stream=True)
        )
        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        deltas = [t for c in chunks if c.choices for t in c.choices[0].delta.tool_calls or ()]
        calls = [(t.function.name, json.loads(t.function.arguments or "")) for t in deltas if t.function]
        finish = chunks[-1].choices[0].finish_reason
    else:
        choice = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ]).choices[0]
        text = choice.message.content or ""
        calls = [(t.function.name, json.loads(t.function.arguments)) for t in choice.message.tool_calls or ()]  # type: ignore[union-attr]
        finish = choice.finish_reason
    assert text.strip() == "Reading both."
    assert calls == [("read_file", {"path": "a.py"}), ("read_file", {"path": "b.py", "verbose": True})]
    assert finish == "tool_calls"


def test_control_tokens_around_a_call_stay_out_of_the_text(gateway: Gateway) -> None:
    gateway.upstream.reply('Checking.<|call_header|>{"name": "read_file", "arguments": {"path": "a.py"}}</s>')
    choice = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ]).choices[0]
    assert choice.message.content == "Checking."
    assert [t.function.name for t in choice.message.tool_calls or ()] == ["read_file"]  # type: ignore[union-attr]


def test_a_wrapped_call_without_arguments_is_asked_again(gateway: Gateway) -> None:
    gateway.upstream.reply('<tool_calls>[{"name": "read_file"}]</tool_calls>', "I need a path to read.")
    choice = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ]).choices[0]
    assert not choice.message.tool_calls
    assert choice.message.content == "I need a path to read."
    entry = gateway.entries()[-1]
    assert entry["retries"] and "arguments" in entry["retries"][0]


GOOD = '<tool_call>{"name": "read_file", "arguments": {"path": "a.py"}}</tool_call>'
BROKEN = '<tool_call>{"name": "read_file", "arguments": {"path": b.py}}</tool_call>'
BOTH = GOOD + '\n<tool_call>{"name": "read_file", "arguments": {"path": "b.py"}}</tool_call>'


@pytest.mark.parametrize("stream", [False, True])
def test_a_good_call_beside_a_broken_one_is_asked_again_not_passed_on_alone(
    gateway: Gateway, stream: bool
) -> None:
    """The client runs only the calls it gets: the broken one's problem goes back to the model at once."""
    gateway.upstream.reply(f"{GOOD}\n{BROKEN}", BOTH)
    if stream:
        chunks = list(
            client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ], stream=True)
        )
        deltas = [t for c in chunks if c.choices for t in c.choices[0].delta.tool_calls or ()]
        calls = [(t.function.name, json.loads(t.function.arguments or "")) for t in deltas if t.function]
    else:
        choice = client(gateway).chat.completions.create(model="m", messages=ASK, tools=[READ]).choices[0]
        calls = [(t.function.name, json.loads(t.function.arguments)) for t in choice.message.tool_calls or ()]  # type: ignore[union-attr]
    assert calls == [("read_file", {"path": "a.py"}), ("read_file", {"path": "b.py"})]
    asked = gateway.upstream.chat_bodies[-1]["messages"]
    assert "b.py" in asked[-1]["content"] and "not quoted" in asked[-1]["content"], asked[-1]
    entry = gateway.entries()[-1]
    assert entry["retries"] and entry["retries"][0].startswith("unparsable call")
