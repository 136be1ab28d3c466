"""Keeping a transcript well-formed when a turn is cut short (Esc in the chat, a crash mid-turn).

A model API rejects an assistant message whose tool calls have no results, so an interrupted turn is
closed by answering each unfinished call with an error the model can read.
"""

from __future__ import annotations

from asi_agent.messages import Message
from asi_agent.wire import INTERRUPTED, tool_text

__all__ = ["INTERRUPTED", "closing_messages"]


def closing_messages(messages: list[Message], partial: str) -> list[Message]:
    """What to append after `messages` so the conversation can continue: the partial reply, or the
    missing results of the last assistant message's calls."""
    if partial.strip():
        return [Message("assistant", partial.rstrip() + "\n\n[interrupted]")]
    last = next((i for i in range(len(messages) - 1, -1, -1) if messages[i].role == "assistant"), None)
    if last is None or not messages[last].tool_calls:
        return []
    answered = {m.tool_call_id for m in messages[last + 1 :] if m.role == "tool"}
    return [
        Message(
            "tool",
            tool_text("interrupted", INTERRUPTED),
            tool_call_id=call.id,
            name=call.name,
            outcome="interrupted",
        )
        for call in messages[last].tool_calls
        if call.id not in answered
    ]
