"""The agent loop: plan → tool → summary, ending on an `AGENT_STATUS` line (spec §4.5).

The loop depends on Protocols and components passed in; it yields typed events and prints nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from asi_agent.backends.base import Backend, ToolSchema
from asi_agent.bounds import DEFAULT_REPEAT_LIMIT, LoopBreaker
from asi_agent.calls import ParsedReply, parse_reply, parse_status, strip_status, textmode
from asi_agent.calls.style import CallStyle
from asi_agent.calls.template import CallShape
from asi_agent.calls.template.source import shape_for
from asi_agent.config import ToolMode
from asi_agent.context import ContextConfig, ContextKeeper
from asi_agent.context.keeper import Reason
from asi_agent.cutoff import CutOffGuard, CutOffStop
from asi_agent.events import (
    AgentEvent,
    AssistantReplied,
    CallRejected,
    Check,
    ContextCompacted,
    Ending,
    RetryRequested,
    RunFinished,
    SessionStarted,
    StatusDecided,
    ToolFinished,
    ToolStarted,
)
from asi_agent.exceptions import BackendError, ContextOverflowError, ToolsUnsupportedError
from asi_agent.gate import Gate, GateConfig
from asi_agent.memo import LastValue
from asi_agent.messages import Completion, Message, Usage
from asi_agent.routing import RoutingConfig, routed_schemas
from asi_agent.session import Session
from asi_agent.session.repair import closing_messages
from asi_agent.streaming import streamed
from asi_agent.toolrun import Outcome, Prepared, ToolRunner, batches, prepare_reply
from asi_agent.tools.files.syntax import checked_language, syntax_error
from asi_agent.verify import Verifier, nag_text

log = logging.getLogger("asi_agent.agent")

__all__ = ["Agent", "AgentConfig"]

CONTINUE_PROMPT = "Continue with the next step of the task."


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentConfig:
    """How one run is bounded and gated."""

    max_turns: int = 30
    tool_mode: ToolMode = "auto"
    gate: GateConfig = field(default_factory=GateConfig)
    """Approval mode, policy, and whether somebody can answer questions."""
    max_text_retries: int = 2
    locale: str = "en"
    offered: tuple[str, ...] = ()
    """When set, only these tools are described to the model (others still run when named)."""
    routing: RoutingConfig = field(default_factory=RoutingConfig)
    """When many plugin tools are registered, offer each turn only the relevant ones."""
    call_format: str = "auto"
    """Text mode's call dialect: "auto" (from the model name, then the first reply) or a dialect name."""
    context: ContextConfig = field(default_factory=ContextConfig)
    """The model's context window and how much of it the reply keeps."""
    repeat_limit: int = DEFAULT_REPEAT_LIMIT
    """The same call with the same result this many times in a row ends the run with STOP."""
    chat_template: str | None = None
    """The model's chat template (`--chat-template`); None asks the backend. Calls are read in the form
    it renders them first."""


