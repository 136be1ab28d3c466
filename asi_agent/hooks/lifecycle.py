"""`Hooks`: the configured commands, fired at the loop's hook points with Claude Code's JSON."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from typing import Any, Protocol

from asi_agent.events import AgentEvent, ApprovalRequested, RunFinished, SessionStarted
from asi_agent.hooks.process import Verdict, run_hook
from asi_agent.hooks.settings import HookCommand
from asi_agent.messages import Usage
from asi_agent.session import Session
from asi_agent.toolrun import Outcome, Prepared
from asi_agent.tools.base import ToolContext

__all__ = ["HookedAgent", "Hooks"]

MAX_STOP_BLOCKS = 3
"""How many times in a row a `Stop` hook may send the agent back to work before its ending stands."""


class HookedAgent(Protocol):
    """What `Hooks.around` needs of an agent."""

    session: Session

    def loop(self, task: str) -> AsyncIterator[AgentEvent]:
        """The run itself, without hooks."""
        ...


class Hooks:
    """The hooks of one session (or of one child agent, whose `Stop` is `SubagentStop`)."""

    def __init__(
        self,
        commands: Sequence[HookCommand],
        ctx: ToolContext,
        session: Session,
        *,
        warn: Callable[[str], None],
        mode: str = "ask",
        child: str | None = None,
    ) -> None:
        self.commands, self.ctx, self.session, self.warn = tuple(commands), ctx, session, warn
        self.mode = mode
        self.child = child
        """The child agent's name, for the hooks of a `task` call's agent; None for the session's own."""
        self._started = False

    def for_child(self, name: str, ctx: ToolContext) -> Hooks:
        """The hooks of a child agent: its tool calls are hooked alike, its ending is `SubagentStop`."""
        return Hooks(self.commands, ctx, self.session, warn=self.warn, mode=self.mode, child=name)

    def active(self, event: str, tool: str | None = None) -> list[HookCommand]:
        """The hooks that run for `event` (and a call of `tool`)."""
        return [hook for hook in self.commands if hook.event == event and hook.matches(tool)]

    async def fire(self, event: str, tool: str | None = None, **fields: Any) -> Verdict:
        """Run the event's hooks one after another; what they said together (problems reported)."""
        verdict = Verdict()
        hooks = self.active(event, tool)
        if not hooks:
            return verdict
        payload = {
            "session_id": self.ctx.session_id,
            "transcript_path": str(self.session.path),
            "cwd": str(self.ctx.root),
            "hook_event_name": event,
            "permission_mode": self.mode,
            **fields,
        }
        for hook in hooks:
            verdict.merge(await run_hook(hook, payload, root=self.ctx.root, sandbox=self.ctx.sandbox))
        for problem in verdict.problems:
            self.warn(problem)
        self.session.append(
            "hook", event=event, tool=tool, blocked=verdict.blocked, decision=verdict.decision,
            reasons=verdict.reasons, problems=verdict.problems,
        )  # fmt: skip
        return verdict

    async def before_tool(self, item: Prepared) -> Verdict:
        """`PreToolUse`: may block the call (exit 2), or decide allow / deny / ask for it."""
        name = item.call.name
        return await self.fire("PreToolUse", name, tool_name=name, tool_input=item.call.arguments)

    async def after_tool(self, outcome: Outcome, item: Prepared) -> Outcome:
        """`PostToolUse`: what a hook says back (exit 2's stderr, a block's reason, added context) is added
        to the result the model reads."""
        name = item.call.name
        response = {
            "success": outcome.ok, "output": outcome.output, "changed_files": list(outcome.changed_files)
        }  # fmt: skip
        verdict = await self.fire(
            "PostToolUse", name, tool_name=name, tool_input=item.call.arguments, tool_response=response
        )
        notes = ([f"PostToolUse hook: {verdict.reason}"] if verdict.blocked else []) + verdict.context
        if not notes:
            return outcome
        return dataclasses.replace(outcome, output="\n\n".join([outcome.output, *notes]))

    async def pre_compact(self, trigger: str) -> None:
        """`PreCompact` (`manual` from `/compact`)."""
        await self.fire("PreCompact", trigger=trigger, custom_instructions="")

    async def session_end(self) -> None:
        """`SessionEnd`, when the session's resources are closed."""
        await self.fire("SessionEnd", reason="other")

    async def around(self, agent: HookedAgent, task: str) -> AsyncIterator[AgentEvent]:
        """Run `task` with the run's hooks: `SessionStart` (once), `UserPromptSubmit` (may block the prompt
        or add context), `Notification` when the person is asked, `Stop` (may send the agent on)."""
        prompt = task
        if self.child is None:
            context = await self._prompt_context(task)
            if isinstance(context, Verdict):
                async for event in self._blocked(agent, context):
                    yield event
                return
            prompt = "\n\n".join([task, *context])
        again = 0
        while True:
            end: RunFinished | None = None
            events = agent.loop(prompt)
            try:
                async for event in events:
                    if isinstance(event, ApprovalRequested):
                        asking = f"asi-agent needs your permission to use {event.call.name}"
                        await self.fire("Notification", message=asking)
                    if isinstance(event, RunFinished):
                        end = event
                    elif not (again and isinstance(event, SessionStarted)):
                        yield event
            finally:  # a run cut short (an interrupt, a timeout) still closes what it opened
                if isinstance(events, AsyncGenerator):
                    await events.aclose()
            assert end is not None
            verdict = None
            if end.status not in ("ERROR", "TIMEOUT") and again < MAX_STOP_BLOCKS:
                verdict = await self.fire(self._stop_event(), stop_hook_active=again > 0)
            if verdict is None or not verdict.blocked:
                yield end
                return
            again += 1
            prompt = verdict.reason

    def _stop_event(self) -> str:
        return "Stop" if self.child is None else "SubagentStop"

    async def _prompt_context(self, task: str) -> list[str] | Verdict:
        """`SessionStart` (first prompt) and `UserPromptSubmit`: the context they add, or the blocking one."""
        context: list[str] = []
        if not self._started:
            self._started = True
            context += (await self.fire("SessionStart", source="startup")).context
        verdict = await self.fire("UserPromptSubmit", prompt=task)
        if verdict.blocked or verdict.stop:
            return verdict
        return context + verdict.context

    async def _blocked(self, agent: HookedAgent, verdict: Verdict) -> AsyncIterator[AgentEvent]:
        """A prompt a hook blocked: the run ends STOP before the model sees it."""
        reason = f"the prompt was blocked by a UserPromptSubmit hook: {verdict.stop or verdict.reason}"
        agent.session.append("finished", status="STOP", result=reason, turns=0, error=None)
        yield SessionStarted(agent.session.id, "", "native", True)
        yield RunFinished("STOP", reason, 0, Usage())
