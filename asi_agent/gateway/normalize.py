"""Requests of the OpenAI Chat Completions, OpenAI Responses and Anthropic Messages APIs read into one
structure (tool-emulation checklist §2): the runtime's own `Message`s, tool schemas and `tool_choice`.

The structure is the same whatever the client spoke, so the emulation, the history projection and the
tool-result framing of the call adapter serve all of them alike.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from asi_agent.backends.base import ToolSchema
from asi_agent.calls.jsonish import lenient_json
from asi_agent.gateway.documents import carries_documents, part_texts
from asi_agent.gateway.errors import BadRequest
from asi_agent.gateway.images import anthropic_images, openai_images, responses_images
from asi_agent.messages import Message, ToolCall

__all__ = ["BadRequest", "ChatRequest", "from_anthropic", "from_openai", "from_responses"]


@dataclass(slots=True)
class ChatRequest:
    """One request, whatever API it came through."""

    messages: list[Message]
    tools: list[ToolSchema] = field(default_factory=list)
    tool_choice: str = "auto"
    """`auto`, `none`, `required` (OpenAI `required`, Anthropic `any`) or the name of the one tool to call."""
    stream: bool = False
    model: str = ""
    max_tokens: int | None = None
    tools_from_history: bool = False
    """The request sent no tools but its history has calls: the tools are the ones the history used."""
    custom_tools: frozenset[str] = frozenset()
    """Free-form tools of the Responses API (input is one raw string): shown to the model as a function
    with one `input` argument, answered as `custom_tool_call` items."""

    @property
    def tool_history(self) -> bool:
        """Whether earlier turns called tools (checklist §2: emulation stays on without `tools`)."""
        return any(m.tool_calls or m.role == "tool" for m in self.messages)

    def finish(self) -> ChatRequest:
        """Tools recovered from the history when a later turn omits them, and a bad `tool_choice` refused."""
        if not self.tools and self.tool_history:
            names = dict.fromkeys(c.name for m in self.messages for c in m.tool_calls)
            self.tools = [_bare_tool(name) for name in names]
            self.tools_from_history = bool(self.tools)
        named = self.tool_choice not in ("auto", "none", "required")
        if named and self.tool_choice not in {t["function"]["name"] for t in self.tools}:
            raise BadRequest(f"tool_choice names {self.tool_choice!r}, which is not among the tools")
        return self


def _bare_tool(name: str) -> ToolSchema:
    return {
        "type": "function",
        "function": {"name": name, "description": "", "parameters": {"type": "object"}},
    }


def _arguments(raw: Any, where: str) -> dict[str, Any]:
    """Call arguments given as an object or as a JSON string (read leniently)."""
    if isinstance(raw, Mapping):
        return dict(raw)
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        try:
            value = lenient_json(raw)
        except ValueError:
            value = None
        if isinstance(value, dict):
            return value
    raise BadRequest(f"{where}: arguments must be a JSON object")


def _text(content: Any, where: str) -> str:
    """The text of a content field: a string, or a list of parts whose text parts are joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part_texts(content, where))
    raise BadRequest(f"{where}: content must be a string or a list of parts")


def _messages(body: Mapping[str, Any], key: str = "messages") -> list[Any]:
    value = body.get(key)
    if not isinstance(value, list) or not value:
        raise BadRequest(f"{key} must be a non-empty list")
    return value


def _stream(body: Mapping[str, Any]) -> bool:
    return bool(body.get("stream"))


def _max_tokens(body: Mapping[str, Any], *keys: str) -> int | None:
    for key in keys:
        value = body.get(key)
        if isinstance(value, int) and value > 0:
            return value
    return None


# OpenAI Chat Completions -------------------------------------------------------------------------------


def _openai_tools(raw: Any) -> list[ToolSchema]:
    tools: list[ToolSchema] = []
    for index, tool in enumerate(raw or ()):
        function = tool.get("function") if isinstance(tool, Mapping) else None
        if not isinstance(function, Mapping) or not isinstance(function.get("name"), str):
            raise BadRequest(f"tools[{index}]: expected {{type: function, function: {{name, parameters}}}}")
        tools.append({"type": "function", "function": dict(function)})
    return tools


def _openai_choice(raw: Any) -> str:
    if raw is None:
        return "auto"
    if raw in ("auto", "none", "required"):
        return str(raw)
    if isinstance(raw, Mapping) and isinstance(raw.get("function"), Mapping):
        return str(raw["function"].get("name"))
    raise BadRequest("tool_choice must be auto, none, required or {type: function, function: {name}}")


