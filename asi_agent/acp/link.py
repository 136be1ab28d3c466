"""The way to the editor for one session: session updates and the tool calls' permissions."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from acp import Client, RequestError
from acp.helpers import update_agent_message_text
from acp.schema import (
    AllowedOutcome,
    ContentToolCallContent,
    FileEditToolCallContent,
    PermissionOption,
    ToolCallUpdate,
)

from asi_agent.events import Answer

__all__ = ["Content", "Link", "diff_content", "permission_options", "refused"]

Content = ContentToolCallContent | FileEditToolCallContent
"""What a tool call shows in the editor: text, or the diff of a file."""

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Link:
    """One session's connection to the editor."""

    client: Client
    session_id: str

    async def send(self, update: Any) -> None:
        """One `session/update` notification; a closed connection loses it (the run goes on, recorded)."""
        try:
            await self.client.session_update(session_id=self.session_id, update=update)
        except ConnectionError:
            log.warning("the editor closed the connection; the session goes on in its transcript")

    async def say(self, text: str) -> None:
        """Text from asi-agent itself (a command's output, why a run stopped) as agent message text."""
        if text:
            await self.send(update_agent_message_text(text))

    async def ask(self, tool_call: ToolCallUpdate, *, always: bool) -> Answer:
        """`session/request_permission`: allow once / allow always (if `always`) / reject.

        No answer (a cancelled prompt, an error, a closed connection) is a refusal."""
        try:
            response = await self.client.request_permission(
                session_id=self.session_id, tool_call=tool_call, options=permission_options(always=always)
            )
        except (RequestError, ConnectionError) as exc:
            log.warning("no answer to the permission request (%s): refused", exc)
            return "no"
        outcome = response.outcome
        chosen = outcome.option_id if isinstance(outcome, AllowedOutcome) else "no"
        if chosen == "yes":
            return "yes"
        if chosen == "always" and always:
            return "always"
        if chosen != "no":  # an answer that was not offered allows nothing
            log.warning("the editor answered %r, which was not offered: refused", chosen)
        return "no"


def permission_options(*, always: bool) -> list[PermissionOption]:
    """The answers offered; "always" only where the chat offers it (the mode's own questions)."""
    options = [PermissionOption(option_id="yes", name="Allow once", kind="allow_once")]
    if always:
        options.append(
            PermissionOption(option_id="always", name="Allow always (this session)", kind="allow_always")
        )
    options.append(PermissionOption(option_id="no", name="Reject", kind="reject_once"))
    return options


def diff_content(path: str, old: str | None, new: str) -> FileEditToolCallContent:
    """A change as the protocol's diff: the file's absolute path, its text before (None: new) and after."""
    return FileEditToolCallContent(type="diff", path=path, old_text=old, new_text=new)


def refused(problem: str, *, code: int = -32602) -> RequestError:
    """A request the agent cannot do, the problem (what to fix) as the error's message, which editors show;
    `code` is JSON-RPC's "invalid params" unless given."""
    return RequestError(code, problem, {"message": problem})
