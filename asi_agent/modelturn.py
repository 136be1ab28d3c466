"""One model request of the agent's loop, step by step: the turn's tools, the planner's step (for a
backend that asks for one), the history fitted to the context window, the request streamed through the
call adapter, a cut-off reply continued once.

Everything here talks to the backend of the moment: after a switch of models the agent builds a new
`ModelTurn` (compaction included), so nothing keeps asking the old model.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Protocol

from asi_agent.agentconfig import AgentConfig
from asi_agent.backends.base import Backend, ToolSchema
from asi_agent.backends.guide import TurnPlan
from asi_agent.calls.adapter import CallAdapter
from asi_agent.context import ContextKeeper
from asi_agent.context.keeper import Reason
from asi_agent.cutoff import CutOffGuard, CutOffStop
from asi_agent.events import AgentEvent, AssistantReplied, ContextCompacted, RetryRequested
from asi_agent.exceptions import ContextOverflowError
from asi_agent.messages import Completion, Message, Usage
from asi_agent.routing import routed_schemas
from asi_agent.session import Session
from asi_agent.skills.session import SKILLS_KEY
from asi_agent.streaming import streamed
from asi_agent.toolrun import ToolRunner

log = logging.getLogger("asi_agent.agent")

__all__ = ["ModelTurn", "TurnPlanner"]


class TurnPlanner(Protocol):
    """A planner the loop asks before each request (grounding, `asi_agent.grounding.Planner`)."""

    name: str

    async def plan(self, messages: Sequence[Message], tools: Sequence[ToolSchema] | None) -> TurnPlan | None:
        """The plan of the next turn, or None (nothing to narrow)."""
        ...

    def written(self, plan: TurnPlan) -> Completion | None:
        """The reply the planner writes itself (the plan leaves only one), marked runtime-written."""
        ...

    def judge(self, messages: Sequence[Message], reply: Completion) -> Completion:
        """The reply, or the runtime's honest STOP in place of an answer that rests on nothing."""
        ...


