"""Checks of a sample's text that the §5.3 gates add to the schema ones: secrets, narrated calls (§4.4)
and the closing `AGENT_STATUS` line (§4.5).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from asi_agent.data.redact import find_secrets

__all__ = ["STATUS_LINE", "narrated_call", "secrets_in", "status_problem"]

STATUS_LINE = re.compile(r"AGENT_STATUS: (DONE|CONTINUE|STOP)")
"""The closing line of §4.5, exactly."""

_NARRATION = (
    re.compile(r"工具执行\s*[:：]"),
    re.compile(r"模拟(?:的)?(?:工具)?调用"),
    re.compile(r"调用工具\s*[:：]"),
    re.compile(r"(?i)\bsimulated (?:tool|function) call"),
    re.compile(r"(?i)\b(?:tool|function) (?:execution|call|output|result)\s*:"),
    re.compile(r"(?i)\[(?:calling|executing|running|invoking) [\w. -]+\]"),
    re.compile(r"\[TOOL_CALL\]|\[TOOL:[\w.-]+\]|<tool_call>|<function=[\w.-]+>"),
)
"""Words that tell of a call instead of making one, and call syntax written into an answer's text."""


def narrated_call(text: str, tool_names: Iterable[str] = ()) -> str | None:
    """The part of an assistant text that narrates a call (§4.4: never in place of a real one), or None.

    Besides the phrases, a registered tool's name written like a call with a JSON object
    (`read_file({"path": …})`, `read_file {"path": …}`) counts: it was never run.
    """
    for pattern in _NARRATION:
        if found := pattern.search(text):
            return found[0]
    names = sorted((re.escape(name) for name in tool_names if name), key=len, reverse=True)
    if names and (found := re.search(rf"\b(?:{'|'.join(names)})\s*\(?\s*\{{\s*\"", text)):
        return found[0]
    return None


def secrets_in(value: Any, *, where: str = "") -> Iterator[tuple[str, str]]:
    """Every secret `--redact` would remove from a sample (tool schemas aside), with where it is."""
    if isinstance(value, str):
        for secret in find_secrets(value):
            yield where, secret
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from secrets_in(item, where=f"{where}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in ("tools", "rejected_tools"):
                yield from secrets_in(item, where=f"{where}.{key}" if where else str(key))


def status_problem(messages: Sequence[Mapping[str, Any]], wrote: str | None) -> str | None:
    """Why the final answer lacks the `AGENT_STATUS` line the run wrote (`wrote`, else: any assistant
    turn of the sample names one), or None."""
    answers = [str(m.get("content") or "") for m in messages if m.get("role") == "assistant"]
    if not answers or not (wrote or any("AGENT_STATUS" in text for text in answers)):
        return None
    last = answers[-1].rstrip().rsplit("\n", 1)[-1].strip()
    match = STATUS_LINE.fullmatch(last)
    if match is None:
        return f"the final answer does not end with an exact AGENT_STATUS line (last line: {last[:60]!r})"
    if wrote and match[1] != wrote:
        return f"the final answer ends AGENT_STATUS: {match[1]}, but the run wrote AGENT_STATUS: {wrote}"
    return None
