"""Runs always end reasonably: the loop breaker, and the wall-clock deadline with its partial result.

`LoopBreaker` sits in the agent loop: a model that makes the same call (same tool, same arguments)
again after that call gave the same result the previous times in a row is stuck, and so is one that
cycles between a few calls with the same results (read A, write B refused, read A, write B refused, …)
or retries a call the policy refused twice; the run ends with STOP and a result saying so.
`RunWatch` drives a run for a UI: it ends the run with TIMEOUT
when `--timeout` is reached, and reports what the run had achieved so far (its partial result) for
ends decided outside the loop (a deadline, an interrupt).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence
from typing import Protocol

from asi_agent import traces
from asi_agent.calls import strip_status
from asi_agent.events import AgentEvent, AssistantReplied, Ending, RunFinished, TextStreamed, ToolFinished
from asi_agent.messages import Usage
from asi_agent.plugins.mcp import MCP_KEY, McpHub
from asi_agent.plugins.mcp_mentions import expand_mcp_references
from asi_agent.session import Session
from asi_agent.toolrun import Outcome, Prepared, signature

__all__ = ["DEFAULT_REPEAT_LIMIT", "LoopBreaker", "RunWatch", "Runnable"]

DEFAULT_REPEAT_LIMIT = 3
"""The same call with the same result this many times in a row ends the run (a cycle of calls: this many
rounds)."""
REFUSED_RETRIES = 2
"""A call the policy refused this many times is not run again."""
_CYCLES = (1, 2, 3)
"""The lengths of call cycles looked for: the same call, two alternating calls, three in turn."""


class LoopBreaker:
    """Ends a run stuck in a loop: the same call, with the same result, `limit` times in a row."""

    def __init__(self, limit: int = DEFAULT_REPEAT_LIMIT) -> None:
        self.limit = limit
        self.reason: str | None = None
        """Why the run must stop, once a loop was found."""
        self._history: list[tuple[str, bool, str]] = []
        self._refused: dict[str, int] = {}

    def observe(self, event: AgentEvent) -> None:
        """Keep each finished call with its result, and count the policy's refusals of each call."""
        if isinstance(event, ToolFinished):
            key = signature(event.call)
            self._history.append((key, event.ok, event.output))
            if event.result == "refused":
                self._refused[key] = self._refused.get(key, 0) + 1

    def screen(self, items: Sequence[Prepared | Outcome]) -> list[Prepared | Outcome]:
        """A reply's calls as they are, or, when they would go on a loop, all of them refused (not run)."""
        items = list(items)
        if not items:
            return items
        call = items[0].call
        arguments = json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)
        if len(arguments) > 200:
            arguments = arguments[:199] + "…"
        if self._refused.get(signature(call), 0) >= REFUSED_RETRIES:
            self.reason = (
                f"stopped a loop: the model tried a call the policy had refused {REFUSED_RETRIES} times "
                f"again ({call.name} {arguments})"
            )
        elif (cycle := self._cycle(signature(call))) is not None:
            self.reason = (
                f"stopped a loop: the model made the same call {self.limit} times in a row ({call.name} "
                f"{arguments}), and it had given the same result each time"
                if cycle == 1
                else f"stopped a loop: the model went round the same {cycle} calls {self.limit} times "
                f"({', '.join(self._names(cycle))}), with the same results each round"
            )
        else:
            return items
        return [Outcome(item.call, False, f"not run: {self.reason}") for item in items]

    def _cycle(self, following: str) -> int | None:
        """The length of the cycle the history has gone round `limit - 1` times, which a call of
        `following` would start again; None when there is none."""
        seen = self._history
        for length in _CYCLES:
            span = length * (self.limit - 1)
            if len(seen) < span or seen[-length][0] != following:
                continue
            recent = seen[-span:]
            if all(recent[i] == recent[i + length] for i in range(span - length)):
                return length
        return None

    def _names(self, length: int) -> list[str]:
        return [key.split("{", 1)[0] for key, _, _ in self._history[-length:]]


class Runnable(Protocol):
    """What `RunWatch` needs of an agent."""

    session: Session
    usage: Usage

    @property
    def sandbox_kind(self) -> str | None:
        """What contains the run's commands ("bubblewrap"), None when nothing does."""
        ...

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
        """The model's latest whole text (without its status line)."""
        self._streaming = ""

    def follow(self, event: AgentEvent) -> None:
        """Keep the latest turn and text, and the reply being streamed (an end from outside may cut it)."""
        if isinstance(event, TextStreamed):
            self._streaming += event.delta
        elif isinstance(event, AssistantReplied):
            self.turns = event.turn
            text = strip_status(event.message.content)
            self.partial = text or self.partial
            self._streaming = ""

    async def drive(self, task: str, handle: EventHandler, *, timeout: float | None = None) -> RunFinished:
        """Run `task`, passing every event to `handle`; past `timeout` seconds end it with TIMEOUT. The
        task's `/server:prompt` and `@server:uri` references to the session's MCP servers are resolved
        first."""
        runner = getattr(self.agent, "runner", None)  # the real Agent's; test doubles have none
        hub = runner.ctx.state.get(MCP_KEY) if runner is not None else None
        task = await expand_mcp_references(hub if isinstance(hub, McpHub) else None, task)
        events = self.agent.run(task)
        spans, status = traces.RunSpans(task), "INTERRUPTED"  # OpenTelemetry, when OTEL_* asks for it
        try:
            async with asyncio.timeout(timeout) as scope:
                async for event in events:
                    self.follow(event)
                    spans.event(event)
                    await handle(event)
                    if isinstance(event, RunFinished):
                        status = event.status
                        return event
        except TimeoutError:
            if not scope.expired():
                raise
            status = "TIMEOUT"
            end = self.end("TIMEOUT", f"the run reached its time limit of {timeout:g} s (--timeout)")
            await handle(end)
            return end
        finally:
            spans.end(status)
            if isinstance(events, AsyncGenerator):  # an agent cut short still closes what it opened
                await events.aclose()
        raise AssertionError("the agent ended without RunFinished")

    @property
    def result(self) -> str:
        """The result of a run ended from outside: the reply cut short if one was being written, else the
        latest whole one."""
        return strip_status(self._streaming) or self.partial

    def end(self, status: Ending, error: str) -> RunFinished:
        """End the run from outside the loop: record it in the session, with the partial result."""
        result = self.result
        self.agent.session.append("finished", status=status, result=result, turns=self.turns, error=error)
        kind = self.agent.sandbox_kind
        return RunFinished(status, result, self.turns, self.agent.usage, error, sandbox=kind)
