"""What the reader tests share: a tool list built from parameter types, the calls a parsed reply holds,
what a parse gives, and property tests over replies joined from pieces."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from asi_agent.calls import ParsedReply

READ_FILE_ONLY: list[dict[str, Any]] = [
    {"type": "function", "function": {"name": "read_file", "parameters": {}}}
]
"""One tool, `read_file`, its parameters left open: what the generated replies call."""


def tools(**params: dict[str, str]) -> list[dict[str, Any]]:
    """OpenAI-style tool definitions: `tools(run={"cmd": "string"})`."""
    return [
        {
            "type": "function",
            "function": {
                "name": name,
                "parameters": {"type": "object", "properties": {k: {"type": t} for k, t in props.items()}},
            },
        }
        for name, props in params.items()
    ]


def named(reply: ParsedReply) -> list[tuple[str, dict[str, Any]]]:
    """The reply's calls as (name, arguments) pairs, in order."""
    return [(call.name, call.arguments) for call in reply.calls]


def seen(reply: ParsedReply) -> tuple[Any, ...]:
    """Everything a parse gives but the calls' ids (new for every read)."""
    return reply.text, tuple(named(reply)), reply.problems, reply.reasoning, reply.dialect, reply.markup


def joined_from(
    pieces: Sequence[str], *, max_size: int, examples: int
) -> Callable[[Callable[[str], None]], Callable[[], None]]:
    """A property test over `examples` texts, each up to `max_size` of `pieces` joined (no deadline: a
    parse of a long text may take a while on a busy machine)."""

    def property_test(test: Callable[[str], None]) -> Callable[[], None]:
        texts = st.lists(st.sampled_from(pieces), max_size=max_size).map("".join)
        return settings(max_examples=examples, deadline=None)(given(texts)(test))

    return property_test
