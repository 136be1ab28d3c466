"""The chat a local model sees and the reply it may give: the reply schema, the prompt, the transcript.

With tools offered, decoding is constrained by a JSON schema whose top level is `anyOf` of
`{"answer": ...}` and, per tool, `{"tool": <name>, "arguments": <its parameters>}`. A `TurnPlan`
(from a guide) adds orientation text and a worked example in the model's own chat template, and
decides whether the answer is allowed and what shape it has.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from asi_agent.backends.base import ToolSchema
from asi_agent.backends.guide import TurnPlan
from asi_agent.messages import Message, RawCall

__all__ = ["build_reply_schema", "parse_reply", "render_messages", "tools_prompt"]

_DESCRIPTION_CHARS = 120  # tool descriptions are cut here: the prompt must fit a small context
_ENUM_SHOWN = 6  # choices listed per parameter in the prompt; the grammar holds all of them


# --- the reply schema -------------------------------------------------------------------


def _tool_function(tool: ToolSchema) -> Mapping[str, Any]:
    function = tool.get("function", tool)
    return function if isinstance(function, Mapping) else {}


def _closed(schema: Any) -> Any:
    """`schema` with `additionalProperties: false` on every object that lists properties."""
    if isinstance(schema, list):
        return [_closed(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    result = {key: _closed(value) for key, value in schema.items()}
    if "properties" in result and "additionalProperties" not in result:
        result["additionalProperties"] = False
    return result


def build_reply_schema(
    tools: Sequence[ToolSchema], *, allow_answer: bool = True, answer: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The JSON schema of a reply: a final answer (when allowed; `answer` schemas its text), or one call."""
    answer_schema = {
        "type": "object",
        "properties": {"answer": dict(answer) if answer is not None else {"type": "string"}},
        "required": ["answer"],
        "additionalProperties": False,
    }
    choices: list[dict[str, Any]] = [answer_schema] if allow_answer or not tools else []
    for tool in tools:
        function = _tool_function(tool)
        parameters = function.get("parameters") or {"type": "object", "properties": {}}
        choices.append(
            {
                "type": "object",
                "properties": {"tool": {"const": function["name"]}, "arguments": _closed(parameters)},
                "required": ["tool", "arguments"],
                "additionalProperties": False,
            }
        )
    return {"anyOf": choices}


# --- the prompt ---------------------------------------------------------------------------


def _type_label(schema: Mapping[str, Any]) -> str:
    if "enum" in schema:
        shown = [json.dumps(choice, ensure_ascii=False)[:60] for choice in schema["enum"][:_ENUM_SHOWN]]
        return "|".join(shown) + ("|…" if len(schema["enum"]) > _ENUM_SHOWN else "")
    kind = schema.get("type", "any")
    return "|".join(kind) if isinstance(kind, list) else str(kind)


def _short(description: str) -> str:
    """The first sentence, at most `_DESCRIPTION_CHARS` long, cut at a word."""
    text = " ".join(description.split())
    text = re.split(r"(?<=[.;。；])\s", text, maxsplit=1)[0].rstrip(";；")
    if len(text) > _DESCRIPTION_CHARS:
        text = text[:_DESCRIPTION_CHARS].rsplit(" ", 1)[0] + "…"
    return text


def _signature(function: Mapping[str, Any]) -> str:
    parameters = function.get("parameters") or {}
    if "anyOf" in parameters:  # variants (grounded choices per file): describe the first
        parameters = parameters["anyOf"][0]
    required = set(parameters.get("required") or ())
    fields = [
        f"{name}{'*' if name in required else ''}: {_type_label(schema)}"
        for name, schema in (parameters.get("properties") or {}).items()
    ]
    description = _short(str(function.get("description", "")))
    return f"- {function['name']}({', '.join(fields)}): {description}"


