"""One prompt's run as the editor sees it: the agent's events turned into session updates.

The reply streams as message chunks (without its `AGENT_STATUS` line), reasoning as thought chunks.
Each call is announced when the model makes it (kind, title, the files it touches), asks through
`session/request_permission` when the policy asks, and ends with its output and a diff of every
file it changed, read from the change journal. The model's todo list (`todo_write`) goes out as the
session's plan, whole each time it changes.
"""

from __future__ import annotations

from pathlib import Path

from acp.helpers import (
    plan_entry,
    start_tool_call,
    text_block,
    tool_content,
    update_agent_message_text,
    update_agent_thought_text,
    update_plan,
    update_tool_call,
)
from acp.schema import ContentToolCallContent, ToolCallStatus, ToolCallUpdate

from asi_agent.acp.files import EditorFiles
from asi_agent.acp.link import Content, Link, diff_content
from asi_agent.acp.tooling import call_kind, call_locations, call_paths, call_title
from asi_agent.agent import Agent
from asi_agent.calls import strip_status
from asi_agent.events import (
    AgentEvent,
    ApprovalRequested,
    AssistantReplied,
    CallRejected,
    ReasoningStreamed,
    RetryRequested,
    RunFinished,
    SubagentEvent,
    TextStreamed,
    ToolFinished,
    ToolProgress,
    ToolStarted,
)
from asi_agent.exceptions import ModelFixableError
from asi_agent.messages import ToolCall
from asi_agent.statusline import StatusFilter
from asi_agent.tools.files.preview import plan_change
from asi_agent.tools.files.textio import decode
from asi_agent.tools.todo import current_todos

__all__ = ["TurnReporter", "change_content"]

ENDINGS = {
    "STOP": "the agent stopped",
    "MAX_TURNS": "the turn limit was reached (--max-turns)",
    "TIMEOUT": "the time limit was reached (--timeout)",
    "ERROR": "the run failed",
}
"""How a run that did not end DONE is told in the editor, after its reply."""
OUTPUT_CHARS = 8000
"""A call's output shown in the editor is cut to its head and tail beyond this."""