def _openai_message(raw: Any, index: int, names: dict[str, str]) -> Message:
    where = f"messages[{index}]"
    if not isinstance(raw, Mapping):
        raise BadRequest(f"{where}: expected an object")
    role = raw.get("role")
    content = _text(raw.get("content"), where)
    if role in ("system", "developer"):
        return Message("system", content)
    if role == "user":
        return Message("user", content, images=openai_images(raw.get("content"), where))
    if role == "assistant":
        calls = []
        for number, call in enumerate(raw.get("tool_calls") or ()):
            function = call.get("function") or {}
            call_id = str(call.get("id") or f"call_{index}_{number}")
            name = str(function.get("name") or "")
            names[call_id] = name
            calls.append(ToolCall(call_id, name, _arguments(function.get("arguments"), where)))
        return Message("assistant", content, tool_calls=tuple(calls))
    if role == "tool":
        call_id = str(raw.get("tool_call_id") or "")
        images = openai_images(raw.get("content"), where)
        named = raw.get("name") or names.get(call_id)
        return Message("tool", content, tool_call_id=call_id, name=named, images=images)
    raise BadRequest(f"{where}: unknown role {role!r}")


def from_openai(body: Mapping[str, Any]) -> ChatRequest:
    """A Chat Completions request."""
    names: dict[str, str] = {}
    messages = [_openai_message(m, i, names) for i, m in enumerate(_messages(body))]
    return ChatRequest(
        _merged_system(messages),
        _openai_tools(body.get("tools")),
        _openai_choice(body.get("tool_choice")),
        _stream(body),
        str(body.get("model") or ""),
        _max_tokens(body, "max_completion_tokens", "max_tokens"),
    ).finish()


def _merged_system(messages: Sequence[Message]) -> list[Message]:
    """One system turn first (the contract follows it), whatever order the client sent them in."""
    system = "\n\n".join(m.content for m in messages if m.role == "system" and m.content)
    rest = [m for m in messages if m.role != "system"]
    return [Message("system", system), *rest] if system else rest


# Anthropic Messages ------------------------------------------------------------------------------------


def _anthropic_tools(raw: Any) -> list[ToolSchema]:
    tools: list[ToolSchema] = []
    for index, tool in enumerate(raw or ()):
        if not isinstance(tool, Mapping) or not isinstance(tool.get("name"), str):
            raise BadRequest(f"tools[{index}]: expected {{name, description, input_schema}}")
        if tool.get("type") not in (None, "custom"):
            continue  # server tools (web search, …) run at Anthropic: nothing a plain model can call
        function = {
            "name": tool["name"],
            "description": str(tool.get("description") or ""),
            "parameters": dict(tool.get("input_schema") or {"type": "object"}),
        }
        tools.append({"type": "function", "function": function})
    return tools


def _anthropic_choice(raw: Any) -> str:
    if raw is None:
        return "auto"
    kind = raw.get("type") if isinstance(raw, Mapping) else None
    if kind in ("auto", "none"):
        return str(kind)
    if kind == "any":
        return "required"
    if kind == "tool" and isinstance(raw.get("name"), str):
        return str(raw["name"])
    raise BadRequest("tool_choice must be {type: auto|any|none} or {type: tool, name}")


def _result(block: Mapping[str, Any], where: str) -> Message:
    """A `tool_result` block: its text and its images."""
    return Message(
        "tool",
        _text(block.get("content"), where),
        tool_call_id=str(block.get("tool_use_id") or ""),
        outcome="error" if block.get("is_error") else "ok",
        images=anthropic_images(block.get("content"), where),
    )


def _anthropic_turn(raw: Any, index: int) -> list[Message]:
    """One Anthropic message: a user turn may carry tool results (each becomes a tool message) and text."""
    where = f"messages[{index}]"
    if not isinstance(raw, Mapping) or raw.get("role") not in ("user", "assistant"):
        raise BadRequest(f"{where}: expected {{role: user|assistant, content}}")
    content = raw.get("content")
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    if not isinstance(blocks, list):
        raise BadRequest(f"{where}: content must be a string or a list of blocks")
    texts = part_texts(blocks, where)
    if raw["role"] == "assistant":
        calls = tuple(
            ToolCall(
                str(b.get("id") or f"toolu_{index}_{n}"),
                str(b.get("name")),
                _arguments(b.get("input"), where),
            )
            for n, b in enumerate(blocks)
            if isinstance(b, Mapping) and b.get("type") == "tool_use"
        )
        return [Message("assistant", "\n".join(texts), tool_calls=calls)]
    results = [
        _result(b, f"{where}.content[{n}]")
        for n, b in enumerate(blocks)
        if isinstance(b, Mapping) and b.get("type") == "tool_result"
    ]
    text, images = "\n".join(t for t in texts if t), anthropic_images(blocks, where)
    return [*results, Message("user", text, images=images)] if text or images or not results else results


def _anthropic_system(raw: Any) -> list[Message]:
    text = _text(raw, "system")
    return [Message("system", text)] if text else []


def from_anthropic(body: Mapping[str, Any]) -> ChatRequest:
    """A Messages request (`max_tokens` is required by the API, and kept)."""
    messages = _anthropic_system(body.get("system"))
    for index, raw in enumerate(_messages(body)):
        messages += _anthropic_turn(raw, index)
    names = {c.id: c.name for m in messages for c in m.tool_calls}
    messages = [
        dataclasses.replace(m, name=names.get(m.tool_call_id or "")) if m.role == "tool" else m
        for m in messages
    ]
    return ChatRequest(
        messages,
        _anthropic_tools(body.get("tools")),
        _anthropic_choice(body.get("tool_choice")),
        _stream(body),
        str(body.get("model") or ""),
        _max_tokens(body, "max_tokens"),
    ).finish()


