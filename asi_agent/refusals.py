"""A refused call, reported as a refusal: why it was refused, and the flag that would have allowed it.

A call's outcome says whether it was refused (`ResultKind`); the reason is read from its output by the
renderer that wrote it (`wire.refusal_reason`). Everything that reports refusals goes through here.
"""

from __future__ import annotations

from asi_agent.wire import ResultKind, refusal_reason

__all__ = ["allow_hint", "refusal_report"]

_UNANSWERED = "nobody can answer"
_WRITES = frozenset((
    "create_file", "replace_text", "replace_lines", "insert_line", "delete_lines", "delete_file", "move_file",
))  # fmt: skip


def allow_hint(tool: str, reason: str) -> str:
    """What allows the refused call next time: a flag when it was only refused for want of an answer."""
    if _UNANSWERED not in reason:
        return "the policy forbids it; a rule of the policy (`--policy`) would have to allow it"
    if tool in _WRITES:
        return "rerun with `--approval auto-edit` to allow edits, or run in a terminal and answer yes"
    return "rerun with `--approval yolo` (or `--yes`) to allow commands, or run in a terminal and answer yes"


def refusal_report(tool: str, kind: ResultKind, output: str) -> str | None:
    """One sentence reporting a refused call (`kind` "refused") and how to allow it, else None."""
    if kind != "refused":
        return None
    reason = refusal_reason(output)
    return f"{tool} was refused ({reason}); {allow_hint(tool, reason)}"
