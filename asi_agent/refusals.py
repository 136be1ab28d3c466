"""A refused call, reported as a refusal: why it was refused, and the flag that would have allowed it.

`refusal` is the one place that tells a refusal from a tool result's text (`toolrun.refused` writes it);
everything that reports refusals goes through it.
"""

from __future__ import annotations

__all__ = ["allow_hint", "refusal", "refusal_report"]

_PREFIX = "permission denied: "
_UNANSWERED = "nobody can answer"
_WRITES = frozenset((
    "create_file", "replace_text", "replace_lines", "insert_line", "delete_lines", "delete_file", "move_file",
))  # fmt: skip


def refusal(output: str) -> str | None:
    """Why a call was refused (the policy's or the person's words), or None when it was not refused."""
    text = output.removeprefix("ERROR: ")  # as the model reads it, or as the call's output
    if not text.startswith(_PREFIX):
        return None
    return text[len(_PREFIX) :].split(". Do not retry", 1)[0].strip()


def allow_hint(tool: str, reason: str) -> str:
    """What allows the refused call next time: a flag when it was only refused for want of an answer."""
    if _UNANSWERED not in reason:
        return "the policy forbids it; a rule of the policy (`--policy`) would have to allow it"
    if tool in _WRITES:
        return "rerun with `--approval auto-edit` to allow edits, or run in a terminal and answer yes"
    return "rerun with `--approval yolo` (or `--yes`) to allow commands, or run in a terminal and answer yes"


def refusal_report(tool: str, output: str) -> str | None:
    """One sentence reporting a refused call and how to allow it, or None when it was not refused."""
    reason = refusal(output)
    if reason is None:
        return None
    return f"{tool} was refused ({reason}); {allow_hint(tool, reason)}"
