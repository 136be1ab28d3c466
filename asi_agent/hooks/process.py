"""Running one hook command: Claude Code's JSON on stdin, its exit code and output read as Claude Code does.

Exit 0 goes on (stdout may be JSON with a decision, or context for the model); exit 2 blocks, with
stderr as the reason given to the model; any other exit is a problem of the hook, reported, not blocking.
A project's hook (run in the sandbox) may deny or ask; its "allow" is dropped — only the person's own hooks
answer the policy's questions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from asi_agent.hooks.settings import HookCommand
from asi_agent.sandbox import Sandbox

__all__ = ["Decision", "Verdict", "run_hook"]

Decision = Literal["allow", "deny", "ask"]
_RANK: dict[Decision, int] = {"allow": 0, "ask": 1, "deny": 2}
_CONTEXT_FROM_STDOUT = ("UserPromptSubmit", "SessionStart")
"""Events whose plain stdout (exit 0) is added to what the model reads, as Claude Code adds it."""


@dataclass(slots=True)
class Verdict:
    """What the hooks of one event said together."""

    blocked: bool = False
    reasons: list[str] = field(default_factory=list)
    """Why they blocked or decided (stderr of exit 2, a JSON `reason`)."""
    decision: Decision | None = None
    """PreToolUse's `permissionDecision` (the strictest of the hooks')."""
    context: list[str] = field(default_factory=list)
    """Text added to what the model reads (stdout, `additionalContext`)."""
    problems: list[str] = field(default_factory=list)
    """Hooks that failed or timed out (reported to the person; they block nothing)."""
    stop: str | None = None
    """A hook's `"continue": false`: the run ends, with this reason."""

    @property
    def reason(self) -> str:
        """The reasons, one line."""
        return "; ".join(text for text in self.reasons if text) or "blocked by a hook"

    def decide(self, decision: Decision, reason: str) -> None:
        """Take a hook's decision, unless an earlier one was stricter."""
        if self.decision is None or _RANK[decision] > _RANK[self.decision]:
            self.decision = decision
        if reason:
            self.reasons.append(reason)

    def merge(self, other: Verdict) -> None:
        """Add another hook's verdict."""
        self.blocked |= other.blocked
        self.reasons += other.reasons
        if other.decision is not None:
            self.decide(other.decision, "")
        self.context += other.context
        self.problems += other.problems
        self.stop = self.stop or other.stop


async def run_hook(
    hook: HookCommand, payload: dict[str, Any], *, root: Path, sandbox: Sandbox | None
) -> Verdict:
    """Run the hook with `payload` as JSON on stdin, within its timeout; what it said."""
    argv: Sequence[str] = ["/bin/sh", "-c", hook.command]
    if hook.contained:
        if sandbox is None:
            why = f"{hook.source} hook not run: the project's hooks run only inside the sandbox"
            return Verdict(problems=[why])
        argv = sandbox.wrap(argv, cwd=root)
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(root), "ASI_PROJECT_DIR": str(root)}
    process = await asyncio.create_subprocess_exec(
        *argv,
        cwd=root,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,  # the whole group is stopped at the timeout, not just the shell
    )
    data = json.dumps(payload, ensure_ascii=False).encode()
    try:
        out, err = await asyncio.wait_for(process.communicate(data), hook.timeout)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        return Verdict(problems=[f"{hook.event} hook `{hook.command}` timed out after {hook.timeout:g} s"])
    verdict = _read(hook, process.returncode or 0, out.decode(errors="replace"), err.decode(errors="replace"))
    if hook.contained and verdict.decision == "allow":
        # A project's hook is the project's code, contained by the sandbox: it may refuse a call or make it
        # ask, never answer a question that is the person's (a write in ask mode, the global memory).
        verdict.decision = None
        verdict.problems.append(
            f"{hook.source} hook: its 'allow' is ignored, only your own hooks may approve"
        )
    return verdict


def _read(hook: HookCommand, code: int, out: str, err: str) -> Verdict:
    if code == 2:
        return Verdict(blocked=True, reasons=[err.strip() or f"{hook.event} hook `{hook.command}` blocked"])
    if code != 0:
        detail = err.strip().splitlines()[-1] if err.strip() else "no message"
        return Verdict(problems=[f"{hook.event} hook `{hook.command}` failed (exit {code}): {detail}"])
    text = out.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict):
            return _json(hook, data)
    return Verdict(context=[text] if text and hook.event in _CONTEXT_FROM_STDOUT else [])


def _json(hook: HookCommand, data: dict[str, Any]) -> Verdict:
    """Claude Code's JSON output: `continue`, `decision`, `reason`, `hookSpecificOutput`, `systemMessage`."""
    verdict = Verdict()
    if data.get("continue") is False:
        verdict.stop = str(data.get("stopReason") or f"stopped by the {hook.event} hook")
    reason = str(data.get("reason") or "")
    if data.get("decision") == "block":
        verdict.blocked = True
        verdict.reasons.append(reason)
    elif data.get("decision") == "approve":  # the older PreToolUse form
        verdict.decide("allow", reason)
    specific = data.get("hookSpecificOutput")
    if isinstance(specific, dict):
        decision = specific.get("permissionDecision")
        if decision in _RANK:
            verdict.decide(decision, str(specific.get("permissionDecisionReason") or ""))
        if isinstance(extra := specific.get("additionalContext"), str) and extra.strip():
            verdict.context.append(extra.strip())
    if isinstance(message := data.get("systemMessage"), str) and message.strip():
        verdict.problems.append(message.strip())
    return verdict
