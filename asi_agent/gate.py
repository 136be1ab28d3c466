"""The gate in front of execution: repetition check, then the policy; an "ask" goes to the person.

The person is reached through an `ApprovalRequested` event whose future the active UI resolves; with
nobody to ask (no terminal), the ask is a refusal that goes back to the model. "Always" remembers the
tool for the session, but it answers only the mode's own questions (`rule` "mode …"): a destructive
command, a secret or a policy rule that asks keeps asking every time. Every question and refusal
names what caused it (the rule or the classifier's finding) in one line.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from asi_agent.config import Approval
from asi_agent.events import AgentEvent, ApprovalRequested, DecisionMade
from asi_agent.exceptions import ModelFixableError, UserError
from asi_agent.policy import Decision, Policy, decide
from asi_agent.sandbox.hints import wants_network
from asi_agent.session import Session
from asi_agent.toolrun import Outcome, Prepared, refused, rejected, signature
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.preview import preview_change

if TYPE_CHECKING:
    from asi_agent.hooks import Hooks, Verdict

__all__ = ["Gate", "GateConfig"]


@dataclass(frozen=True, slots=True, kw_only=True)
class GateConfig:
    """How calls are gated in one run."""

    approval: Approval = "ask"
    policy: Policy = field(default_factory=Policy)
    interactive: bool = False
    """Whether somebody can answer; if not, an "ask" is a refusal."""
    max_identical_calls: int = 2
    hooks: Hooks | None = None
    """`PreToolUse` hooks, heard before the policy: they may block, deny, ask, or allow what would ask."""


class Gate:
    """Remembers per session what was always allowed and which calls were already made."""

    def __init__(self, config: GateConfig, ctx: ToolContext, session: Session) -> None:
        self.config, self.ctx, self.session = config, ctx, session
        self._always: set[str] = set()
        self._seen: dict[str, int] = {}
        self._limit = config.max_identical_calls

    def guide(self, planned: bool) -> None:
        """Whether a planner guides the model's calls from now on: then a call already made since the
        latest change is not made again (docs: the embedded model), else `max_identical_calls` times."""
        self._limit = 1 if planned else self.config.max_identical_calls

    def switch_mode(self, mode: Approval, *, sandbox_off_by_choice: bool) -> None:
        """Gate the next calls with `mode`, as start-up would allow it: UserError for yolo in a session
        whose commands have no sandbox, unless the person turned it off themselves (`--no-sandbox`,
        `sandbox.enabled = false` in their configuration): yolo runs commands unasked only when contained."""
        sandbox = self.ctx.sandbox
        if mode == "yolo" and sandbox is None and not sandbox_off_by_choice:
            raise UserError(
                "yolo runs commands without asking only inside the sandbox, and this session has none "
                f"({self.ctx.sandbox_note}). Start again with --no-sandbox to run yolo without it "
                "(explicitly), or use auto-edit"
            )
        self.config = replace(self.config, approval=mode)

    def new_run(self) -> None:
        """A new message: the person may have changed files or the mode since, so calls count afresh."""
        self._seen.clear()

    def changed_files(self) -> None:
        """A write happened: earlier identical reads may now give other results."""
        self._seen.clear()

    def cannot_ask(self, item: Prepared) -> bool:
        """Whether the policy would ask before `item` and nobody can answer (no terminal): a call the
        runtime makes for itself is then left out rather than refused. A `PreToolUse` hook for the call may
        answer the question itself ("allow"), so with one there is somebody to ask: `check` hears it."""
        hooks = self.config.hooks
        if hooks is not None and hooks.active("PreToolUse", item.spec.name):
            return False
        return not self.config.interactive and self._decide(item).action == "ask"

    def forget(self, item: Prepared) -> None:
        """A call the runtime made for itself does not count as the model's repetition of it."""
        key = signature(item.call)
        self._seen[key] = max(self._seen.get(key, 0) - 1, 0)

    async def check(self, item: Prepared) -> AsyncIterator[AgentEvent | Prepared | Outcome]:
        """Yield events, then the call (allowed) or its refusal (an Outcome)."""
        key = signature(item.call)
        self._seen[key] = self._seen.get(key, 0) + 1
        if self._seen[key] > self._limit:
            yield rejected(
                item.call,
                ModelFixableError(
                    "you already made this exact call since the last change; use what it returned, change "
                    "the arguments, or finish"
                ),
            )
            return
        config = self.config
        verdict = await config.hooks.before_tool(item) if config.hooks is not None else None
        if verdict is not None and (verdict.blocked or verdict.decision == "deny"):
            why = f"a PreToolUse hook refused it: {verdict.reason}"
            yield self._record(item, "deny", why, "hook", "hook")
            yield refused(item.call, why)
            return
        decision = self._decide(item)
        action, reason, by = decision.action, decision.reason, "policy"
        if verdict is not None and verdict.decision is not None and action != "deny":
            action, reason, by = _heard(verdict, action, reason, by)
        always = decision.rule.startswith("mode ") and by != "hook"  # a hook's question is asked every time
        if action == "ask" and always and item.spec.name in self._always:
            action, reason, by = "allow", "always allowed earlier in this session", "session"
        elif action == "ask" and not config.interactive:
            action, reason = "deny", f"{reason}, but nobody can answer (no terminal)"
        elif action == "ask":
            preview = await preview_change(item.spec, item.args, self.ctx)
            request = ApprovalRequested(item.call, item.spec.risk, reason, preview, decision.rule)
            yield request
            answer = await request.answer
            if answer == "always":
                self._always.add(item.spec.name)
            action, by = ("deny" if answer == "no" else "allow"), "person"
            reason = f"the person answered {answer} ({reason})"
            reason += f"; they said: {request.note}" if request.note else ""
        rule = decision.rule
        if action == "allow" and (network := self._network_question(item)) is not None:
            rule = "sandbox network"
            if not config.interactive:
                action, by = "deny", "sandbox"
                reason = (
                    f"{network}, and nobody can allow it (no terminal); the person can rerun with "
                    "--allow-network, or set network = true in the policy"
                )
            else:
                ask = f"{network}; allowing opens it for this command"
                request = ApprovalRequested(item.call, item.spec.risk, ask, "", rule)
                yield request
                answer = await request.answer
                command = str(item.call.arguments.get("command", ""))
                if answer == "always" and self.ctx.sandbox is not None:
                    self.ctx.sandbox = self.ctx.sandbox.with_network()
                elif answer != "no":
                    self.ctx.network_for.add(command)
                action, by = ("deny" if answer == "no" else "allow"), "person"
                reason = f"the person answered {answer} ({network})"
        yield self._record(item, action, reason, by, rule)
        yield item if action == "allow" else refused(item.call, f"{reason} [{rule}]")

    def _decide(self, item: Prepared) -> Decision:
        """The policy's decision; a tool its MCP server marks destructive asks where it would be allowed
        (in every mode but yolo), and never as a question "always" can answer."""
        config = self.config
        decision = decide(
            item.spec.name,
            item.spec.risk,
            item.call.arguments,
            policy=config.policy,
            mode=config.approval,
            root=self.ctx.root,
            outside=item.args.outside_project(),
            readable=self.ctx.readable_dirs,
        )
        if item.spec.destructive and decision.action == "allow" and config.approval != "yolo":
            return Decision("ask", "its server marks it destructive: it asks every time", "destructive tool")
        return decision

    def _record(self, item: Prepared, action: str, reason: str, by: str, rule: str) -> DecisionMade:
        """The decision, kept in the transcript."""
        self.session.append(
            "decision", call=item.call.to_dict(), action=action, reason=reason, by=by, rule=rule
        )
        return DecisionMade(item.call, action, reason, by, rule)  # type: ignore[arg-type]

    def _network_question(self, item: Prepared) -> str | None:
        """Why to ask before a command that wants the network the sandbox closes; None: no need."""
        sandbox, command = self.ctx.sandbox, item.call.arguments.get("command")
        if item.spec.name != "run_terminal_cmd" or sandbox is None or sandbox.network:
            return None
        if not isinstance(command, str) or command in self.ctx.network_for or not wants_network(command):
            return None
        return "this command wants the network, which the sandbox closes"


def _heard(
    verdict: Verdict, action: Literal["allow", "ask", "deny"], reason: str, by: str
) -> tuple[Literal["allow", "ask", "deny"], str, str]:
    """The policy's allow or ask after a hook's `permissionDecision`: "ask" makes an allowed call ask, "allow"
    answers a question the policy would ask (a deny of the policy stands whatever the hooks say)."""
    if verdict.decision == "ask" and action == "allow":
        return "ask", f"a PreToolUse hook asks: {verdict.reason}", "hook"
    if verdict.decision == "allow" and action == "ask":
        return "allow", f"a PreToolUse hook allowed it: {verdict.reason}", "hook"
    return action, reason, by
