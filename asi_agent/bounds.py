"""Runs always end reasonably: the loop breaker, and the wall-clock deadline with its partial result.

`LoopBreaker` sits in the agent loop: a model that makes the same call (same tool, same arguments)
again after that call gave the same result the previous times in a row is stuck, and the run ends
with STOP and a result saying so. `RunWatch` drives a run for a UI: it ends the run with TIMEOUT
when `--timeout` is reached, and reports what the run had achieved so far (its partial result) for
ends decided outside the loop (a deadline, an interrupt).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence
from typing import Protocol

from asi_agent.calls import strip_status
from asi_agent.events import AgentEvent, AssistantReplied, Ending, RunFinished, ToolFinished
from asi_agent.messages import Usage
from asi_agent.session import Session
from asi_agent.toolrun import Outcome, Prepared, signature

__all__ = ["DEFAULT_REPEAT_LIMIT", "LoopBreaker", "RunWatch", "Runnable"]

DEFAULT_REPEAT_LIMIT = 3
"""The same call with the same result this many times in a row ends the run."""


class LoopBreaker:
    """Ends a run stuck in a loop: the same call, with the same result, `limit` times in a row."""

    def __init__(self, limit: int = DEFAULT_REPEAT_LIMIT) -> None:
        self.limit = limit
        self.reason: str | None = None
        """Why the run must stop, once a loop was found."""
        self._last: tuple[str, bool, str] | None = None
        self._count = 0

    def observe(self, event: AgentEvent) -> None:
        """Count how often in a row the latest call gave the same result."""
        if isinstance(event, ToolFinished):
            key = (signature(event.call), event.ok, event.output)
            self._count = self._count + 1 if key == self._last else 1
            self._last = key

    def screen(self, items: Sequence[Prepared | Outcome]) -> list[Prepared | Outcome]:
        """A reply's calls as they are, or, when they would go on a loop, all of them refused (not run)."""
        last, items = self._last, list(items)
        if not items or last is None or self._count < self.limit - 1 or signature(items[0].call) != last[0]:
            return items
        call = items[0].call
        arguments = json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)
        if len(arguments) > 200:
            arguments = arguments[:199] + "…"
        self.reason = (
            f"stopped a loop: the model made the same call {self.limit} times in a row ({call.name} "
            f"{arguments}), and it had given the same result each time"
        )
        return [Outcome(item.call, False, f"not run: {self.reason}") for item in items]


class Runnable(Protocol):
    """What `RunWatch` needs of an agent."""

    session: Session
    usage: Usage

    def run(self, task: str) -> AsyncIterator[AgentEvent]:
        """The run's events, ending with `RunFinished`."""
        ...


EventHandler = Callable[[AgentEvent], Awaitable[None]]


class RunWatch:
    """Drives one run within a deadline, following its events to report a partial result."""

    def __init__(self, agent: Runnable) -> None:
        self.agent = agent
        self.turns = 0
        """The last turn the model answered."""
        self.partial = ""
        """The model's latest text (without its status line): the result of a run ended from outside."""

    def follow(self, event: AgentEvent) -> None:
        """Keep the latest turn and text."""
        if isinstance(event, AssistantReplied):
            self.turns = event.turn
            text = strip_status(event.message.content)
            self.partial = text or self.partial

    async def drive(self, task: str, handle: EventHandler, *, timeout: float | None = None) -> RunFinished:
        """Run `task`, passing every event to `handle`; past `timeout` seconds end it with TIMEOUT."""
        events = self.agent.run(task)
        try:
            async with asyncio.timeout(timeout) as scope:
                async for event in events:
                    self.follow(event)
                    await handle(event)
                    if isinstance(event, RunFinished):
                        return event
        except TimeoutError:
            if not scope.expired():
                raise
            end = self.end("TIMEOUT", f"the run reached its time limit of {timeout:g} s (--timeout)")
            await handle(end)
            return end
        finally:
            if isinstance(events, AsyncGenerator):  # an agent cut short still closes what it opened
                await events.aclose()
        raise AssertionError("the agent ended without RunFinished")

    def end(self, status: Ending, error: str) -> RunFinished:
        """End the run from outside the loop: record it in the session, with the partial result."""
        self.agent.session.append(
            "finished", status=status, result=self.partial, turns=self.turns, error=error
        )
        return RunFinished(status, self.partial, self.turns, self.agent.usage, error)
