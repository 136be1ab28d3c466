"""What a turn guide tells the local backend, and the honest-ending rule every local run follows.

A guide (built in `asi_agent.grounding`, which knows the project) narrows one turn: the tool schemas
the reply is constrained by, whether an answer is allowed and what shape it has, orientation text and
a worked example. The backend only depends on this Protocol.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from asi_agent.backends.base import ToolSchema
from asi_agent.messages import Message, RawCall, ToolCall

__all__ = [
    "CUT_OFF",
    "NO_VALUE",
    "Guide",
    "TurnPlan",
    "cut_off_text",
    "is_followup",
    "is_value",
    "latest_task_index",
    "only_value",
    "result_ok",
    "run_results",
    "unfounded_answer",
]

CUT_OFF = "length"
"""The `finish_reason` of a reply that ran into `max_tokens`."""

_WORD = re.compile(r"[A-Za-z0-9_]{3,}|[\u4e00-\u9fff]")


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnPlan:
    """The choices one turn leaves the model."""

    tools: Sequence[ToolSchema]
    """The tool schemas the reply is constrained by (already narrowed)."""
    allow_answer: bool
    """Whether a final answer is one of the allowed replies."""
    answer: dict[str, Any] = field(default_factory=lambda: {"type": "string", "minLength": 1})
    """The JSON schema of the answer text."""
    system: str = ""
    """Text added to the system turn: orientation, reply language."""
    example: Sequence[tuple[str, str]] = ()
    """Worked example turns `(role, content)` put before the conversation, in the model's chat template."""
    own_system: bool = False
    """`system` replaces the agent's system prompt (a tiny model follows a short prompt better)."""


class Guide(Protocol):
    """Narrows every turn of a run to the sensible choices."""

    async def plan(self, messages: Sequence[Message]) -> TurnPlan:
        """The choices of the next turn, given the conversation so far."""
        ...

    def judge(self, messages: Sequence[Message], answer: str) -> str | None:
        """Why `answer` cannot end the task as DONE, or None when it rests on the run's results."""
        ...

    def framed(self, messages: Sequence[Message], calls: Sequence[RawCall]) -> tuple[RawCall, ...]:
        """The model's calls, with the planned text put around what a step left it to write (a
        docstring's words); calls of other steps as they are."""
        ...


def run_results(messages: Sequence[Message]) -> list[tuple[Message, ToolCall | None]]:
    """The tool results since the latest task, each with the call that asked for it."""
    start = max(latest_task_index(messages), 0)
    pairs: list[tuple[Message, ToolCall | None]] = []
    calls: dict[str | None, ToolCall] = {}
    for message in messages[start:]:
        if message.role == "assistant":
            calls = {call.id: call for call in message.tool_calls}
        elif message.role == "tool":
            pairs.append((message, calls.get(message.tool_call_id)))
    return pairs


def latest_task_index(messages: Sequence[Message]) -> int:
    """Where the task being worked on was given: the latest user turn the runtime did not write (-1: none)."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.role == "user" and not is_followup(message):
            return index
    return -1


def is_followup(message: Message) -> bool:
    """A user turn the runtime wrote with a kind — a continue prompt, a parse note, a checks' note, a
    retry of an unusable or cut-off reply — is not a new task (a compaction's summary, which has no kind,
    restates the task, so it counts as one): the calls made before it still count."""
    return message.author == "runtime" and message.note is not None


def result_ok(result: Message) -> bool:
    """Whether a tool result message reports success."""
    return result.ok


def unfounded_answer(messages: Sequence[Message], answer: str) -> str | None:
    """Why an answer is invented: no tool result succeeded, or the answer shares nothing with them."""
    results = run_results(messages)
    good = [result.content for result, _ in results if result_ok(result)]
    if not good:
        failed = [(result, call) for result, call in results if not result_ok(result)]
        if not failed:
            return "no tool call of this run succeeded, so the answer would be invented"
        result, call = failed[-1]
        error = next((line for line in result.body.splitlines() if line.strip()), "")
        name = call.name if call is not None else "the last call"
        error = error[:300].rstrip(".")
        return f"{name} failed: {error}; no tool call succeeded, so any answer would be invented"
    said = {w.lower() for w in _WORD.findall(answer)}
    if not said:
        return "the answer is empty"
    seen = {w.lower() for text in good for w in _WORD.findall(text)}
    if len(said & seen) * 2 < min(len(said), 6):
        return "the answer does not quote or summarise what the tools returned"
    return None


def cut_off_text(reason: str) -> str:
    """The reply that ends a run honestly: what went wrong, then `AGENT_STATUS: STOP`."""
    return f"The model could not complete the task: {reason}.\nAGENT_STATUS: STOP"


NO_VALUE = object()
"""What `only_value` returns when a schema admits more than one value."""


def only_value(schema: Any) -> Any:
    """The one JSON value `schema` admits (a `const`, a one-item `enum`, objects of those), else `NO_VALUE`.

    When grounding has left a single choice, decoding it with the model would only spend time.
    """
    if not isinstance(schema, dict):
        return NO_VALUE
    if "const" in schema:
        return schema["const"]
    choices = schema.get("enum", schema.get("anyOf"))
    if choices is not None:
        if len(choices) != 1:
            return NO_VALUE
        return choices[0] if "enum" in schema else only_value(choices[0])
    return _only_object(schema)


def _only_object(schema: dict[str, Any]) -> Any:
    properties = schema.get("properties")
    closed = schema.get("additionalProperties") is False and schema.get("type") == "object"
    if not closed or not isinstance(properties, dict) or set(schema.get("required", ())) != set(properties):
        return NO_VALUE
    values = {name: only_value(prop) for name, prop in properties.items()}
    return NO_VALUE if any(v is NO_VALUE for v in values.values()) else values


def is_value(value: Any) -> bool:
    """Whether `only_value` found the one value."""
    return value is not NO_VALUE