def tools_prompt(tools: Sequence[ToolSchema]) -> str:
    """The system text teaching a small model the tools and the one-JSON-object reply format.

    The format lines are the only example on purpose: measured on the benchmark, a concrete
    example call made the 135M model copy its values into every reply.
    """
    functions = [_tool_function(tool) for tool in tools]
    lines = [
        "Reply with exactly one JSON object and nothing else.",
        'To use a tool: {"tool": "<name>", "arguments": {<parameters>}}',
        'To answer the user: {"answer": "<your answer>"}',
        "Tools (* = required parameter):",
        *(_signature(function) for function in functions),
        "Take names and values from the user's request. "
        'Answer questions that need no tool with {"answer": ...}.',
    ]
    return "\n".join(lines)


# --- the transcript -----------------------------------------------------------------------


def _call_json(name: str, arguments: Mapping[str, Any]) -> str:
    return json.dumps({"tool": name, "arguments": dict(arguments)}, ensure_ascii=False)


def _render_assistant(message: Message, structured: bool) -> str:
    calls = "\n".join(_call_json(call.name, call.arguments) for call in message.tool_calls)
    if not structured:
        # In text mode the calls already sit in the content the model wrote.
        return message.content or calls
    if calls:
        return calls
    return json.dumps({"answer": message.content}, ensure_ascii=False)


def _render_turn(message: Message, structured: bool) -> tuple[str, str]:
    if message.role == "assistant":
        return "assistant", _render_assistant(message, structured)
    if message.role == "tool":
        # Small local chat templates know no tool role: the result becomes a user turn.
        return "user", f"Result of {message.name or 'the tool'}:\n{message.content}"
    return message.role, message.content


def render_messages(
    messages: Sequence[Message], tools: Sequence[ToolSchema] | None, plan: TurnPlan | None = None
) -> list[dict[str, str]]:
    """The chat sent to the model: a system turn (tools, the plan's orientation), calls and results as text.

    A plan's worked example comes first, as real turns of the model's chat template.
    """
    system = [message.content for message in messages if message.role == "system" and message.content]
    if plan is not None and plan.own_system:
        system = []
    if tools:
        system.append(tools_prompt(tools))
    if plan is not None and plan.system:
        system.append(plan.system)
    chat: list[dict[str, str]] = [{"role": "system", "content": "\n\n".join(system)}] if system else []
    turns = [(role, content) for role, content in (plan.example if plan is not None else ())]
    turns += [
        _render_turn(message, structured=bool(tools)) for message in messages if message.role != "system"
    ]
    for role, content in turns:
        if chat and chat[-1]["role"] == role:
            # Some chat templates require alternating roles: merge a tool result with what follows.
            chat[-1]["content"] += "\n\n" + content
        else:
            chat.append({"role": role, "content": content})
    return chat


# --- the reply ----------------------------------------------------------------------------


def _new_call_id() -> str:
    return f"call_{secrets.token_hex(6)}"


def _loads_lenient(text: str) -> Any:
    import json_repair  # noqa: PLC0415 - only for replies decoded without the schema (rare)

    return json_repair.repair_json(text, return_objects=True)


def _as_call(data: Mapping[str, Any], lenient: bool) -> RawCall | None:
    name = data.get("tool")
    if lenient and not isinstance(name, str):
        name = data.get("name")
    if not isinstance(name, str) or not name:
        return None
    arguments = data.get("arguments")
    if lenient and arguments is None:
        arguments = data.get("parameters")
    if lenient and isinstance(arguments, str):
        arguments = _loads_lenient(arguments)  # double-encoded arguments
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return None
    return RawCall(id=_new_call_id(), name=name, arguments=arguments)


def parse_reply(text: str, *, lenient: bool = False) -> tuple[str, RawCall | None]:
    """Split a reply into (answer text, call). Anything that is neither comes back as text, never raises.

    `lenient` repairs broken JSON and accepts `name`/`parameters` for `tool`/`arguments`, for
    replies decoded without the schema.
    """
    if lenient:
        data = _loads_lenient(text)
        if isinstance(data, list):
            data = next((item for item in data if isinstance(item, dict)), None)
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return text, None
    if not isinstance(data, dict):
        return text, None
    call = _as_call(data, lenient)
    if call is not None:
        return "", call
    answer = data.get("answer")
    return (answer, None) if isinstance(answer, str) else (text, None)
