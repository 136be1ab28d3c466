"""A loaded session's conversation, sent to the editor as the updates it would have seen live."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from acp.helpers import (
    start_tool_call,
    text_block,
    tool_content,
    update_agent_message_text,
    update_tool_call,
    update_user_message_text,
)

from asi_agent.acp.link import Link
from asi_agent.acp.tooling import call_kind, call_locations, call_title
from asi_agent.calls import strip_status
from asi_agent.messages import Message

__all__ = ["replay"]

SHOWN_OUTPUT = 2000
"""A replayed call shows at most this much of its output (the transcript keeps all of it)."""


async def replay(link: Link, messages: Sequence[Message], root: Path, risks: Mapping[str, str]) -> None:
    """The user's messages, the replies and each call with its result, in order; `risks` maps a tool to
    its risk class (for the calls' kinds)."""
    for message in messages:
        if message.role == "user" and message.content:
            await link.send(update_user_message_text(message.content))
        elif message.role == "assistant":
            text = strip_status(message.content)
            if text:
                await link.send(update_agent_message_text(text + "\n\n"))
            for call in message.tool_calls:
                await link.send(
                    start_tool_call(
                        call.id,
                        call_title(call),
                        kind=call_kind(call.name, risks.get(call.name, "")),
                        status="pending",
                        locations=call_locations(call, root),
                        raw_input=call.arguments,
                    )
                )
        elif message.role == "tool" and message.tool_call_id:
            output = message.content
            shown = output if len(output) <= SHOWN_OUTPUT else output[:SHOWN_OUTPUT] + " …"
            await link.send(
                update_tool_call(
                    message.tool_call_id,
                    status="completed" if message.ok else "failed",
                    content=[tool_content(text_block(shown))],
                )
            )
