"""The `task` tool: a child agent with a fresh context, a subset of the tools and its own instructions.

The child runs under the parent's policy, approval mode, sandbox and hooks (never looser), writes through
the parent's journal under the parent's session id (so `asi-agent undo` reverts its edits), and returns
one report. Its events are passed on nested under the call (`SubagentEvent`); its questions go to the
person as the parent's do. Depth is limited: by default a child cannot start children of its own.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import Field

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.base import Backend
from asi_agent.events import Answer, ApprovalRequested, RunFinished, SubagentEvent
from asi_agent.exceptions import ModelFixableError
from asi_agent.messages import ToolCall
from asi_agent.session import SessionStore
from asi_agent.subagents.definitions import AgentDefinition
from asi_agent.toolrun import CURRENT_CALL, RELAY_KEY, Relay, ToolRunner
from asi_agent.tools.base import Risk, ToolArgs, ToolContext, ToolSpec
from asi_agent.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from asi_agent.hooks import Hooks

__all__ = ["HOST_KEY", "SubagentHost", "TaskArgs", "task_spec"]

HOST_KEY = "asi_agent.subagents"
"""The `ctx.state` key of the `SubagentHost` (absent where no more children may start)."""
_ORDER: tuple[Risk, ...] = ("read", "write", "network", "execute")


class TaskArgs(ToolArgs):
    """Start a child agent for a self-contained piece of work; it sees none of this conversation and
    returns one report."""

    description: str = Field(description="A short title of the work (3-5 words)")
    prompt: str = Field(description="The whole task for the child agent, with everything it needs to know")
    subagent_type: str = Field("explore", description="Which agent definition to use")


@dataclass
class SubagentHost:
    """What a `task` call needs to start a child like its parent."""

    backend: Backend
    parent_tools: Callable[[], ToolRegistry]
    """The parent's tools as they are now (a command's `allowed-tools` may have narrowed them); a child gets
    those its definition names."""
    system: str
    config: AgentConfig
    agents: dict[str, AgentDefinition]
    hooks: Hooks | None = None
    depth: int = 0
    max_depth: int = 1
    """How deep children may nest: 1 lets the session's agent start children, not theirs."""
    backend_for: Callable[[str], Backend] | None = None
    """A backend of the session's provider for another model (a definition's `model`); None: always the
    session's."""
    finished: list[RunFinished] = field(default_factory=list)

    def definition(self, name: str) -> AgentDefinition:
        """The named definition, or a ModelFixableError naming the known ones."""
        if name not in self.agents:
            known = ", ".join(sorted(self.agents))
            raise ModelFixableError(f"no agent named {name!r}; use subagent_type one of: {known}")
        return self.agents[name]

    def tools_of(self, definition: AgentDefinition) -> ToolRegistry:
        """The child's tools: its definition's, among the parent's; `task` only where depth allows."""
        tools = self.parent_tools()
        names = set(tools.names()) if definition.tools is None else set(definition.tools)
        if self.depth + 1 >= self.max_depth:
            names.discard("task")
        return ToolRegistry((s for s in tools if s.name in names), locale=tools.locale)

    def risk(self, args: TaskArgs) -> Risk:
        """A `task` call's class: the most a tool of its agent can do (read-only agents' calls are reads)."""
        definition = self.agents.get(args.subagent_type)
        if definition is None:
            return "read"  # refused when it runs, before anything starts
        risks = {spec.risk for spec in self.tools_of(definition)} or {"read"}
        return max(risks, key=_ORDER.index)

    async def run_child(self, args: TaskArgs, ctx: ToolContext) -> str:
        """Run one child to its end; its report (a child that did not finish is a failed call)."""
        definition = self.definition(args.subagent_type)
        call = CURRENT_CALL.get()
        call_id = call.id if call is not None else ""
        child, own = self._child(definition, ctx, call_id)
        relay: Relay = ctx.state[RELAY_KEY]
        end: RunFinished | None = None
        events = child.run(args.prompt)
        try:
            async for event in events:
                if isinstance(event, ApprovalRequested):
                    relay.put(_asked_for(event, call_id))
                else:
                    relay.put(SubagentEvent(call_id, definition.name, event))
                if isinstance(event, RunFinished):
                    end = event
        finally:
            if isinstance(events, AsyncGenerator):
                await events.aclose()
            await child.runner.ctx.aclose()
            if own is not None:
                await own.aclose()
        assert end is not None
        self.finished.append(end)
        if end.status != "DONE":
            why = end.error or end.result
            raise ModelFixableError(f"the {definition.name} agent ended {end.status}: {why}")
        return end.result or f"(the {definition.name} agent finished without a report)"

    def _child(
        self, definition: AgentDefinition, ctx: ToolContext, call_id: str
    ) -> tuple[Agent, Backend | None]:
        """The child agent of one call, and the backend made for its definition's model (to close), if any."""
        child_ctx = dataclasses.replace(
            ctx, stamps={}, state={}, cleanups=[], network_for=set(ctx.network_for)
        )
        tools = self.tools_of(definition)
        if self.depth + 1 < self.max_depth:  # its children get at most its tools
            child_ctx.state[HOST_KEY] = dataclasses.replace(
                self, depth=self.depth + 1, finished=[], parent_tools=lambda: tools
            )
        hooks = self.hooks.for_child(definition.name, child_ctx) if self.hooks is not None else None
        config = dataclasses.replace(
            self.config, gate=dataclasses.replace(self.config.gate, hooks=hooks), hooks=hooks, offered=()
        )
        runner = ToolRunner(tools, child_ctx)
        runner.hooks = hooks
        session = SessionStore(ctx.state_dir).create(
            cwd=str(ctx.root), parent=ctx.session_id, parent_call=call_id, agent=definition.name
        )
        system = f"{self.system}\n\n## Your role: the {definition.name} agent\n{definition.prompt}".strip()
        own = self.backend_for(definition.model) if definition.model and self.backend_for else None
        return Agent(own or self.backend, runner, session, system, config), own


def _asked_for(request: ApprovalRequested, call_id: str) -> ApprovalRequested:
    """A child's question as the person sees it: its call's id under the `task` call's (`TASK/CALL`, as the
    child's calls are shown); the answer (and the person's note) go back to the child's own request."""
    call = request.call
    shown = dataclasses.replace(request, call=ToolCall(f"{call_id}/{call.id}", call.name, call.arguments))
    shown.answer = asyncio.get_running_loop().create_future()

    def answered(future: asyncio.Future[Answer]) -> None:
        request.note = shown.note
        if not request.answer.done():
            request.answer.set_result("no" if future.cancelled() else future.result())

    shown.answer.add_done_callback(answered)
    return shown


async def _task(args: TaskArgs, ctx: ToolContext) -> str:
    host = ctx.state.get(HOST_KEY)
    if not isinstance(host, SubagentHost):
        raise ModelFixableError("task is not available here (child agents cannot start agents of their own)")
    return await host.run_child(args, ctx)


def task_spec(host: SubagentHost) -> ToolSpec:
    """The registry entry of `task`, describing the agents it can start."""
    listed = "; ".join(f"{name}: {d.description}" for name, d in sorted(host.agents.items()))
    return ToolSpec(
        name="task",
        args=TaskArgs,
        run=_task,
        risk="execute",
        source="extension",
        description=f"{(TaskArgs.__doc__ or '').strip()} Agents (subagent_type): {listed}",
        classify=host.risk,
    )