class Agent:
    """Runs one task (or continues a session) to DONE, STOP, an error or the turn limit."""

    def __init__(
        self, backend: Backend, runner: ToolRunner, session: Session, system: str, config: AgentConfig
    ) -> None:
        self.backend, self.runner, self.session, self.config = backend, runner, session, config
        self.system = system
        # The same system message object while its text stays the same: the backends' wire encoding
        # knows the unchanged history by identity and does not look at it again.
        self._system_message: LastValue[str, Message] = LastValue(lambda text: Message("system", text))
        self.messages: list[Message] = session.messages()
        self.usage = Usage()
        self.native = config.tool_mode != "text"
        self.gate = Gate(config.gate, runner.ctx, session)
        self.style = CallStyle.choose(config.call_format, backend.model_name, session.records())
        self.shape: CallShape | None = None
        self._shape: asyncio.Future[CallShape | None] | None = None
        self.schemas: list[ToolSchema] = []
        writes = frozenset(spec.name for spec in runner.registry if spec.risk == "write")
        self.context = ContextKeeper(backend, config.context, state_dir=runner.ctx.state_dir, writes=writes)
        self.task = ""
        self.cutoffs = CutOffGuard()
        self.loops = LoopBreaker(config.repeat_limit)
        self.verifier: Verifier | None = None
        self._continuing = False  # the next reply continues one cut for repetition
        self._guarded_before = 0
        self._requested: tuple[str, str] | None = None  # the last system text and tools recorded

    @property
    def sandbox_kind(self) -> str | None:
        """What contains the commands the run starts ("bubblewrap"), None when nothing does."""
        return self.runner.ctx.sandbox_kind

    async def run(self, task: str) -> AsyncIterator[AgentEvent]:
        """Run the loop, yielding events; the last event is always `RunFinished`."""
        started = await self._start(task)
        resumed = started.resumed
        yield started
        verifier = self.verifier
        assert verifier is not None
        retries, last_text = 0, ""
        for turn in range(1, self.config.max_turns + 1):
            reply = Completion("")
            try:
                async for piece in self._complete(turn):
                    if not isinstance(piece, Completion):
                        yield piece
                    else:
                        reply = piece
            except (BackendError, CutOffStop) as exc:
                yield self._finish(
                    "STOP" if isinstance(exc, CutOffStop) else "ERROR", str(exc), turn, error=str(exc)
                )
                return
            parsed = await self._read(reply)
            message, prepared = prepare_reply(self.runner, reply, parsed)
            self._add(message)
            verifier.answer_cut = self._continuing and not message.tool_calls
            self._continuing = False
            last_text = strip_status(self.cutoffs.whole(message.content))
            left = self.context.context_left
            yield AssistantReplied(message, turn, reply.usage, turn == 1 and not resumed, left)
            if (retry := self._text_retry(reply, parsed, retries)) is not None:
                retries += 1
                yield retry
                continue
            retries = 0
            if message.tool_calls:
                async for event in self._tool_turn(prepared, parsed.problems):
                    yield event
                if self.loops.reason:
                    yield self._finish("STOP", self.loops.reason, turn)
                    return
                continue
            status = parse_status(message.content) or "DONE"
            checks = verifier.checks() if status == "DONE" else None
            if checks and (unearned := self._unearned(verifier, checks, last_text, turn)):
                yield unearned
                if isinstance(unearned, RunFinished):
                    return
                continue
            self.session.append("status", status=status, turn=turn)
            yield StatusDecided(status, turn)
            if status != "CONTINUE":
                yield self._finish(status, last_text, turn, checks=checks)
                return
            self._add(Message("user", CONTINUE_PROMPT))
        yield self._finish("MAX_TURNS", last_text, self.config.max_turns)

    async def _start(self, task: str) -> SessionStarted:
        """Begin a run of `task`: the tool mode decided, the task added, its checks set up."""
        if self.config.tool_mode == "auto":
            self.native = await self.backend.supports_native_tools()
        # The call shape is learned from the chat template beside the first request (reading a GGUF's
        # header and rendering the template take ~0.1 s), not before it: it is needed once a reply is read.
        self._shape = asyncio.ensure_future(shape_for(self.backend, self.config.chat_template))
        resumed = bool(self.messages)
        self.session.append("run", task=task, tool_mode=self._mode(), model=self.backend.model_name)
        self._add(Message("user", task))
        self.task = task
        self.loops = LoopBreaker(self.config.repeat_limit)  # a chat's next message starts afresh
        self.gate.new_run()
        ctx = self.runner.ctx
        self.verifier = Verifier.start(task, ctx.root, ctx.journal, self.session.id, _parses)
        self.verifier.planning = self.gate.config.approval == "plan"
        self._guarded_before = ctx.guarded_edits
        return SessionStarted(self.session.id, self.backend.model_name, self._mode(), resumed)

    async def _read(self, reply: Completion) -> ParsedReply:
        """`_parse`, once the call shape learned beside the first request is there."""
        if self._shape is not None:
            self.shape, self._shape = await self._shape, None
        return self._parse(reply)

    def _parse(self, reply: Completion) -> ParsedReply:
        """The reply's calls; in text mode, the dialect they were written in is learnt."""
        parsed = parse_reply(reply.text, self.schemas, hint=self.style.hint, shape=self.shape)
        if not self.native and self.style.learn(parsed):
            self.session.append("call_format", call_format=self.style.name)
        return parsed

    def _text_retry(self, reply: Completion, parsed: ParsedReply, retries: int) -> RetryRequested | None:
        """In text mode, a reply whose calls could not be read is asked again (a few times per run)."""
        reason = None if self.native else textmode.retry_reason(reply.text, parsed, expect_call=False)
        if not reason or retries >= self.config.max_text_retries:
            return None
        log.info("text mode retry %d: %s", retries + 1, reason)
        self.session.append("retry", reason=reason, attempt=retries + 1)
        self._add(Message("user", self.style.retry_prompt(reason)))
        return RetryRequested(reason, retries + 1)

    def _unearned(
        self, verifier: Verifier, checks: tuple[Check, ...], last_text: str, turn: int
    ) -> RetryRequested | RunFinished | None:
        """A DONE the checks do not back: the model is told once per failed check, then the run ends STOP."""
        failed = [check for check in checks if check.required and not check.ok]
        if not failed:
            return None
        if {check.name for check in failed} - verifier.nagged:
            verifier.nagged.update(check.name for check in failed)
            note = nag_text(failed)
            self.session.append("retry", reason=note, attempt=1)
            self._add(Message("user", note))
            return RetryRequested(note, 1)
        reasons = "; ".join(f"{check.name}: {check.detail}" for check in failed)
        return self._finish("STOP", f"Not verified ({reasons}). {last_text}".strip(), turn, checks=checks)

    async def _tool_turn(
        self, prepared: Sequence[Prepared | Outcome], problems: Sequence[str]
    ) -> AsyncIterator[AgentEvent]:
        """Run a reply's calls, unless they go on a loop (then `self.loops.reason` says why the run ends)."""
        async for event in self._run_calls(self.loops.screen(prepared)):
            self.loops.observe(event)
            yield event
        if problems and not self.loops.reason:  # the good calls ran; say which fragments did not
            self._add(Message("user", "Not run, could not be parsed: " + "; ".join(problems)))

    def interrupted(self, partial: str = "") -> None:
        """The person stopped the turn: keep the partial reply and close unfinished calls (resumable)."""
        for message in closing_messages(self.messages, partial):
            self._add(message)
        self.session.append("interrupted", partial=partial)

    def _mode(self) -> Literal["native", "text"]:
        return "native" if self.native else "text"

    def _add(self, message: Message) -> None:
        self.messages.append(message)
        self.session.add_message(message)

    async def compact(self) -> ContextCompacted | None:
        """Summarise the older turns now (the UI's `/compact`); None when there was nothing to compact."""
        return await self._fit(await self._schemas(), "request")

    async def _schemas(self) -> list[ToolSchema]:
        schemas = await routed_schemas(
            self.runner.registry, self.messages, locale=self.config.locale, config=self.config.routing
        )
        if self.config.offered:
            schemas = [s for s in schemas if s["function"]["name"] in self.config.offered]
        return schemas

    async def _fit(self, schemas: list[ToolSchema], reason: Reason) -> ContextCompacted | None:
        system, tools = self._wire_messages(schemas)[0].content, schemas if self.native else None
        return await self.context.refit(
            self.messages, self.session, system, tools, task=self.task, reason=reason
        )

    async def _complete(self, turn: int) -> AsyncIterator[AgentEvent | Completion]:
        """One model request, streaming text; in `auto` mode a rejection of native tools switches to text.

        The history is fitted to the context window first; an overflow the server reports anyway leads
        to one forced compaction and a retry. A cut-off reply is continued once (nothing of it runs) or
        raises `CutOffStop`.
        """
        overflowed = False
        while True:
            schemas = await self._schemas()
            self.schemas = schemas
            if compacted := await self._fit(schemas, "overflow" if overflowed else "budget"):
                yield compacted
            reply = Completion("")
            wire = self._wire_messages(schemas)
            self._record_request(wire[0].content, schemas)
            try:
                async for piece in streamed(self.backend, wire, schemas if self.native else None):
                    if isinstance(piece, Completion):
                        reply = piece
                    else:
                        yield piece
            except ToolsUnsupportedError as exc:
                if self.config.tool_mode != "auto" or not self.native:
                    raise
                log.warning("asi-agent: warning: %s; switching to text mode", exc)
                self.session.append("mode", tool_mode="text", reason=str(exc))
                self.native = False
                continue
            except ContextOverflowError:
                if overflowed:
                    raise
                log.info("the server reported a context overflow; compacting and retrying once")
                overflowed = True
                self.context.distrust()
                continue
            self.context.observe(reply.usage)
            self.usage += reply.usage
            self.session.append(
                "usage",
                prompt_tokens=reply.usage.prompt_tokens,
                completion_tokens=reply.usage.completion_tokens,
                context_left=self.context.context_left,
            )
            if (cut := self.cutoffs.judge(reply)) is None:
                yield reply
                return
            self._add(Message("assistant", reply.text))
            yield AssistantReplied(self.messages[-1], turn, reply.usage)
            if cut.prompt is None:
                raise CutOffStop(cut.message)
            # An answer continued after the token limit is whole (both parts make the result); one cut
            # for repeating itself is not evidence of anything, however its continuation ends.
            self._continuing = cut.reason == "repetition"
            self._add(Message("user", cut.prompt))
            yield RetryRequested(cut.message, 1)

    def _record_request(self, system: str, schemas: list[ToolSchema]) -> None:
        """Keep the system text and tool schemas this request sends, when they differ from the last ones
        kept: training data exported from the session shows the model exactly what it saw."""
        tools = json.dumps(schemas, ensure_ascii=False, sort_keys=True)
        if self._requested != (system, tools):
            self._requested = (system, tools)
            self.session.append("request", system=system, tools=schemas, tool_mode=self._mode())

    def _wire_messages(self, schemas: list[ToolSchema]) -> list[Message]:
        if self.native:
            return [self._system_message(self.system), *self.messages]
        contract = self.style.contract(schemas)
        return [self._system_message(f"{self.system}\n\n{contract}"), *self.style.history(self.messages)]

    async def _run_calls(self, items: Sequence[Prepared | Outcome]) -> AsyncIterator[AgentEvent]:
        """Gate every call, run the allowed ones (consecutive reads concurrently), feed results back."""
        gated: list[Prepared | Outcome] = []
        for item in items:
            if isinstance(item, Outcome):
                yield CallRejected(item.call.id, item.call.name, item.output)
                gated.append(item)
                continue
            async for event in self.gate.check(item):
                if isinstance(event, Outcome | Prepared):
                    gated.append(event)
                else:
                    yield event
        for batch in batches(gated):
            for item in batch:
                yield ToolStarted(item.call)
            if self.verifier is not None and any(_runs_commands(item) for item in batch):
                self.verifier.before_command()
            for outcome in await asyncio.gather(*(self._execute(item) for item in batch)):
                # kept at once, so a turn interrupted later still has this result
                self.session.append(
                    "result",
                    call=outcome.call.to_dict(),
                    ok=outcome.ok,
                    changed_files=list(outcome.changed_files),
                )
                self._add(
                    Message("tool", outcome.content(), tool_call_id=outcome.call.id, name=outcome.call.name)
                )
                finished = ToolFinished(
                    outcome.call, outcome.ok, outcome.output, outcome.error, outcome.changed_files
                )
                if self.verifier is not None:
                    self.verifier.observe(finished)
                yield finished

    async def _execute(self, item: Prepared | Outcome) -> Outcome:
        if isinstance(item, Outcome):
            return item
        outcome = await self.runner.execute(item)
        if outcome.changed_files:
            self.gate.changed_files()
        return outcome

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
        if checks is None:
            checks = self.verifier.checks() if self.verifier is not None else ()
        verified = status == "DONE" and bool(checks) and all(check.ok for check in checks)
        guarded = self.runner.ctx.guarded_edits - self._guarded_before
        self.session.append(
            "finished",
            status=status,
            result=result,
            turns=turns,
            error=error,
            verified=verified,
            checks=[check.to_dict() for check in checks],
            guarded_edits=guarded,
            sandbox=self.sandbox_kind,
        )
        return RunFinished(
            status, result, turns, self.usage, error, verified, checks, guarded, self.sandbox_kind
        )


def _runs_commands(item: Prepared | Outcome) -> bool:
    """Whether a call about to run may change files other than through the edit tools' journal."""
    return isinstance(item, Prepared) and item.spec.risk == "execute"


def _parses(path: str, text: str) -> str | None:
    """Why a changed file's text does not parse, or None (the edit guard's parsers)."""
    return syntax_error(text, checked_language(path))