# OpenAI Responses --------------------------------------------------------------------------------------


def _responses_tools(raw: Any) -> list[ToolSchema]:
    tools: list[ToolSchema] = []
    for tool in raw or ():
        if not isinstance(tool, Mapping) or not isinstance(tool.get("name"), str):
            continue  # built-in tools (web search, …) run at OpenAI: nothing a plain model can call
        if tool.get("type") == "function":
            function = {k: tool[k] for k in ("name", "description", "parameters") if k in tool}
            tools.append({"type": "function", "function": function})
        elif tool.get("type") == "custom":
            tools.append({"type": "function", "function": _custom_function(tool)})
    return tools


def _custom_function(tool: Mapping[str, Any]) -> dict[str, Any]:
    """A free-form tool as a function of one string: its format (a grammar, when given) goes in the text."""
    grammar = (
        (tool.get("format") or {}).get("definition") if isinstance(tool.get("format"), Mapping) else None
    )
    described = "The whole raw input of the tool, as one string" + (
        f", in this grammar:\n{grammar}" if grammar else ""
    )
    parameters = {"type": "object", "properties": {"input": {"type": "string", "description": described}}}
    return {
        "name": tool["name"],
        "description": str(tool.get("description") or ""),
        "parameters": parameters | {"required": ["input"]},
    }


def _responses_item(item: Any, index: int) -> Message:
    where = f"input[{index}]"
    if not isinstance(item, Mapping):
        raise BadRequest(f"{where}: expected an object")
    kind = item.get("type") or "message"
    if kind == "function_call":
        call = ToolCall(
            str(item.get("call_id")), str(item.get("name")), _arguments(item.get("arguments"), where)
        )
        return Message("assistant", "", tool_calls=(call,))
    if kind == "custom_tool_call":
        call = ToolCall(
            str(item.get("call_id")), str(item.get("name")), {"input": str(item.get("input") or "")}
        )
        return Message("assistant", "", tool_calls=(call,))
    if kind in ("function_call_output", "custom_tool_call_output"):
        output = item.get("output")
        images = responses_images(output, where)
        carried = images or carries_documents(output)
        text = output if isinstance(output, str) else _text(output, where) if carried else json.dumps(output)
        return Message("tool", text, tool_call_id=str(item.get("call_id")), images=images)
    if kind == "message":
        role = item.get("role")
        text = _text(item.get("content"), where)
        if role in ("system", "developer"):
            return Message("system", text)
        images = () if role == "assistant" else responses_images(item.get("content"), where)
        return Message("assistant" if role == "assistant" else "user", text, images=images)
    return Message("user", "")  # reasoning and other items carry nothing a plain model can use


def _joined(messages: Sequence[Message]) -> list[Message]:
    """Consecutive assistant turns (text, then each call as its own item) made one turn."""
    joined: list[Message] = []
    for message in messages:
        if message.role == "user" and not message.content and not message.images:
            continue
        last = joined[-1] if joined else None
        if (
            message.role == "assistant"
            and last is not None
            and last.role == "assistant"
            and message.tool_calls
        ):
            joined[-1] = Message(
                "assistant", last.content, tool_calls=(*last.tool_calls, *message.tool_calls)
            )
        else:
            joined.append(message)
    return joined


def from_responses(body: Mapping[str, Any]) -> ChatRequest:
    """A Responses request (`instructions` + `input` items, as Codex sends them; `store` is not kept)."""
    raw = body.get("input")
    items = [{"type": "message", "role": "user", "content": raw}] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not items:
        raise BadRequest("input must be a string or a non-empty list of items")
    messages = _joined([_responses_item(item, i) for i, item in enumerate(items)])
    instructions = body.get("instructions")
    if isinstance(instructions, str) and instructions:
        messages.insert(0, Message("system", instructions))
    names = {c.id: c.name for m in messages for c in m.tool_calls}
    messages = [
        dataclasses.replace(m, name=names.get(m.tool_call_id or "")) if m.role == "tool" else m
        for m in messages
    ]
    choice = body.get("tool_choice")
    if isinstance(choice, Mapping) and choice.get("type") == "function":
        choice = {"type": "function", "function": {"name": choice.get("name")}}
    raw_tools = body.get("tools") or []
    custom = frozenset(
        str(t["name"])
        for t in raw_tools
        if isinstance(t, Mapping) and t.get("type") == "custom" and "name" in t
    )
    request = ChatRequest(
        _merged_system(messages),
        _responses_tools(raw_tools),
        _openai_choice(choice),
        _stream(body),
        str(body.get("model") or ""),
        _max_tokens(body, "max_output_tokens"),
    )
    request.custom_tools = custom
    return request.finish()