class ModelTurn:
    """The request step of one agent over one backend (see the module docstring)."""

    def __init__(
        self,
        calls: CallAdapter,
        context: ContextKeeper,
        session: Session,
        *,
        planner: TurnPlanner | None,
        tools: Callable[[Sequence[Message]], Awaitable[list[ToolSchema]]],
    ) -> None:
        self.calls, self.context, self.session, self.planner = calls, context, session, planner
        self._tools = tools
        self._usage = Usage()
        self.cutoffs = CutOffGuard()
        self.continuing = False
        """The reply being continued was cut for repeating itself."""
        self._requested: tuple[str, str] | None = None  # the last system text and tools recorded

    @classmethod
    def over(
        cls,
        backend: Backend,
        runner: ToolRunner,
        session: Session,
        config: AgentConfig,
        planner: TurnPlanner | None,
    ) -> ModelTurn:
        """The request step of an agent over `backend`: its call adapter, context keeper and planner."""
        calls = CallAdapter(
            backend,
            tool_mode=config.tool_mode,
            call_format=config.call_format,
            chat_template=config.chat_template,
            records=session.records(),
            max_retries=0,  # the loop asks again itself, keeping the retry in the transcript
            on_learned=lambda name: session.append("call_format", call_format=name),
            on_switched=lambda why: session.append("mode", tool_mode="text", reason=why),
        )
        writes = frozenset(spec.name for spec in runner.registry if spec.risk == "write")
        context = ContextKeeper(calls, config.context, state_dir=runner.ctx.state_dir, writes=writes)

        async def tools(messages: Sequence[Message]) -> list[ToolSchema]:
            """The tools offered this turn (routed among many plugin tools; only `offered` when set)."""
            schemas = await routed_schemas(
                runner.registry, messages, locale=config.locale, config=config.routing
            )
            if config.offered:
                schemas = [s for s in schemas if s["function"]["name"] in config.offered]
            if (skills := runner.ctx.state.get(SKILLS_KEY)) is not None:
                schemas = await skills.turn_schemas(schemas, messages)
            return schemas

        return cls(calls, context, session, planner=planner, tools=tools)

    async def fit(
        self, system: str, messages: list[Message], reason: Reason, *, task: str
    ) -> ContextCompacted | None:
        """Fit the history of `task` to the window now (`request`: the person's `/compact`)."""
        tools = await self._tools(messages)
        plan = await self.planner.plan(messages, tools) if self.planner else None
        return await self.context.refit(
            messages, self.session, system, tools, task=task, reason=reason, plan=plan
        )

    def spent(self) -> Usage:
        """The tokens of the requests since the last time this was asked."""
        spent, self._usage = self._usage, Usage()
        return spent

    async def request(
        self,
        system: Message,
        messages: list[Message],
        add: Callable[[Message], None],
        *,
        turn: int,
        task: str,
    ) -> AsyncIterator[AgentEvent | Completion]:
        """One model request, streaming text; the reply comes last.

        The history is fitted to the context window first; an overflow the server reports anyway leads
        to one forced compaction and a retry. A cut-off reply is continued once (nothing of it runs) or
        raises `CutOffStop`.
        """
        overflowed = False
        while True:
            tools = await self._tools(messages)
            plan = await self.planner.plan([system, *messages], tools) if self.planner else None
            reason: Reason = "overflow" if overflowed else "budget"
            compacted = await self.context.refit(
                messages, self.session, system.content, tools, task=task, reason=reason, plan=plan
            )
            if compacted:
                yield compacted
                plan = await self.planner.plan([system, *messages], tools) if self.planner else None
            self._record(system.content, tools)
            try:
                reply = Completion("")
                async for piece in self._reply([system, *messages], tools, plan):
                    if isinstance(piece, Completion):
                        reply = piece
                    else:
                        yield piece
            except ContextOverflowError:
                if overflowed:
                    raise
                log.info("the server reported a context overflow; compacting and retrying once")
                overflowed = True
                self.context.distrust()
                continue
            self._observe(reply)
            if (cut := self.cutoffs.judge(reply)) is None:
                yield reply
                return
            add(Message("assistant", reply.text))
            yield AssistantReplied(messages[-1], turn, reply.usage)
            if cut.prompt is None:
                raise CutOffStop(cut.message)
            # An answer continued after the token limit is whole (both parts make the result); one cut
            # for repeating itself is not evidence of anything, however its continuation ends.
            self.continuing = cut.reason == "repetition"
            add(Message("user", cut.prompt, origin="runtime", note="cut_off"))
            yield RetryRequested(cut.message, 1, "cut_off")

    async def _reply(
        self, wire: list[Message], tools: list[ToolSchema], plan: TurnPlan | None
    ) -> AsyncIterator[AgentEvent | Completion]:
        """The planner's own reply when it leaves one, else the model's (judged by the planner)."""
        if self.planner is not None and plan is not None:
            written = self.planner.written(plan)
            if written is not None:
                self.session.append("planned", planner=self.planner.name, written=True)
                yield self.planner.judge(wire, written)
                return
        async for piece in streamed(self.calls, wire, tools, plan):
            judged = piece
            if isinstance(piece, Completion) and self.planner is not None and plan is not None:
                judged = self.planner.judge(wire, piece)
            yield judged

    def _observe(self, reply: Completion) -> None:
        self.context.observe(reply.usage)
        self._usage += reply.usage
        self.session.append(
            "usage",
            prompt_tokens=reply.usage.prompt_tokens,
            completion_tokens=reply.usage.completion_tokens,
            context_left=self.context.context_left,
        )

    def _record(self, system: str, tools: list[ToolSchema]) -> None:
        """Keep the system text and tool schemas this request sends, when they differ from the last ones
        kept: training data exported from the session shows the model exactly what it saw."""
        sent = self.calls.system_text(system, tools)
        key = (sent, json.dumps(tools, ensure_ascii=False, sort_keys=True))
        if self._requested != key:
            self._requested = key
            self.session.append("request", system=sent, tools=tools, tool_mode=self.calls.mode)
