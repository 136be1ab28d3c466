"""The runtime's own test run before DONE: a command like any other, through the gate and the sandbox.

The run is offered to the gate as the call it amounts to (`run_tests`, or `run_terminal_cmd` with the
configured or detected command), so the policy decides it as it would decide the model's call: allowed,
asked (in `ask` mode, when somebody can answer), or refused. A refused run is reported, never retried.
The events a call produces (the question, the decision, the start and the result) are yielded for the
front ends to show; the result is not added to the conversation (no model call asked for it).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from asi_agent.calls import new_call_id
from asi_agent.events import AgentEvent, DecisionMade, ToolFinished, ToolStarted
from asi_agent.exceptions import ModelFixableError
from asi_agent.gate import Gate
from asi_agent.messages import ToolCall
from asi_agent.toolrun import Outcome, Prepared, ToolRunner
from asi_agent.tools.exec.testcmd import TestPlan, TestRun, run_plan

__all__ = ["OwnRun", "own_test_run"]


@dataclass(frozen=True, slots=True)
class OwnRun:
    """How the runtime's test run went: its outcome, or why it was not run."""

    plan: TestPlan
    run: TestRun | None
    not_run: str = ""
    """Why the tests were not run (the policy's or the person's refusal), when `run` is None."""


async def own_test_run(
    plan: TestPlan, gate: Gate, runner: ToolRunner, timeout: float
) -> AsyncIterator[AgentEvent | OwnRun]:
    """Ask the gate, run the plan when allowed; yields the call's events, then one `OwnRun`."""
    call = ToolCall(new_call_id(), plan.tool, plan.arguments)
    try:
        prepared = runner.prepare(call)
    except ModelFixableError as exc:  # the tool is not in this registry (a narrowed tool set)
        yield OwnRun(plan, None, str(exc))
        return
    allowed, reason = False, "the call was refused as a repetition"
    async for item in gate.check(prepared):
        if isinstance(item, DecisionMade):
            reason = item.reason
        if isinstance(item, Prepared):
            allowed = True
        elif not isinstance(item, Outcome):
            yield item
    if not allowed:
        yield OwnRun(plan, None, reason)
        return
    yield ToolStarted(prepared.call)
    if runner.before_change is not None:
        await runner.before_change()
    run = await run_plan(runner.ctx, plan, timeout)
    yield ToolFinished(prepared.call, run.passed, run.output, None if run.passed else run.summary)
    yield OwnRun(plan, run)
