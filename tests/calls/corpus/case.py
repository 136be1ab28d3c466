"""One corpus entry and how a parse result is judged against it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Call = tuple[str, dict[str, Any]]

# Markers that betray a call attempt: a reply whose prose still holds one after parsing, with no problem
# reported, let a call vanish.
CALL_MARKERS = (
    "<tool_call>",
    "</tool_call>",
    "[TOOL_CALLS]",
    "[TOOL_CALL]",
    "<|python_tag|>",
    "<function=",
    "<|tool_call|>",
    "<tool_calls>",
    "tool▁call",
    "<|tool_call_begin|>",
    "to=functions.",
    "<start_function_call>",
    "<|START_ACTION|>",
    "functools[",
    "<TOOLCALL>",
    "<|python_start|>",
    "<|tool_call_start|>",
    "<arg_key>",
    "<parameter=",
    "<invoke name=",
    '"arguments":',
    '"parameters":',
)


@dataclass(frozen=True)
class Case:
    """A reply, the calls it makes (name and arguments, in order) and what else must hold."""

    source: str
    """Repository and file the reply was taken from."""
    reply: str
    calls: tuple[Call, ...] = ()
    problem: bool = False
    """True when the reply is malformed the way real models fail: a problem must be reported."""
    text: str | None = None
    """The prose that must remain, when the source says."""
    tools: dict[str, dict[str, str]] = field(default_factory=dict)
    """Parameter types of the tools the source declared (typing values written as text)."""
    note: str = ""
    """Where the expectation departs from the source's parser, and why."""

    def schemas(self) -> list[dict[str, Any]]:
        """The declared tools as OpenAI-shaped schemas."""
        return [
            {
                "type": "function",
                "function": {
                    "name": name,
                    "parameters": {
                        "type": "object",
                        "properties": {p: {"type": t} for p, t in params.items()},
                    },
                },
            }
            for name, params in self.tools.items()
        ]

    @property
    def call_like(self) -> bool:
        """Whether the reply holds a call or an attempt at one."""
        return bool(self.calls) or self.problem


def judge(case: Case, calls: list[Call], problems: int, text: str) -> tuple[bool, bool]:
    """(parsed exactly, silently dropped) for one parse result."""
    exact = calls == list(case.calls) and bool(problems) == case.problem
    if case.text is not None:
        exact = exact and " ".join(text.split()) == " ".join(case.text.split())
    leftover = any(marker in text for marker in CALL_MARKERS)
    silent = (case.call_like and not calls and not problems) or (leftover and not problems)
    return exact, silent
