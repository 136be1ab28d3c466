"""Replies that did not end by themselves: cut by the token limit, a full context, a content filter,
or cut by the backend because they kept repeating themselves.

Nothing in a cut-off reply runs: a call cut in the middle has incomplete arguments (a file written
from them would be truncated). The model is asked once to continue — to finish its answer, or to send
the cut call again in smaller pieces. When the context is full, the content filter spoke, or the
continuation is cut off too, the run ends `STOP` with a message saying why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from asi_agent.calls import parse_reply
from asi_agent.messages import Completion

__all__ = ["CUT_REASONS", "CutOff", "CutOffGuard", "CutOffStop"]

CUT_REASONS = {
    "length": "the token limit (max_tokens) was reached",
    "context_full": "the context window is full",
    "content_filter": "the server's content filter stopped it",
    "repetition": "it kept repeating itself",
}
"""The `Completion.finish_reason` values of a reply that did not end by itself, and what they mean."""

_HINTS = {
    "length": "raise max_tokens in the configuration",
    "context_full": "raise the server's context size (llama.cpp -c, Ollama num_ctx) or start a new session",
    "repetition": "try another model or sampling settings",
}
_NOT_CONTINUED = ("context_full", "content_filter")
_CALL_MARKERS = ("[TOOL", "<tool_call", "```json", '"arguments"')
_CALL_NAME = re.compile(
    r'\[TOOL_CALL\]([\w.-]+)|\[TOOL:([\w.-]+)\]|"name"\s*:\s*"([\w.-]+)"|<function=([\w.-]+)'
)


class CutOffStop(Exception):
    """A reply was cut off and cannot be continued: the run ends `STOP` with this message."""


@dataclass(frozen=True, slots=True)
class CutOff:
    """A cut-off reply: why, and either the request to continue or (`prompt` None) the end of the run."""

    reason: str
    message: str
    """One line for the person: what was cut off and why."""
    prompt: str | None
    """What to ask the model so that it continues; None when the run must stop."""


class CutOffGuard:
    """Judges each reply; allows one continuation per cut-off (see the module docstring)."""

    def __init__(self) -> None:
        self._continued = False
        self._partial = ""

    def judge(self, reply: Completion) -> CutOff | None:
        """None for a reply that ended by itself; else what to do about it."""
        reason = reply.finish_reason
        if reason not in CUT_REASONS:
            self._continued = False
            return None
        call = _cut_call(reply)
        where = f"in the middle of a call to {call}" if call else "in the middle of its answer"
        message = f"the model's reply was cut off {where}: {CUT_REASONS[reason]}"
        if self._continued or reason in _NOT_CONTINUED:
            again = "; it was cut off again after being asked to continue" if self._continued else ""
            hint = f"; {_HINTS[reason]}" if reason in _HINTS else ""
            return CutOff(reason, message + again + hint, None)
        self._continued = True
        self._partial = "" if call else reply.text
        return CutOff(reason, message, _prompt(reason, call))

    def whole(self, text: str) -> str:
        """`text` preceded by the cut-off answer it continues, if any (for the run's result)."""
        partial, self._partial = self._partial, ""
        return partial + text


def _cut_call(reply: Completion) -> str | None:
    """The name of the call the reply was cut in (native or text form; "a tool" if unknown), or None."""
    if reply.native_calls:
        return reply.native_calls[-1].name or "a tool"
    parsed = parse_reply(reply.text)
    if parsed.calls:
        return parsed.calls[-1].name
    if parsed.problems or any(marker in reply.text[-4000:] for marker in _CALL_MARKERS):
        # A cut-off call is reported, not read: its name is still in the text.
        names = ["".join(groups) for groups in _CALL_NAME.findall(reply.text[-4000:])]
        return names[-1] if names else "a tool"
    return None


def _prompt(reason: str, call: str | None) -> str:
    if reason == "repetition":
        return (
            "Your last reply was cut off because it kept repeating the same text, and nothing in it was "
            "run. Do not repeat yourself: take the next step of the task, or end with an AGENT_STATUS line."
        )
    if call:
        return (
            f"Your last reply was cut off by the token limit in the middle of a call to {call}; the call "
            "was not run. Send it again, complete. If its arguments are long, split the work into "
            "several smaller calls (for example create the file with its first part, then add the rest)."
        )
    return (
        "Your last reply was cut off by the token limit. Continue exactly where it stopped, without "
        "repeating what you already wrote."
    )
