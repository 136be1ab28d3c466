"""Turning one parsed call into a result: name resolution, validation, execution, changed files."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from asi_agent.backends.base import Backend
from asi_agent.calls import new_call_id, normalize_native
from asi_agent.events import AgentEvent, ToolFinished
from asi_agent.exceptions import CallFormatError, ModelFixableError, ToolError
from asi_agent.messages import Completion, Message, ToolCall
from asi_agent.tools.base import ToolArgs, ToolContext, ToolSpec
from asi_agent.tools.registry import ToolRegistry
from asi_agent.wire import ResultKind, refusal_text, tool_text

if TYPE_CHECKING:
    from asi_agent.hooks import Hooks

__all__ = [
    "CURRENT_CALL", "RELAY_KEY", "BackendModel", "Outcome", "Prepared", "Relay", "ToolRunner", "batches",
    "prepare_reply",
]  # fmt: skip

CURRENT_CALL: ContextVar[ToolCall | None] = ContextVar("asi_agent_current_call", default=None)
"""The call a tool function runs for (a `task` call nests its child's events under it)."""
RELAY_KEY = "asi_agent.relay"
"""The `ctx.state` key of the runner's `Relay`."""


@dataclass(frozen=True, slots=True)
class Prepared:
    """A call whose tool exists and whose arguments validated."""

    call: ToolCall
    spec: ToolSpec
    args: ToolArgs


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a call produced, as the model and the UI see it."""

    call: ToolCall
    ok: bool
    output: str
    changed_files: tuple[str, ...] = ()
    kind: ResultKind | None = None
    """How the call ended; None: "ok" or "error", as `ok` says."""
    error_kind: str | None = None
    """A failed call's model-fixable error kind (the exception's class name)."""

    @property
    def result(self) -> ResultKind:
        """How the call ended: ok, error, refused or interrupted."""
        return self.kind or ("ok" if self.ok else "error")

    @property
    def error(self) -> str | None:
        """The error text, for failed calls."""
        return None if self.ok else self.output

    def message(self) -> Message:
        """The tool message sent back to the model (its text rendered by `asi_agent.wire`)."""
        content = tool_text(self.result, self.output)
        call = self.call
        return Message(
            "tool",
            content,
            tool_call_id=call.id,
            name=call.name,
            outcome=self.result,
            error_kind=self.error_kind,
        )

    def finished(self) -> ToolFinished:
        """The event that reports this outcome."""
        return ToolFinished(
            self.call, self.ok, self.output, self.error, self.changed_files, self.result, self.error_kind
        )


class ToolRunner:
    """Validates and runs calls against one registry and one project."""

    def __init__(self, registry: ToolRegistry, ctx: ToolContext) -> None:
        self.registry = registry
        self.ctx = ctx
        self.before_change: Callable[[], Awaitable[None]] | None = None
        """Awaited before every write or execute call runs (e.g. a git checkpoint, once per task)."""
        self.hooks: Hooks | None = None
        """The `PostToolUse` hooks, which see every result (and may add to what the model reads)."""
        self.relay = Relay()
        ctx.state[RELAY_KEY] = self.relay

    def prepare(self, call: ToolCall) -> Prepared:
        """Resolve the tool name and validate the arguments; raises a ModelFixableError."""
        spec = self.registry.get(self.registry.resolve_name(call.name))
        args = self.registry.validate(spec.name, call.arguments)
        normal = ToolCall(call.id, spec.name, args.model_dump(exclude_unset=True))
        if spec.classify is not None:
            spec = replace(spec, risk=spec.classify(args))
        return Prepared(normal, spec, args)

    async def execute(self, prepared: Prepared) -> Outcome:
        """Run a prepared call; model-fixable failures become failed outcomes, bugs propagate."""
        if prepared.spec.run is None:
            return Outcome(
                prepared.call, False, f"{prepared.spec.name} is not available in this version of asi-agent"
            )
        if self.before_change is not None and prepared.spec.risk in ("write", "execute"):
            await self.before_change()
        mark = self.ctx.journal.last_seq()
        CURRENT_CALL.set(prepared.call)
        try:
            output = await prepared.spec.run(prepared.args, self.ctx)
        except ModelFixableError as exc:
            changed = self._changed_since(mark)
            outcome = Outcome(prepared.call, False, str(exc), changed, error_kind=type(exc).__name__)
        else:
            outcome = Outcome(prepared.call, True, output, self._changed_since(mark))
        return outcome if self.hooks is None else await self.hooks.after_tool(outcome, prepared)

    def _changed_since(self, mark: int) -> tuple[str, ...]:
        return tuple(dict.fromkeys(entry.path for entry in self.ctx.journal.since(mark)))


class Relay:
    """Events of work a call does for the agent (a child agent's), passed on while the call runs."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[AgentEvent] = asyncio.Queue()

    def put(self, event: AgentEvent) -> None:
        """Pass an event on (the agent yields it at once, while the call goes on)."""
        self._queue.put_nowait(event)

    async def until(self, work: asyncio.Future[Any]) -> AsyncIterator[AgentEvent]:
        """The events put while `work` runs; `work` is cancelled if the caller stops listening."""
        getter: asyncio.Future[AgentEvent] | None = None
        try:
            while True:
                getter = asyncio.ensure_future(self._queue.get())
                await asyncio.wait({getter, work}, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    yield getter.result()
                    continue
                getter.cancel()
                while not self._queue.empty():
                    yield self._queue.get_nowait()
                return
        finally:
            if getter is not None and not getter.done():
                getter.cancel()
            if not work.done():
                work.cancel()


def signature(call: ToolCall) -> str:
    """A key that is equal for identical calls, to detect repetition."""
    return call.name + json.dumps(call.arguments, sort_keys=True, ensure_ascii=False)


def refused(call: ToolCall, reason: str) -> Outcome:
    """The outcome of a call the policy or the person refused."""
    return Outcome(call, False, refusal_text(reason), kind="refused")


def rejected(call: ToolCall, error: ModelFixableError | ToolError) -> Outcome:
    """The outcome of a call that could not be prepared."""
    return Outcome(call, False, str(error), error_kind=type(error).__name__)


class BackendModel:
    """Gives tools plain-text access to the session's model (the `ModelAccess` of `ToolContext`)."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    async def ask(self, prompt: str, *, system: str | None = None) -> str:
        """One request without tools; the reply's text."""
        messages = [Message("system", system)] if system else []
        reply = await self.backend.complete([*messages, Message("user", prompt)], None)
        return reply.text


def prepare_reply(runner: ToolRunner, reply: Completion) -> tuple[Message, list[Prepared | Outcome]]:
    """The assistant message to keep, and each of the reply's calls prepared (or rejected, telling the
    model why). Calls the model wrote as text come here native too (`calls.adapter`)."""
    items: list[tuple[ToolCall, CallFormatError | None]] = []
    for raw in reply.native_calls:
        try:
            items.append((normalize_native(raw), None))
        except CallFormatError as exc:
            items.append((ToolCall(raw.id or new_call_id(), raw.name, {}), exc))
    prepared: list[Prepared | Outcome] = []
    for call, error in items:
        try:
            if error:
                raise error
            prepared.append(runner.prepare(call))
        except ModelFixableError as exc:
            prepared.append(rejected(call, exc))
    calls = tuple(call for call, _ in items)
    return Message("assistant", reply.text, calls, origin=reply.origin), prepared


def batches(items: Sequence[Prepared | Outcome]) -> list[list[Prepared | Outcome]]:
    """Group consecutive read-only calls so they run together; everything else runs alone, in order."""
    groups: list[list[Prepared | Outcome]] = []
    for item in items:
        is_read = isinstance(item, Prepared) and item.spec.risk == "read"
        if is_read and groups and all(isinstance(b, Prepared) and b.spec.risk == "read" for b in groups[-1]):
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups
