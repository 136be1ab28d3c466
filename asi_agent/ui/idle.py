"""The chats' idle notice: once a turn has ended and the person has sent nothing for a while, the
`Notification` hook fires (`idle_prompt`), once until the next turn, as Claude Code's does."""

from __future__ import annotations

import asyncio

from asi_agent.ui.chatsession import ChatSession

__all__ = ["IdleNotice"]


class IdleNotice:
    """A timer armed when a turn ends, disarmed when the person types or sends; firing tells the hooks."""

    def __init__(self, chat: ChatSession) -> None:
        self.chat = chat
        self._task: asyncio.Task[None] | None = None

    def arm(self) -> None:
        """Start waiting (again) from now; nothing happens when no hook listens."""
        self.disarm()
        if self.chat.agent.config.hooks is not None:
            seconds = self.chat.config.notify_idle_after
            self._task = asyncio.get_running_loop().create_task(self._wait(seconds))

    def disarm(self) -> None:
        """The person is here (typing, sending) or the chat closes: no notice."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _wait(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self._task = None
        await self.chat.idle()
