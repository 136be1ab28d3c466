"""Running a reply's calls: each gated, the allowed ones run (consecutive reads together), each result
kept in the transcript at once and fed back to the model as a typed tool message. While they run, what
they report (a child agent's events, their progress) is passed on as it happens."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence

from asi_agent.events import AgentEvent, CallRejected, ToolProgress, ToolStarted, tool_progress_sink
from asi_agent.gate import Gate
from asi_agent.messages import Message
from asi_agent.session import Session
from asi_agent.toolrun import Outcome, Prepared, Relay, ToolRunner, batches
from asi_agent.verify import Verifier

__all__ = ["run_calls"]


async def run_calls(
    items: Sequence[Prepared | Outcome],
    *,
    gate: Gate,
    runner: ToolRunner,
    session: Session,
    verifier: Verifier | None,
    add: Callable[[Message], None],
) -> AsyncIterator[AgentEvent]:
    """Gate every call, run the allowed ones, feed each result back (see the module docstring)."""
    gated: list[Prepared | Outcome] = []
    for item in items:
        if isinstance(item, Outcome):
            yield CallRejected(item.call.id, item.call.name, item.output)
            gated.append(item)
            continue
        async for event in gate.check(item):
            if isinstance(event, Outcome | Prepared):
                gated.append(event)
            else:
                yield event
    for batch in batches(gated):
        if verifier is not None:  # the tests before the first change, the files before the first command
            async for event in verifier.before_batch(batch, gate, runner):
                yield event
        for item in batch:
            yield ToolStarted(item.call)
        work = asyncio.ensure_future(asyncio.gather(*(_execute(item, gate, runner) for item in batch)))
        async for event in runner.relay.until(work):  # a child agent's work, as it happens
            yield event
        for outcome in work.result():
            # kept at once, so a turn interrupted later still has this result
            session.append(
                "result",
                call=outcome.call.to_dict(),
                ok=outcome.ok,
                outcome=outcome.result,
                changed_files=list(outcome.changed_files),
            )
            add(outcome.message())
            finished = outcome.finished()
            if verifier is not None:
                verifier.observe(finished)
            yield finished


async def _execute(item: Prepared | Outcome, gate: Gate, runner: ToolRunner) -> Outcome:
    if isinstance(item, Outcome):
        return item
    progress = _CallProgress(runner.relay, item.call.id)
    try:
        with tool_progress_sink(progress):
            outcome = await runner.execute(item)
    finally:
        progress.closed = True
    if outcome.changed_files:
        gate.changed_files()
    return outcome


class _CallProgress:
    """One call's progress sink: `ToolProgress` events through the relay, in order with the run's other
    events, until the call ends (a report arriving after its result is dropped, not shown as current)."""

    def __init__(self, relay: Relay, call_id: str) -> None:
        self.relay, self.call_id = relay, call_id
        self.closed = False

    def __call__(self, progress: float, total: float | None, message: str) -> None:
        if not self.closed:
            self.relay.put(ToolProgress(self.call_id, progress, total, message))
