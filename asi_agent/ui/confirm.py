"""Asking the person at the terminal: the tool, its arguments, and the diff of what would change."""

from __future__ import annotations

import json
from typing import Any

from asi_agent.events import Answer, ApprovalRequested

__all__ = ["ask_in_terminal", "describe", "diff_line_style"]

SHORT_DIFF = 40
ANSWERS: dict[str, Answer] = {
    "y": "yes",
    "yes": "yes",
    "n": "no",
    "no": "no",
    "a": "always",
    "always": "always",
}


def describe(request: ApprovalRequested, *, full_diff: bool = False) -> list[tuple[str, str]]:
    """The question as styled fragments (prompt-toolkit `FormattedText`)."""
    parts: list[tuple[str, str]] = [
        ("bold", f"\n{request.call.name}"),
        ("", f" ({request.risk}) wants to run — {request.reason}\n"),
        ("ansibrightblack", _arguments(request.call.arguments) + "\n"),
    ]
    lines = request.preview.splitlines()
    shown = lines if full_diff else lines[:SHORT_DIFF]
    for line in shown:
        parts.append((diff_line_style(line), line + "\n"))
    if len(lines) > len(shown):
        parts.append(("italic", f"… {len(lines) - len(shown)} more lines: answer d to see the whole diff\n"))
    return parts


async def ask_in_terminal(request: ApprovalRequested) -> Answer:
    """y / n / a (always, for this tool, this session) / d (show the whole diff); repeats until answered."""
    from prompt_toolkit import PromptSession, print_formatted_text  # noqa: PLC0415 - only when asking
    from prompt_toolkit.formatted_text import FormattedText  # noqa: PLC0415

    print_formatted_text(FormattedText(describe(request)))
    session: PromptSession[str] = PromptSession()
    while True:
        reply = (
            await session.prompt_async("Allow? [y]es / [n]o / [a]lways for this tool / [d]iff: ")
        ).strip()
        if reply.lower() == "d":
            print_formatted_text(FormattedText(describe(request, full_diff=True)))
        elif reply.lower() in ANSWERS:
            return ANSWERS[reply.lower()]


def _arguments(arguments: dict[str, Any]) -> str:
    shown = {k: (v[:200] + "…" if isinstance(v, str) and len(v) > 200 else v) for k, v in arguments.items()}
    return json.dumps(shown, ensure_ascii=False, indent=2)


def diff_line_style(line: str) -> str:
    """The prompt-toolkit style of one line of a unified diff."""
    if line.startswith(("+++", "---")):
        return "bold"
    if line.startswith("+"):
        return "ansigreen"
    if line.startswith("-"):
        return "ansired"
    if line.startswith("@@"):
        return "ansicyan"
    return ""
