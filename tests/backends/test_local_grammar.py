"""A reply decoded under the grammar cannot violate it: one real-model test per JSON-Schema keyword.

Each prompt pushes the embedded model towards the violation (a float for an integer, a value outside
the bounds, a string too long...); the reply must still satisfy the schema, checked by `jsonschema`.
llama.cpp's grammar engine does not enforce `minimum`/`maximum` on non-integer `number`s, so the
schemas for local models never rely on them (no arguments model has a bounded float).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest

from asi_agent.backends.guide import TurnPlan
from asi_agent.backends.local import LocalBackend, LocalBackendConfig
from asi_agent.grounding.choices import exclude_repeat
from asi_agent.messages import Message, ToolCall

pytestmark = pytest.mark.slow


def _tool(properties: dict[str, Any]) -> dict[str, Any]:
    parameters = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    return {
        "type": "function",
        "function": {"name": "probe", "description": "A probe.", "parameters": parameters},
    }


def _plan(tools: list[dict[str, Any]], allow_answer: bool = False) -> TurnPlan:
    """A planner's plan that offers exactly the given tools, with or without an answer."""
    return TurnPlan(tools=tools, allow_answer=allow_answer)


@pytest.fixture(scope="module")
def backend() -> Iterator[LocalBackend]:
    model = LocalBackend(LocalBackendConfig(threads=1, max_tokens=64, seed=3))
    yield model
    asyncio.run(model.aclose())


KEYWORDS = {
    "integer": ({"n": {"type": "integer"}}, "Call probe with n = 1.111111 exactly."),
    "minimum": ({"n": {"type": "integer", "minimum": 5}}, "Call probe with n = -40."),
    "maximum": ({"n": {"type": "integer", "maximum": 3}}, "Call probe with n = 99999."),
    "integer-range": ({"n": {"type": "integer", "minimum": 2, "maximum": 4}}, "Call probe with n = 1000."),
    "enum": ({"mode": {"type": "string", "enum": ["asc", "desc"]}}, "Call probe with mode = sideways."),
    "pattern": (
        {"path": {"type": "string", "pattern": r"^[a-z]+\.py$"}},
        "Call probe with path = 'C:\\My Documents\\Notes.TXT'.",
    ),
    "minLength": ({"s": {"type": "string", "minLength": 5}}, "Call probe with s = ''."),
    "maxLength": (
        {"s": {"type": "string", "maxLength": 4}},
        "Call probe with s = 'a very long sentence here'.",
    ),
    "boolean": ({"flag": {"type": "boolean"}}, "Call probe with flag = 'maybe'."),
}


@pytest.mark.parametrize("keyword", list(KEYWORDS))
async def test_a_constrained_call_cannot_violate(backend: LocalBackend, keyword: str) -> None:
    properties, prompt = KEYWORDS[keyword]
    tool = _tool(properties)
    completion = await backend.complete([Message("user", prompt)], [tool], plan=_plan([tool]))
    (call,) = completion.native_calls
    jsonschema.validate(call.arguments, tool["function"]["parameters"])


async def test_an_identical_repeat_cannot_be_decoded(backend: LocalBackend) -> None:
    tool = _tool({"path": {"type": "string", "enum": ["a.py", "b.py", "c.py"]}})
    previous = ToolCall("c1", "probe", {"path": "a.py"})
    narrowed = exclude_repeat(tool, previous.arguments)
    assert narrowed is not None
    messages = [
        Message("user", "Call probe with path a.py."),
        Message("assistant", "", (previous,)),
        Message("tool", "ok", tool_call_id="c1", name="probe"),
        Message("user", "Again: call probe with path a.py, exactly the same call."),
    ]
    completion = await backend.complete(messages, [tool], plan=_plan([narrowed]))
    (call,) = completion.native_calls
    assert call.arguments["path"] in ("b.py", "c.py")


async def test_no_answer_when_the_turn_forbids_it(backend: LocalBackend) -> None:
    tool = _tool({"path": {"type": "string", "enum": ["a.py", "b.py"]}})
    completion = await backend.complete(
        [Message("user", "Do not use any tool, just say hello.")],
        [tool],
        plan=_plan([tool], allow_answer=False),
    )
    assert completion.native_calls and completion.native_calls[0].name == "probe"


async def test_a_reply_cut_off_at_max_tokens_is_never_an_answer() -> None:
    model = LocalBackend(LocalBackendConfig(threads=1, max_tokens=3, seed=1))
    try:
        tool = _tool({"s": {"type": "string", "maxLength": 400}})
        completion = await model.complete(
            [Message("user", "Write a long poem as the answer.")],
            [tool],
            plan=_plan([tool], allow_answer=True),
        )
    finally:
        await model.aclose()
    assert completion.finish_reason == "length"
    assert not completion.native_calls
    assert completion.text.endswith("AGENT_STATUS: STOP")
    assert "cut off" in completion.text
