"""What the reader tests share: a tool list built from parameter types, and the calls a parsed reply holds."""

from __future__ import annotations

from typing import Any

from asi_agent.calls import ParsedReply


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
