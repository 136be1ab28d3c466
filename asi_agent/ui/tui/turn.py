"""Rendering one turn's events into the conversation view (the app owns the worker and the modal)."""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.containers import VerticalScroll

from asi_agent.calls import strip_status
from asi_agent.events import (
    AgentEvent,
    AssistantReplied,
    CallRejected,
    ContextCompacted,
    ReasoningStreamed,
    RetryRequested,
    RunFinished,
    StatusDecided,
    SubagentEvent,
    TextStreamed,
    ToolFinished,
    ToolProgress,
    ToolStarted,
)
from asi_agent.messages import Message, ToolCall
from asi_agent.statusline import StatusFilter
from asi_agent.ui.tui.widgets import Notice, ReplyView, StatusBar, ToolCard, UserLine

__all__ = ["TurnView", "replay", "tokens_label"]


@dataclass(slots=True)
class TurnView:
    """What one turn has put on screen so far; `partial` is the reply text not yet complete."""

    conversation: VerticalScroll
    status: StatusBar
    tokens: int = 0
    """Tokens used by the session before this turn."""
    reply: ReplyView | None = None
    partial: str = ""
    cards: dict[str, ToolCard] = field(default_factory=dict)
    changed: bool = False
    said: str = ""
    """The model's latest text (a result that differs from it is the runtime's and is shown)."""
    open_output: bool = False
    """Show every card open (the turn runs the person's own `!command`)."""
    rejected: dict[str, ToolCard] = field(default_factory=dict)
    """Calls shown as rejected; their result events add nothing."""
    status_line: StatusFilter = field(default_factory=StatusFilter)
    """Keeps the `AGENT_STATUS` line out of the streamed reply: the status bar shows it."""

    async def show(self, event: AgentEvent) -> None:
        """Render one event."""
        if isinstance(event, TextStreamed | ReasoningStreamed):
            await self._streamed(event)
        elif isinstance(event, AssistantReplied):
            await self._replied(event)
        elif isinstance(event, ToolStarted):
            await self._started(event.call)
        elif isinstance(event, ToolFinished):
            await self._finished(event)
        elif isinstance(event, ToolProgress) and event.call_id in self.cards:
            self.cards[event.call_id].progressed(event.detail)
        elif isinstance(event, CallRejected):
            card = ToolCard(ToolCall(event.call_id, event.name or "?", {}))
            await self.conversation.mount(card)
            card.refused(event.error)
            self.rejected[event.call_id] = card  # its result comes too: one card says it all
        elif isinstance(event, RetryRequested):
            await self.conversation.mount(Notice(f"asked the model again ({event.reason})"))
        elif isinstance(event, StatusDecided):
            self.status.set(agent_status=f"AGENT_STATUS: {event.status}")
        elif isinstance(event, RunFinished):
            await self._ended(event)
        elif isinstance(event, SubagentEvent):
            await self._child(event)
        elif isinstance(event, ContextCompacted):
            self._context_left(event.context_left)
            sizes = f"{event.tokens_before:,} → {event.tokens_after:,} tokens"
            await self.conversation.mount(Notice(f"context compacted ({event.reason}): {sizes}"))

    async def stop(self) -> None:
        """The turn ended (or was interrupted): stop any stream; calls still running were cut short."""
        if self.reply is not None:
            await self.reply.stop()
        for card in self.cards.values():
            card.interrupted()
        self.cards.clear()

    async def _streamed(self, event: TextStreamed | ReasoningStreamed) -> None:
        if self.reply is None:
            self.reply = ReplyView()
            await self.conversation.mount(self.reply)
        if isinstance(event, ReasoningStreamed):
            self.status.busy("thinking")
            await self.reply.think(event.delta)
            return
        self.partial += event.delta
        self.status.busy("writing")
        shown = self.status_line.feed(event.delta)
        if shown:
            await self.reply.write(shown)

    async def _replied(self, event: AssistantReplied) -> None:
        self.status_line.finish()
        text = strip_status(event.message.content)
        self.said = text or self.said
        if self.reply is None and text.strip():
            self.reply = ReplyView()
            await self.conversation.mount(self.reply)
        if self.reply is not None:
            await self.reply.finish(text)
        self.reply, self.partial = None, ""
        self.tokens += event.usage.prompt_tokens + event.usage.completion_tokens
        self.status.set(turn=f"turn {event.turn}", tokens=tokens_label(self.tokens))
        self._context_left(event.context_left)
        self.status.busy("thinking")

    def _context_left(self, left: int | None) -> None:
        if left is not None:  # unknown window: tokens used only
            self.status.set(context=f"{left:,} left")

    async def _started(self, call: ToolCall) -> None:
        if call.id in self.rejected:  # the rejection named the tool only: now its arguments are known
            self.rejected[call.id].show_call(call)
            return
        card = ToolCard(call, open_output=self.open_output)
        self.cards[call.id] = card
        await self.conversation.mount(card)
        self.status.busy(f"running {call.name}")

    async def _finished(self, event: ToolFinished) -> None:
        if event.call.id in self.rejected:
            return
        card = self.cards.pop(event.call.id, None)
        if card is None:
            card = ToolCard(event.call, open_output=self.open_output)
            await self.conversation.mount(card)
        card.finished(event.ok, event.output)
        self.changed = self.changed or bool(event.changed_files)
        self.status.busy("thinking")

    async def _child(self, event: SubagentEvent) -> None:
        """A child agent's call: a card indented under its `task` call, titled with the agent's name."""
        inner = event.event
        while isinstance(inner, SubagentEvent):  # a grandchild's
            event, inner = inner, inner.event
        if isinstance(inner, ToolProgress) and f"{event.call_id}/{inner.call_id}" in self.cards:
            self.cards[f"{event.call_id}/{inner.call_id}"].progressed(inner.detail)
            return
        if not isinstance(inner, ToolStarted | ToolFinished):
            return
        call = inner.call
        nested = ToolCall(f"{event.call_id}/{call.id}", f"↳ {event.agent} › {call.name}", call.arguments)
        if isinstance(inner, ToolStarted):
            card = ToolCard(nested)
            card.add_class("child")
            self.cards[nested.id] = card
            await self.conversation.mount(card)
            return
        found = self.cards.pop(nested.id, None)
        if found is None:
            found = ToolCard(nested)
            found.add_class("child")
            await self.conversation.mount(found)
        found.finished(inner.ok, inner.output)
        self.changed = self.changed or bool(inner.changed_files)

    async def _ended(self, event: RunFinished) -> None:
        self.status.set(agent_status=event.status)
        if event.status == "ERROR":
            await self.conversation.mount(Notice(f"error: {event.error or event.result}", error=True))
        elif event.status != "DONE":
            why = f": {event.result}" if event.result and event.result != self.said else ""
            await self.conversation.mount(Notice(f"ended with {event.status} after {event.turns} turns{why}"))
        if (before := event.baseline_line()) is not None:
            await self.conversation.mount(Notice(before))


def tokens_label(tokens: int) -> str:
    """The tokens field: empty while no request used a model token (a turn grounding answered alone)."""
    return f"{tokens:,} tokens" if tokens else ""


async def replay(conversation: VerticalScroll, messages: list[Message]) -> None:
    """Show a resumed session's conversation (tool results folded into their cards)."""
    cards: dict[str, ToolCard] = {}
    for message in messages:
        if message.role == "user":
            text = message.content.split('\n\n<file path="')[0]  # what was typed, not the attachments
            await conversation.mount(UserLine(text if len(text) < 600 else text[:600] + " …"))
        elif message.role == "assistant":
            if strip_status(message.content).strip():
                view = ReplyView()
                await conversation.mount(view)
                await view.finish(strip_status(message.content))
            for call in message.tool_calls:
                cards[call.id] = ToolCard(call)
                await conversation.mount(cards[call.id])
        elif message.role == "tool" and message.tool_call_id in cards:
            cards.pop(message.tool_call_id).finished(message.ok, message.body)
