"""Typed events the agent yields; UIs render them, tests assert on them. Names are in the past tense."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Literal

from asi_agent.messages import Message, NoteKind, ResultKind, ToolCall, Usage

Status = Literal["DONE", "CONTINUE", "STOP"]
Ending = Literal["DONE", "STOP", "MAX_TURNS", "TIMEOUT", "ERROR"]
Answer = Literal["yes", "no", "always"]

__all__ = [
    "AgentEvent",
    "Answer",
    "ApprovalRequested",
    "AssistantReplied",
    "Baseline",
    "CallRejected",
    "Check",
    "ContextCompacted",
    "DecisionMade",
    "Ending",
    "ProgressReported",
    "ProgressSink",
    "ReasoningStreamed",
    "RetryRequested",
    "RunFinished",
    "SessionStarted",
    "Status",
    "StatusDecided",
    "SubagentEvent",
    "TextStreamed",
    "ToolFinished",
    "ToolProgress",
    "ToolProgressSink",
    "ToolStarted",
    "call_progress",
    "progress_sink",
    "report_progress",
    "tool_progress_sink",
]


@dataclass(frozen=True, slots=True)
class SessionStarted:
    session_id: str
    model: str
    tool_mode: Literal["native", "text"]
    resumed: bool = False


@dataclass(frozen=True, slots=True)
class TextStreamed:
    """A fragment of the assistant's reply as it streams."""

    delta: str


@dataclass(frozen=True, slots=True)
class ReasoningStreamed:
    """A fragment of what the model marked as thinking (`<think>…`, `reasoning_content`) as it streams.

    It is never parsed for calls and never sent back to the model."""

    delta: str


@dataclass(frozen=True, slots=True)
class AssistantReplied:
    """The assistant's whole reply for one turn (text without call markup, and its calls)."""

    message: Message
    turn: int
    usage: Usage
    is_plan: bool = False
    context_left: int | None = None
    """Tokens of the context window left after the request's prompt; None when the window is unknown."""


@dataclass(frozen=True, slots=True)
class ContextCompacted:
    """The history was made to fit the context window: results shrunk and/or older turns summarised."""

    tokens_before: int
    tokens_after: int
    shrunk: int
    """Tool results cut to head and tail (full text in `.asi/outputs/`)."""
    summarised: int
    """Messages replaced by one summary message (0: none)."""
    context_left: int | None
    reason: Literal["budget", "overflow", "request"] = "budget"
    """Why: the count said it would not fit, the server reported an overflow, or someone asked."""


@dataclass(frozen=True, slots=True)
class CallRejected:
    """A call that could not be parsed, named no tool, or had invalid arguments."""

    call_id: str
    name: str
    error: str


@dataclass(slots=True)
class ApprovalRequested:
    """The policy asks the person. The active UI resolves `answer`; with nobody to ask it is "no"."""

    call: ToolCall
    risk: str
    reason: str
    preview: str = ""
    rule: str = ""
    """What asked: a policy rule, "mode …" or the destructive-command classifier ("always": the mode's)."""
    note: str = ""
    """Set by the UI with a refusal: the person's reason, passed on to the model."""
    answer: asyncio.Future[Answer] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


@dataclass(frozen=True, slots=True)
class DecisionMade:
    """What the permission layer decided for a call, and who decided."""

    call: ToolCall
    action: Literal["allow", "deny"]
    reason: str
    by: Literal["policy", "person", "session", "hook"]
    rule: str = ""
    """What decided: a policy rule, the mode, the destructive-command classifier, the project boundary."""


@dataclass(frozen=True, slots=True)
class ToolStarted:
    call: ToolCall


@dataclass(frozen=True, slots=True)
class ToolProgress:
    """A running call's progress, as its tool reports it (an MCP server's progress notifications)."""

    call_id: str
    progress: float
    total: float | None = None
    """None: the tool does not know how much there is."""
    message: str = ""

    @property
    def detail(self) -> str:
        """The progress as every front end shows it: `40/100 · indexing`, `3`, `indexing`."""
        done = f"{self.progress:g}/{self.total:g}" if self.total else f"{self.progress:g}"
        return f"{done} · {self.message}" if self.message else done


@dataclass(frozen=True, slots=True)
class ToolFinished:
    call: ToolCall
    ok: bool
    output: str
    error: str | None = None
    changed_files: tuple[str, ...] = ()
    outcome: ResultKind | None = None
    """How the call ended; None: "ok" or "error", as `ok` says (see `result`)."""
    error_kind: str | None = None
    """A failed call's model-fixable error kind (the exception's class name)."""

    @property
    def result(self) -> ResultKind:
        """How the call ended: ok, error, refused or interrupted."""
        return self.outcome or ("ok" if self.ok else "error")


@dataclass(frozen=True, slots=True)
class RetryRequested:
    """The model is asked again: in text mode when the reply had no usable call (or refused), in any mode
    when the reply was cut off (by the token limit, or for repeating itself)."""

    reason: str
    attempt: int
    kind: NoteKind = "text"
    """What the retry answers: a text-mode reply it could not use, an ending the checks did not back, a
    reply cut off."""


@dataclass(frozen=True, slots=True)
class StatusDecided:
    status: Status
    turn: int


@dataclass(frozen=True, slots=True)
class Check:
    """One thing the runtime checked before a run may end DONE (README: "How a run ends")."""

    name: str
    ok: bool
    detail: str
    required: bool = True
    """A failed required check keeps the run from ending DONE; the others only make it unverified."""

    def to_dict(self) -> dict[str, object]:
        """The check as the JSON result and the transcript carry it."""
        return {"name": self.name, "ok": self.ok, "detail": self.detail, "required": self.required}


