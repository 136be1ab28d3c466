"""The agent loop: plan → tool → summary, ending on an `AGENT_STATUS` line (spec §4.5).

The loop depends on Protocols and components passed in; it yields typed events and prints nothing.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence

from asi_agent.agentconfig import AgentConfig
from asi_agent.backends.base import Backend
from asi_agent.bounds import LoopBreaker
from asi_agent.calling import run_calls
from asi_agent.calls import parse_status, strip_status
from asi_agent.context import ContextKeeper
from asi_agent.cutoff import CutOffStop
from asi_agent.events import (
    AgentEvent,
    AssistantReplied,
    Check,
    ContextCompacted,
    Ending,
    RetryRequested,
    RunFinished,
    SessionStarted,
    StatusDecided,
)
from asi_agent.exceptions import BackendError
from asi_agent.gate import Gate
from asi_agent.memo import LastValue
from asi_agent.messages import Completion, Image, Message, NoteKind, Usage
from asi_agent.modelturn import ModelTurn, TurnPlanner
from asi_agent.session import Session
from asi_agent.session.repair import closing_messages
from asi_agent.skills.session import SKILLS_KEY
from asi_agent.toolrun import Outcome, Prepared, ToolRunner, prepare_reply
from asi_agent.tools.files.syntax import file_syntax_error
from asi_agent.verify import Verifier
from asi_agent.wire import CONTINUE_PROMPT, unparsed_text

log = logging.getLogger("asi_agent.agent")

__all__ = ["Agent", "AgentConfig", "PlannerFor"]

PlannerFor = Callable[[Backend], TurnPlanner | None]
"""The planner (grounding) of a run on a backend; None when the backend does not ask for one."""


class Agent:
    """Runs one task (or continues a session) to DONE, STOP, an error or the turn limit."""

    def __init__(
        self,
        backend: Backend,
        runner: ToolRunner,
        session: Session,
        system: str,
        config: AgentConfig,
        *,
        planner: PlannerFor | None = None,
    ) -> None:
        self.runner, self.session, self.config, self.system = runner, session, config, system
        self.planner_for = planner
        # The same system message object while its text stays the same: the backends' wire encoding
        # knows the unchanged history by identity and does not look at it again.
        self._system_message: LastValue[str, Message] = LastValue(lambda text: Message("system", text))
        self.messages: list[Message] = session.messages()
        self.usage = Usage()
        self.gate = Gate(config.gate, runner.ctx, session)
        self.loops = LoopBreaker(config.repeat_limit)
        self.verifier: Verifier | None = None
        self._guarded_before, self.task = 0, ""
        self.images: tuple[Image, ...] = ()
        """Images the next run's request carries (an `@image.png`, an editor's image); taken by that run."""
        self.use(backend)

    def use(self, backend: Backend) -> None:
        """Talk to `backend` from the next request on: calls, planner and compaction all switch to it."""
        self.backend = backend
        planner = self.planner_for(backend) if self.planner_for is not None else None
        self.gate.guide(planner is not None)  # a planned run makes a call once (until a change)
        self.turns = ModelTurn.over(backend, self.runner, self.session, self.config, planner)
        self.turns.context.before_compact = self._before_compact
        self.calls = self.turns.calls

    async def _before_compact(self, trigger: str) -> None:
        """`PreCompact` (`manual` or `auto`), with the hooks the agent has when it compacts."""
        if self.config.hooks is not None:
            await self.config.hooks.pre_compact(trigger)

    @property
    def context(self) -> ContextKeeper:
        """What keeps the history within the current model's window."""
        return self.turns.context

    @property
    def sandbox_kind(self) -> str | None:
        """What contains the commands the run starts ("bubblewrap"), None when nothing does."""
        return self.runner.ctx.sandbox_kind

    def run(self, task: str) -> AsyncIterator[AgentEvent]:
        """Run the task through the configured hooks, yielding events; the last is always `RunFinished`."""
        hooks = self.config.hooks
        return self.loop(task) if hooks is None else hooks.around(self, task)

    async def loop(self, task: str) -> AsyncIterator[AgentEvent]:
        """Run the loop itself (no hooks), yielding events; the last event is always `RunFinished`."""
        started = await self._start(task)
        yield started
        verifier = self.verifier
        assert verifier is not None
        retries, last_text = 0, ""
        for turn in range(1, self.config.max_turns + 1):
            reply, system = Completion(""), self._system_message(self.system)
            try:
                async for piece in self.turns.request(
                    system, self.messages, self._add, turn=turn, task=self.task
                ):
                    if isinstance(piece, Completion):
                        reply = piece
                        continue
                    yield piece
            except (BackendError, CutOffStop) as exc:
                stop = isinstance(exc, CutOffStop)
                yield self._finish("STOP" if stop else "ERROR", str(exc), turn, error=str(exc))
                return
            self.usage += self.turns.spent()
            message, prepared = prepare_reply(self.runner, reply)
            self._add(message)
            verifier.answer_cut = self.turns.continuing and not message.tool_calls
            self.turns.continuing = False
            last_text = strip_status(self.turns.cutoffs.whole(message.content))
            left = self.context.context_left
            yield AssistantReplied(message, turn, reply.usage, turn == 1 and not started.resumed, left)
            if reply.retry and retries < self.config.max_text_retries:
                retries += 1
                yield self._retry(reply.retry, reply.retry_prompt, "text", retries)
                continue
            retries = 0
            if message.tool_calls:
                async for event in self._tool_turn(prepared, reply.problems):
                    yield event
                if self.loops.reason:
                    yield self._finish("STOP", self.loops.reason, turn)
                    return
                continue
            status = parse_status(message.content) or "DONE"
            async for event in verifier.before_done(status, last_text, self.gate, self.runner):
                yield event
            checks = verifier.ending_checks(status)
            if retry := self._unearned(verifier, checks):
                yield retry
                continue
            status, last_text = verifier.settled(status, last_text, checks)
            self.session.append("status", status=status, turn=turn)
            yield StatusDecided(status, turn)
            if status != "CONTINUE":
                yield self._finish(status, last_text, turn, checks=checks)
                return
            self._add(Message("user", CONTINUE_PROMPT, origin="runtime", note="continue"))
        yield self._finish("MAX_TURNS", last_text, self.config.max_turns)

    async def _start(self, task: str) -> SessionStarted:
        """Begin a run of `task`: the tool mode decided, the task added, its checks set up."""
        mode = await self.calls.decide()
        resumed = bool(self.messages)
        self.session.append("run", task=task, tool_mode=mode, model=self.backend.model_name)
        skills = self.runner.ctx.state.get(SKILLS_KEY)  # `/NAME`, or a skill the router takes, is loaded
        text = await skills.expand(task) if skills is not None else task
        self._add(Message("user", text, images=self.images))
        self.images = ()
        self.task = task
        self.loops = LoopBreaker(self.config.repeat_limit)  # a chat's next message starts afresh
        self.gate.new_run()
        ctx = self.runner.ctx
        owner = ctx.session_id or self.session.id  # a child agent's changes are journaled as its parent's
        parses, verify = file_syntax_error, self.config.verify
        self.verifier = Verifier.start(task, ctx.root, ctx.journal, owner, parses, verify)
        self.verifier.planning = self.gate.config.approval == "plan"
        self._guarded_before = ctx.guarded_edits
        return SessionStarted(self.session.id, self.backend.model_name, mode, resumed)

    def _retry(self, reason: str, prompt: str, kind: NoteKind, attempt: int) -> RetryRequested:
        """Ask the model again: the runtime's turn, kept with its kind."""
        log.info("retry %d (%s): %s", attempt, kind, reason)
        self.session.append("retry", reason=reason, attempt=attempt, note=kind)
        self._add(Message("user", prompt, origin="runtime", note=kind))
        return RetryRequested(reason, attempt, kind)

    def _unearned(self, verifier: Verifier, checks: tuple[Check, ...] | None) -> RetryRequested | None:
        """A DONE the checks do not back: the model is told once per failed check (then `settled` ends
        the run STOP)."""
        failed = [check for check in checks or () if check.required and not check.ok]
        if not {check.name for check in failed} - verifier.nagged:
            return None
        verifier.nagged.update(check.name for check in failed)
        note = verifier.nag_text(failed)
        return self._retry(note, note, "checks", 1)

    async def _tool_turn(
        self, prepared: Sequence[Prepared | Outcome], problems: Sequence[str]
    ) -> AsyncIterator[AgentEvent]:
        """Run a reply's calls, unless they go on a loop (then `self.loops.reason` says why the run ends)."""
        screened, runner, session = self.loops.screen(prepared), self.runner, self.session
        calls = run_calls(
            screened, gate=self.gate, runner=runner, session=session, verifier=self.verifier, add=self._add
        )
        async for event in calls:
            self.loops.observe(event)
            yield event
        if problems and not self.loops.reason:  # the good calls ran; say which fragments did not
            self._add(Message("user", unparsed_text(problems), origin="runtime", note="unparsed"))

    def interrupted(self, partial: str = "") -> None:
        """The person stopped the turn: keep the partial reply and close unfinished calls (resumable)."""
        for message in closing_messages(self.messages, partial):
            self._add(message)
        self.session.append("interrupted", partial=partial)

    def _add(self, message: Message) -> None:
        self.messages.append(message)
        self.session.add_message(message)

    async def compact(self) -> ContextCompacted | None:
        """Summarise the older turns now (the UI's `/compact`); None when there was nothing to compact."""
        return await self.turns.fit(self.system, self.messages, "request", task=self.task)

    def _finish(
        self,
        status: Ending,
        result: str,
        turns: int,
        error: str | None = None,
        *,
        checks: tuple[Check, ...] | None = None,
    ) -> RunFinished:
        """End the run; `checks` are the ending's, when they were just worked out."""
        self.usage += self.turns.spent()
        verifier, sandbox, usage = self.verifier, self.sandbox_kind, self.usage
        if checks is None:
            checks = verifier.checks() if verifier is not None else ()
        verified = status == "DONE" and bool(checks) and all(check.ok for check in checks)
        guarded = self.runner.ctx.guarded_edits - self._guarded_before
        baseline = verifier.baseline if verifier is not None else None
        kept = {"checks": [check.to_dict() for check in checks], "guarded_edits": guarded}
        kept["baseline"] = baseline.to_dict() if baseline is not None else None
        ending = {"status": status, "result": result, "turns": turns, "error": error, "verified": verified}
        self.session.append("finished", **ending, **kept, sandbox=sandbox)
        return RunFinished(status, result, turns, usage, error, verified, checks, guarded, sandbox, baseline)