class TurnReporter:
    """Receives one run's events (the `handle` of `RunWatch.drive`) and tells the editor."""

    def __init__(self, link: Link, agent: Agent, files: EditorFiles) -> None:
        self.link, self.agent, self.files = link, agent, files
        self.partial = ""
        """The reply's text so far (kept in the session when the prompt is cancelled)."""
        self._status = StatusFilter()
        self._streamed = False
        self._gap = False
        self._seq: dict[str, int] = {}
        self._pending: list[ApprovalRequested] = []
        self._open: list[str] = []
        """Calls announced and not finished yet."""

    @property
    def root(self) -> Path:
        """The project folder."""
        return self.agent.runner.ctx.root

    async def handle(self, event: AgentEvent) -> None:
        """Tell the editor about one event; questions of the policy are answered by the editor."""
        if isinstance(event, TextStreamed):
            self.partial += event.delta
            await self._say(self._status.feed(event.delta))
        elif isinstance(event, ReasoningStreamed):
            await self.link.send(update_agent_thought_text(event.delta))
        elif isinstance(event, AssistantReplied):
            await self._replied(event)
        elif isinstance(event, ApprovalRequested):
            await self._ask(event)
        elif isinstance(event, ToolStarted):
            self._seq[event.call.id] = self.agent.runner.ctx.journal.last_seq()
            await self.link.send(update_tool_call(event.call.id, status="in_progress"))
        elif isinstance(event, ToolProgress):
            await self._progressed(event.call_id, event)
        elif isinstance(event, ToolFinished):
            await self._finished(event)
        elif isinstance(event, CallRejected):
            await self.link.send(
                update_tool_call(event.call_id, status="failed", content=[_text(event.error)])
            )
        elif isinstance(event, RetryRequested):
            await self.link.send(update_agent_thought_text(f"\n(asked the model again: {event.reason})\n"))
        elif isinstance(event, RunFinished):
            await self._ended(event)
        elif isinstance(event, SubagentEvent):
            await self._child(event)

    async def _child(self, event: SubagentEvent) -> None:
        """A child agent's call, shown as a call of its own titled `agent › call` under the `task` call
        (the protocol has no nesting: the id is `TASK-ID/CALL-ID`, the title names the agent)."""
        inner = event.event
        if isinstance(inner, SubagentEvent):  # a grandchild's: under its own parent
            await self._child(SubagentEvent(f"{event.call_id}/{inner.call_id}", inner.agent, inner.event))
            return
        if isinstance(inner, ToolProgress):
            await self._progressed(f"{event.call_id}/{inner.call_id}", inner)
        elif isinstance(inner, ToolStarted):
            call = inner.call
            title = f"{event.agent} › {call_title(call)}"
            await self.link.send(
                start_tool_call(
                    f"{event.call_id}/{call.id}",
                    title,
                    kind=call_kind(call.name, self._risk(call)),
                    status="in_progress",
                    raw_input=call.arguments,
                )
            )
        elif isinstance(inner, ToolFinished):
            status: ToolCallStatus = "completed" if inner.ok else "failed"
            await self.files.push([(self.root / path).resolve() for path in inner.changed_files])
            content = [_text(_cut(inner.output))]
            await self.link.send(
                update_tool_call(f"{event.call_id}/{inner.call.id}", status=status, content=content)
            )

    async def _progressed(self, call_id: str, event: ToolProgress) -> None:
        """A running call's progress, as its content until the result replaces it."""
        await self.link.send(update_tool_call(call_id, status="in_progress", content=[_text(event.detail)]))

    async def cancelled(self) -> None:
        """The prompt was cancelled: a question still open is answered no, and the calls that did not
        finish are shown as failed (they did not run, or were stopped)."""
        for request in self._pending:
            if not request.answer.done():
                request.answer.set_result("no")
        for call_id in self._open:
            await self.link.send(update_tool_call(call_id, status="failed", content=[_text("cancelled")]))
        self._open.clear()

    async def _say(self, text: str) -> None:
        if text:
            text, self._gap = ("\n\n" + text if self._gap else text), False
            self._streamed = True
            await self.link.send(update_agent_message_text(text))

    async def _replied(self, event: AssistantReplied) -> None:
        """The reply is complete: the held-back text goes out, and each of its calls is announced."""
        await self._say(self._status.finish())
        if not self._streamed:  # a backend that does not stream: the whole reply at once
            await self._say(strip_status(event.message.content))
        self._gap = self._gap or self._streamed  # the next reply's text starts a new paragraph
        self.partial, self._streamed = "", False
        self.files.forget()
        ctx = self.agent.runner.ctx
        for call in event.message.tool_calls:
            self._open.append(call.id)
            await self.files.fetch(call_paths(call, self.root, ctx.cursor))
            await self.link.send(
                start_tool_call(
                    call.id,
                    call_title(call),
                    kind=call_kind(call.name, self._risk(call)),
                    status="pending",
                    locations=call_locations(call, self.root, ctx.cursor),
                    raw_input=call.arguments,
                )
            )

    async def _ask(self, request: ApprovalRequested) -> None:
        """The policy asks: the editor shows the call, why it asks and the diff it would make."""
        self._pending.append(request)
        call = request.call
        content: list[Content] = [_text(f"{request.risk} call; asked because {request.reason}")]
        content.extend(await self._planned(call))
        tool_call = ToolCallUpdate(
            tool_call_id=call.id,
            title=call_title(call),
            kind=call_kind(call.name, request.risk),
            status="pending",
            content=content,
            locations=call_locations(call, self.root, self.agent.runner.ctx.cursor),
            raw_input=call.arguments,
        )
        answer = await self.link.ask(tool_call, always=request.rule.startswith("mode "))
        if not request.answer.done():
            request.answer.set_result(answer)
        self._pending.remove(request)

    async def _planned(self, call: ToolCall) -> list[Content]:
        """The diff of the change a call would make (a dry run), or why it would fail; [] if unknown."""
        try:
            prepared = self.agent.runner.prepare(call)
            plan = await plan_change(prepared.spec, prepared.args, self.agent.runner.ctx)
        except ModelFixableError as exc:
            return [_text(f"this call would fail: {exc}")]
        if plan is None:
            return []
        old = decode(plan.before)[0] if plan.before is not None else None
        new = decode(plan.after)[0] if plan.after is not None else ""
        return [diff_content(str(self.root / plan.path), old, new)]

    async def _finished(self, event: ToolFinished) -> None:
        """The call's output, and a diff of each file it changed; the editor's buffers get the changes."""
        changed = [(self.root / path).resolve() for path in event.changed_files]
        await self.files.push(changed)
        status: ToolCallStatus = "completed" if event.ok else "failed"
        if event.call.id in self._open:
            self._open.remove(event.call.id)
        since = self._seq.pop(event.call.id, None)
        content = [_text(_cut(event.output)), *change_content(self.agent, since, event)]
        await self.link.send(update_tool_call(event.call.id, status=status, content=content))
        if event.ok and event.call.name == "todo_write":  # the model's task list is the editor's plan
            todos = current_todos(self.agent.runner.ctx.state)
            await self.link.send(
                update_plan(plan_entry(item.content, priority="medium", status=item.status) for item in todos)
            )

    async def _ended(self, event: RunFinished) -> None:
        """Say why a run ended other than DONE (a DONE's reply has said it all), and the tests that failed
        before the run's change as well."""
        await self._say(self._status.finish())
        if (before := event.baseline_line()) is not None:
            await self._say(f"[asi-agent: {before}]")
        if event.status == "DONE":
            return
        why = ENDINGS.get(event.status, event.status) + (f": {event.error}" if event.error else "")
        await self._say(f"[asi-agent: {why}]")

    def _risk(self, call: ToolCall) -> str:
        try:
            return self.agent.runner.prepare(call).spec.risk
        except ModelFixableError:
            return "other"


def change_content(agent: Agent, since: int | None, event: ToolFinished) -> list[Content]:
    """The diffs of what a finished call changed: its journal entries (after `since`), first text → last."""
    if since is None or not event.changed_files:
        return []
    ctx = agent.runner.ctx
    wanted = set(event.changed_files)
    first: dict[str, str | None] = {}
    last: dict[str, str | None] = {}
    for entry in ctx.journal.since(since):
        if entry.session_id == ctx.session_id and entry.path in wanted:
            first.setdefault(entry.path, entry.before)
            last[entry.path] = entry.after
    found: list[Content] = []
    for path, before in first.items():
        old = decode(ctx.journal.blob(before))[0] if before is not None else None
        after = last[path]
        new = decode(ctx.journal.blob(after))[0] if after is not None else ""
        found.append(diff_content(str(ctx.root / path), old, new))
    return found


def _text(text: str) -> ContentToolCallContent:
    return tool_content(text_block(text))


def _cut(output: str) -> str:
    if len(output) <= OUTPUT_CHARS:
        return output
    half = OUTPUT_CHARS // 2
    return f"{output[:half]}\n… ({len(output) - OUTPUT_CHARS} characters left out) …\n{output[-half:]}"