@dataclass(frozen=True, slots=True)
class Baseline:
    """The project's tests as they stood before the run's first change of a source file (README: "How a
    run ends"): what failed then is reported as such, not blamed on the change."""

    command: str
    """What was run, or would have been: `pytest`, `npm test`, the configured command."""
    taken: bool
    passed: bool = False
    failing: tuple[str, ...] = ()
    """The tests that failed before the change, by id, where the runner names them."""
    per_test: bool = False
    """Whether `failing` names every failure (the runner reports per test); if not, only the suite as a
    whole is known to have failed."""
    summary: str = ""
    """One line: `pytest: 2 passed, 1 failed …`."""
    reason: str = ""
    """Why no baseline was taken (`taken` False)."""
    still_failing: tuple[str, ...] = ()
    """Of `failing`, the tests that failed after the change as well (once the tests ran after it)."""
    by_agent: bool = False
    """The agent's own run of the whole suite right before the change served as the baseline."""

    def to_dict(self) -> dict[str, object]:
        """The baseline as the JSON result (`verification.baseline`) and the transcript carry it."""
        return {
            "taken": self.taken,
            "command": self.command,
            "passed": self.passed if self.taken else None,
            "failed": list(self.failing),
            "per_test": self.per_test,
            "summary": self.summary,
            "still_failing": list(self.still_failing),
            "run_by": ("agent" if self.by_agent else "runtime") if self.taken else None,
            "reason": self.reason or None,
        }

    def ending_line(self) -> str | None:
        """What a run's ending says of the tests that failed before the change; None when none did."""
        if not self.taken or self.passed:
            return None
        if not self.per_test or not self.failing:
            return f"the tests failed before the change ({self.summary})"
        if still := self.still_failing:
            return f"{_tests(still)} failed before the change as well: {_ids(still)}"
        return f"{_tests(self.failing)} failed before the change: {_ids(self.failing)}"


def _tests(ids: tuple[str, ...]) -> str:
    return f"{len(ids)} test{'s' if len(ids) != 1 else ''}"


def _ids(ids: tuple[str, ...], shown: int = 10) -> str:
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return ", ".join(ids[:shown]) + more


@dataclass(frozen=True, slots=True)
class RunFinished:
    status: Ending
    result: str
    turns: int
    usage: Usage
    error: str | None = None
    verified: bool = False
    """True only when the status is DONE and every check below backs it."""
    checks: tuple[Check, ...] = ()
    guarded_edits: int = 0
    """Changes the edit guard refused because they would have left a file that no longer parses."""
    sandbox: str | None = None
    """The containment the run's commands ran in ("bubblewrap"), None when there was none."""
    baseline: Baseline | None = None
    """The project's tests before the run's first change; None when none was needed (nothing edited)."""

    def baseline_line(self) -> str | None:
        """What the ending says of the tests that failed before the change; None: nothing to say."""
        return self.baseline.ending_line() if self.baseline is not None else None


@dataclass(frozen=True, slots=True)
class SubagentEvent:
    """An event of a child agent that a `task` call started, nested under that call (`call_id`)."""

    call_id: str
    agent: str
    """The agent definition's name (`explore`, …)."""
    event: AgentEvent


AgentEvent = (
    SessionStarted
    | TextStreamed
    | ReasoningStreamed
    | AssistantReplied
    | CallRejected
    | ContextCompacted
    | ApprovalRequested
    | DecisionMade
    | ToolStarted
    | ToolProgress
    | ToolFinished
    | RetryRequested
    | StatusDecided
    | RunFinished
    | SubagentEvent
)


@dataclass(frozen=True, slots=True)
class ProgressReported:
    """Something slow is under way (loading the model, indexing, retrying); for progress displays only."""

    activity: str
    """What is happening, as a person reads it: "loading the model", "indexing 1200 files"."""
    detail: str = ""
    """A short addition: the model's name, the error being retried."""


ProgressSink = Callable[[ProgressReported], None]
"""Receives progress reports; may be called from worker threads, so it must be quick and thread-safe."""

_SINK: ContextVar[ProgressSink | None] = ContextVar("asi_agent_progress_sink", default=None)


def report_progress(activity: str, detail: str = "") -> None:
    """Tell the progress display what is happening now; does nothing when no display listens."""
    sink = _SINK.get()
    if sink is not None:
        sink(ProgressReported(activity, detail))


@contextmanager
def progress_sink(sink: ProgressSink | None) -> Iterator[None]:
    """Send this context's progress reports (tasks and threads started in it included) to `sink`."""
    token = _SINK.set(sink)
    try:
        yield
    finally:
        _SINK.reset(token)


ToolProgressSink = Callable[[float, float | None, str], None]
"""Receives the running call's progress (done, total or None, message) and turns it into a `ToolProgress`
event of that call; it is called on the event loop (not from worker threads)."""

_CALL: ContextVar[ToolProgressSink | None] = ContextVar("asi_agent_call_progress", default=None)


def call_progress() -> ToolProgressSink | None:
    """Where the call running in this context reports its progress; None outside a call. A tool whose
    progress arrives in another task (an MCP client's) takes it when the call starts."""
    return _CALL.get()


@contextmanager
def tool_progress_sink(sink: ToolProgressSink) -> Iterator[None]:
    """Send the progress of the call run in this context to `sink`."""
    token = _CALL.set(sink)
    try:
        yield
    finally:
        _CALL.reset(token)
