"""Closing an interrupted turn so the transcript stays valid for every model API."""

from __future__ import annotations

from asi_agent.messages import Message, ToolCall
from asi_agent.session.repair import INTERRUPTED, closing_messages

CALLS = (ToolCall("c1", "read_file", {"path": "a.py"}), ToolCall("c2", "grep_search", {"query": "x"}))


def test_partial_reply_is_kept_and_marked():
    closing = closing_messages([Message("user", "go")], "The bug is in ")
    assert closing == [Message("assistant", "The bug is in\n\n[interrupted]")]


def test_unfinished_calls_get_an_interrupted_result():
    messages = [
        Message("user", "go"),
        Message("assistant", "", CALLS),
        Message("tool", "contents", tool_call_id="c1", name="read_file"),
    ]
    closing = closing_messages(messages, "")
    assert closing == [
        Message("tool", f"ERROR: {INTERRUPTED}", tool_call_id="c2", name="grep_search", outcome="interrupted")
    ]


def test_nothing_to_close():
    assert closing_messages([Message("user", "go"), Message("assistant", "done")], "") == []
    assert closing_messages([], "  ") == []
