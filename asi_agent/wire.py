"""The text the model sees for a status, rendered from typed fields in this one place.

A tool result carries its outcome (`ResultKind`), a message who wrote it (`Origin`), a turn the runtime
wrote why it did (`NoteKind`). Everything else asks those fields; only this module turns them into words
(`tool_text`, `refusal_text`, …) and, for transcripts written before the fields existed, reads the words
back once when they are loaded (`legacy_result`, `legacy_origin`). `tests/test_status_text.py` keeps
every other module from testing a message's text for these prefixes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

__all__ = [
    "CONTINUE_PROMPT",
    "INTERRUPTED",
    "NoteKind",
    "Origin",
    "ResultKind",
    "legacy_error_kind",
    "legacy_origin",
    "legacy_result",
    "refusal_text",
    "result_body",
    "tool_text",
    "unparsed_text",
]

Origin = Literal["person", "runtime", "model"]
"""Who wrote a message: the person (a task, a chat message), the runtime (prompts, notes, results, a
reply the planner wrote without the model), or the model."""

ResultKind = Literal["ok", "error", "refused", "interrupted"]
"""How a tool call ended: it ran; it failed (the model can fix it); the policy or the person refused
it; the person interrupted it."""

NoteKind = Literal["continue", "unparsed", "checks", "text", "cut_off"]
"""Why the runtime wrote a user turn (a retry's kind): asking for the next step (CONTINUE), calls that
could not be parsed, an ending its checks did not back, a text-mode reply it could not use, a reply cut
off."""

CONTINUE_PROMPT = "Continue with the next step of the task."
INTERRUPTED = "interrupted by the person before this call finished; ask before running it again"
_ERROR = "ERROR: "
_REFUSED = "permission denied: "
_UNPARSED = "Not run, could not be parsed: "

# How the runtime worded its own user turns before they carried a kind (older transcripts only).
_LEGACY_NOTES: tuple[tuple[str, NoteKind], ...] = (
    ("Continue with the next step", "continue"),
    (_UNPARSED.rstrip(": "), "unparsed"),
    ("Not done yet,", "checks"),
    ("Your last reply could not be used.", "text"),
    ("Your last reply was cut off", "cut_off"),
)


def tool_text(kind: ResultKind, output: str) -> str:
    """The tool message the model reads: the output, or, for a call that did not succeed, marked as such."""
    return output if kind == "ok" else _ERROR + output


def refusal_text(reason: str) -> str:
    """The output of a call the policy or the person refused."""
    return f"{_REFUSED}{reason}. Do not retry this call; choose another way or stop."


def refusal_reason(output: str) -> str:
    """Why a refused call was refused: the reason `refusal_text` rendered into its output."""
    return output.removeprefix(_REFUSED).split(". Do not retry", 1)[0].strip()


def unparsed_text(problems: Sequence[str]) -> str:
    """The note that tells the model which call fragments of its reply could not be parsed."""
    return _UNPARSED + "; ".join(problems)


def result_body(content: str, kind: ResultKind) -> str:
    """A tool message's output without the mark `tool_text` put before it (for people)."""
    return content if kind == "ok" else content.removeprefix(_ERROR)


def legacy_result(content: str) -> ResultKind:
    """The outcome a tool message of an older transcript (text only) reported."""
    body = content.removeprefix(_ERROR)
    if body.startswith(INTERRUPTED):
        return "interrupted"
    if body.startswith(_REFUSED.rstrip()):
        return "refused"
    return "error" if content.startswith(_ERROR.rstrip()) else "ok"


_LEGACY_BOUNDARY = ("is outside the project root", "tools may not write")


def legacy_error_kind(content: str) -> str | None:
    """The error kind a failed tool message of an older transcript (text only) can be told to have: a
    path the tools refused (outside the project, or where no tool may write)."""
    return "PermissionDeniedError" if any(mark in content for mark in _LEGACY_BOUNDARY) else None


def legacy_origin(role: str, content: str) -> tuple[Origin, NoteKind | None]:
    """Who wrote a message of an older transcript (text only), and why, when the runtime did."""
    if role == "assistant":
        return "model", None
    if role in ("system", "tool"):
        return "runtime", None
    for prefix, note in _LEGACY_NOTES:
        if content.startswith(prefix):
            return "runtime", note
    return "person", None
