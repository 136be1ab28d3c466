"""The request body built from messages encoded once each is the body `json.dumps` would give."""

from __future__ import annotations

import dataclasses
import json

from asi_agent.backends.openai_wire import WireMessages, json_body, to_openai_messages
from asi_agent.messages import Image, Message, ToolCall

HISTORY = [
    Message("system", "You are asi-agent."),
    Message("user", 'Rename "größe" to size — and 日本語 too'),
    Message("assistant", "", tool_calls=(ToolCall("c1", "read_file", {"path": "a.py", "limit": 5}),)),
    Message("tool", "1: größe = 1\n", tool_call_id="c1"),
]
TOOLS = [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]


def reference(messages: list[Message]) -> bytes:
    params = {"model": "m", "messages": to_openai_messages(messages), "stream": True, "tools": TOOLS}
    return json.dumps(params, ensure_ascii=False).encode("utf-8")


def test_the_body_is_byte_for_byte_what_json_dumps_gives_turn_after_turn():
    wire = WireMessages()
    for turn in range(1, len(HISTORY) + 1):
        messages = HISTORY[:turn]
        params = {"model": "m", "messages": wire(messages), "stream": True, "tools": TOOLS}
        encoded = {"messages": wire.json_array(messages), "tools": json.dumps(TOOLS, ensure_ascii=False)}

        assert json_body(params, encoded) == reference(messages)


def test_a_compacted_history_is_encoded_from_its_own_messages():
    wire = WireMessages()
    wire.json_array(HISTORY)
    compacted = [HISTORY[0], Message("user", "Summary: a.py read."), HISTORY[3]]

    assert json.loads(wire.json_array(compacted)) == to_openai_messages(compacted)


def test_every_change_to_the_history_is_encoded_from_the_messages_as_they_are_now():
    """Grown, rebuilt from equal copies, cut short, changed in the middle, emptied: always `json.dumps`."""
    changed = Message("user", "Rename it to width instead")
    copies = [dataclasses.replace(message) for message in HISTORY]
    wire = WireMessages()
    edited = [HISTORY[0], changed, *HISTORY[2:]]
    for messages in (HISTORY[:2], HISTORY, copies, HISTORY[:3], edited, [], HISTORY, copies[:1]):
        assert wire.json_array(messages) == json.dumps(to_openai_messages(messages), ensure_ascii=False)
        assert wire(messages) == to_openai_messages(messages)


def test_images_follow_the_results_of_their_reply_in_the_cached_encoding_too():
    shot = Image("image/png", "iVBORw0K", "shot.png")
    calls = (ToolCall("c1", "read_file", {"path": "shot.png"}), ToolCall("c2", "read_file", {"path": "a.py"}))
    history = [
        Message("user", "Look at these", images=(shot,)),
        Message("assistant", "", tool_calls=calls),
        Message("tool", "shot.png is an image", tool_call_id="c1", name="read_file", images=(shot,)),
        Message("tool", "1: x = 1", tool_call_id="c2", name="read_file"),
        Message("assistant", "Done."),
    ]
    wire = WireMessages()
    for turn in range(1, len(history) + 1):
        messages = history[:turn]
        assert wire.json_array(messages) == json.dumps(to_openai_messages(messages), ensure_ascii=False)
        assert wire(messages) == to_openai_messages(messages)
    roles = [item["role"] for item in to_openai_messages(history)]
    assert roles == ["user", "assistant", "tool", "tool", "user", "assistant"], "no two user turns in a row"
    assert to_openai_messages(history)[0]["content"] == [
        {"type": "text", "text": "Look at these"},
        {"type": "text", "text": "[the image shot.png]"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0K"}},
    ]
    image = to_openai_messages(history)[4]["content"]
    assert image == [
        {"type": "text", "text": "[the image shot.png (read by read_file)]"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0K"}},
    ]


def test_every_kind_of_field_is_encoded_as_json_dumps_encodes_it():
    params = {
        "model": 'mödel "7b"\\\u2028\x00',
        "stream": False,
        "store": True,
        "temperature": 0.25,
        "max_tokens": 4096,
        "seed": None,
        "stop": ["\n\n", "</s>"],
        "stream_options": {"include_usage": True},
        "messages": [],
    }
    encoded = {"messages": "[]"}

    assert json_body(params, encoded) == json.dumps(params, ensure_ascii=False).encode("utf-8")
    # Floats written without the encoder, and those only it spells (`NaN`, `Infinity`).
    for number in (0.2, 1.0, -0.0, 1e16, 1e-7, 5e-324, float("nan"), float("inf"), float("-inf")):
        fields = {"temperature": number, "messages": []}
        assert json_body(fields, encoded) == json.dumps(fields, ensure_ascii=False).encode("utf-8")
