"""Text mode: driving a model that has no native tool calling (tool-emulation checklist §1-§7).

The call adapter (`calls.adapter.CallAdapter`) puts `render_contract` in the system prompt, sends
`project_history` instead of the raw transcript, parses replies with `parse_reply`, and when `retry_reason`
(`calls.retry`) finds a reason it asks again with `retry_prompt`. Everything here is a pure function.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from asi_agent.calls.dialects import Dialect, get_dialect
from asi_agent.calls.dialects.asi import ASI, render_call_line
from asi_agent.messages import Message, ToolCall

if TYPE_CHECKING:
    from asi_agent.backends.base import ToolSchema

__all__ = [
    "HistoryProjection",
    "call_hint",
    "project_history",
    "render_call_line",
    "render_contract",
    "retry_prompt",
]

_CALL_FORMAT = "[TOOL_CALL]tool_name[ARGS]{json}"
_STATUS_RULE = "AGENT_STATUS: DONE, AGENT_STATUS: CONTINUE or AGENT_STATUS: STOP"
_CONTINUE_LINE = (
    f"Continue: call another tool with one {_CALL_FORMAT} line per call, or give the final answer "
    "with its last line AGENT_STATUS: DONE (or CONTINUE / STOP)."
)
_CONTINUE_OTHER = (
    "Continue: call another tool in the format described above, or give the final answer with its last "
    "line AGENT_STATUS: DONE (or CONTINUE / STOP)."
)
_ERROR_HINT = "A call failed: read the error, correct the arguments (or choose another tool) and call again."
_EXAMPLE_FIRST = ("read_file", "list_directory", "grep_search")
_EXAMPLE_NEXT = ("grep_search", "replace_text", "codebase_search", "list_directory")


def _dialect(dialect: Dialect | str) -> Dialect:
    resolved = get_dialect(dialect) if isinstance(dialect, str) else dialect
    return resolved if resolved.render is not None else ASI


def _render(calls: Sequence[ToolCall], dialect: Dialect) -> str:
    assert dialect.render is not None  # _dialect() guarantees a writable dialect
    return dialect.render(calls)


_HINT_EXAMPLE = ToolCall("call_1", "read_file", {"path": "src/app.py"})


# The hints written so far, by dialect name (with the dialect they were written for): a parse asks for
# its dialect's hint on every reply, and writing the example costs more than a small reply's parse steps.
_HINTS: dict[str, tuple[Dialect, str]] = {}


def call_hint(dialect: Dialect | str = ASI) -> str:
    """One sentence telling the model how to write a call in its dialect (ends every parse problem)."""
    resolved = _dialect(dialect)
    if resolved is ASI:
        return 'Write each call on its own line as [TOOL_CALL]name[ARGS]{"param": "value"}.'
    kept = _HINTS.get(resolved.name)
    if kept is not None and kept[0] is resolved:
        return kept[1]
    hint = f"Write each call as in this example: {_render([_HINT_EXAMPLE], resolved)}"
    _HINTS[resolved.name] = (resolved, hint)  # one entry per dialect: a bounded set
    return hint


def _function(tool: ToolSchema) -> Mapping[str, Any]:
    function = tool.get("function")
    return function if isinstance(function, Mapping) else tool


def _type_text(prop: Mapping[str, Any]) -> str:
    if isinstance(prop.get("enum"), list):
        return "|".join(json.dumps(choice, ensure_ascii=False) for choice in prop["enum"])
    kind = prop.get("type", "any")
    if isinstance(kind, list):
        return "|".join(str(item) for item in kind)
    if kind == "array" and isinstance(prop.get("items"), Mapping):
        return f"{_type_text(prop['items'])}[]"
    return str(kind)


def _signature(function: Mapping[str, Any]) -> str:
    """`name(path: string, startLine?: number = 1)`: `?` marks optional parameters, `=` a default."""
    parameters = function.get("parameters") or {}
    properties: Mapping[str, Any] = parameters.get("properties") or {}
    required = set(parameters.get("required") or ())
    parts = []
    for name, value in properties.items():
        prop: Mapping[str, Any] = value if isinstance(value, Mapping) else {}
        part = f"{name}{'' if name in required else '?'}: {_type_text(prop)}"
        if "default" in prop:
            part += f" = {json.dumps(prop['default'], ensure_ascii=False)}"
        parts.append(part)
    return f"{function.get('name', '?')}({', '.join(parts)})"


def _short_description(function: Mapping[str, Any]) -> str:
    text = " ".join(str(function.get("description") or "").split())
    return text if len(text) <= 300 else text[:297] + "..."


_EXAMPLE_BY_TYPE: Mapping[str, object] = {
    "number": 1,
    "integer": 1,
    "boolean": True,
    "array": (),
    "object": {},
}


def _example_value(name: str, prop: Mapping[str, Any]) -> object:
    if isinstance(prop.get("enum"), list) and prop["enum"]:
        return prop["enum"][0]
    kind = prop.get("type")
    if isinstance(kind, str) and kind in _EXAMPLE_BY_TYPE:
        return _EXAMPLE_BY_TYPE[kind]
    lowered = name.lower()
    if "path" in lowered or "file" in lowered:
        return "src/app.py"
    return "main" if lowered in ("query", "pattern", "symbol") else "example"


def _example_call(function: Mapping[str, Any], call_id: str) -> ToolCall:
    parameters = function.get("parameters") or {}
    properties: Mapping[str, Any] = parameters.get("properties") or {}
    arguments = {
        name: _example_value(name, properties.get(name) or {})
        for name in parameters.get("required") or ()
        if isinstance(name, str)
    }
    return ToolCall(id=call_id, name=str(function.get("name", "tool")), arguments=arguments)


def _pick(functions: Sequence[Mapping[str, Any]], preferred: Sequence[str], avoid: str) -> Mapping[str, Any]:
    by_name = {str(function.get("name")): function for function in functions}
    for name in preferred:
        if name in by_name and name != avoid:
            return by_name[name]
    others = [function for function in functions if function.get("name") != avoid]
    return others[0] if others else functions[0]


def _examples(functions: Sequence[Mapping[str, Any]], dialect: Dialect) -> list[str]:
    first = _example_call(_pick(functions, _EXAMPLE_FIRST, ""), "call_1")
    second = _example_call(_pick(functions, _EXAMPLE_NEXT, first.name), "call_2")
    output = "1\tdef main():\n2\t    run()" if first.name == "read_file" else "(the tool's output)"
    result = Message(role="tool", content=output, tool_call_id=first.id, name=first.name)
    return [
        "## Examples (the names and values are only illustrations)",
        "Your reply calling a tool (it may be just this):",
        _render([first], dialect),
        "",
        "The result then arrives as a user message:",
        _continuation([_frame_result(result, {})], dialect).content,
        "",
        "and your next reply calls the next tool:",
        _render([second], dialect),
        "",
        "Your final answer, once the task is done:",
        "`main` in src/app.py now calls `run()` once; nothing else needed changing.",
        "AGENT_STATUS: DONE",
    ]


def render_contract(tools: Sequence[ToolSchema], dialect: Dialect | str = ASI) -> str:
    """The system-prompt block that teaches a model without native tools how to call them, in `dialect`."""
    resolved = _dialect(dialect)
    functions = [_function(tool) for tool in tools]
    lines = [
        "# Tools",
        "You can act on the user's project with the tools below. They really run on the user's machine: "
        "use them to read, search, edit and run things instead of guessing or asking the user to do it.",
        "",
        "## Available tools (`?` marks an optional parameter, `=` its default)",
    ]
    lines += [f"- {_signature(function)}: {_short_description(function)}" for function in functions]
    if not functions:
        lines.append("- (no tools are available in this turn: answer directly)")
    lines += ["", "## How to call a tool", *resolved.rules]
    lines += [
        "",
        "## After a tool result",
        "Results arrive in a user message between [TOOL_RESULT name id=...] and [/TOOL_RESULT]. Then either "
        "call another tool or give the final answer.",
        '- Never narrate or simulate a call ("工具执行: ...", "I will now call read_file ..."): '
        "write the call itself.",
        "- Never invent a tool result: wait for it. If a result is an error, correct the call and try again.",
        "",
        "## Finishing",
        f"When you are done, reply with the final answer and no call. Its last line is one of {_STATUS_RULE} "
        "(DONE: the task is complete; CONTINUE: more work remains; STOP: you cannot go on). "
        "A reply with a call has no AGENT_STATUS line.",
        "",
    ]
    if functions:
        lines += _examples(functions, resolved)
    return "\n".join(lines)


def _frame_result(message: Message, names: Mapping[str, str]) -> str:
    call_id = message.tool_call_id or "?"
    name = message.name or names.get(call_id, "tool")
    content = message.content.strip("\n")
    header = f"[TOOL_RESULT {name} id={call_id}{'' if message.ok else ' error'}]"
    return f"{header}\n{content if content.strip() else '(no output)'}\n[/TOOL_RESULT]"


def _continuation(frames: Sequence[str], dialect: Dialect = ASI, *, failed: bool = False) -> Message:
    line = _CONTINUE_LINE if dialect is ASI else _CONTINUE_OTHER
    footer = f"{_ERROR_HINT}\n{line}" if failed else line
    return Message(role="user", content="\n\n".join([*frames, footer]), origin="runtime")


def _project_assistant(message: Message, dialect: Dialect) -> Message:
    calls = _render(message.tool_calls, dialect) if message.tool_calls else ""
    text = "\n".join([message.content.rstrip(), calls]).strip("\n")
    return Message(role="assistant", content=text)


def project_history(messages: Sequence[Message], dialect: Dialect | str = ASI) -> list[Message]:
    """The transcript as a text-mode model sees it: calls in `dialect`, results as framed user turns."""
    return HistoryProjection()(messages, dialect)


class HistoryProjection:
    """`project_history` for one conversation, turn after turn: a turn projects only what it added.

    The history grows at its end, so what was projected last time is kept up to the last run of tool
    results (which may have grown), recognised with one list comparison; anything else (a compaction,
    another dialect) is projected again from the start.
    """

    def __init__(self) -> None:
        self._dialect: Dialect | None = None
        self._sources: list[Message] = []
        self._projected: list[Message] = []
        self._settled = (0, 0)
        """How many messages, and how many projected ones, will stay as they are however the history grows."""
        self._names: dict[str, str] = {}

    def __call__(self, messages: Sequence[Message], dialect: Dialect | str = ASI) -> list[Message]:
        resolved = _dialect(dialect)
        known = len(self._sources)
        grew = (
            resolved is self._dialect and len(messages) >= known and list(messages[:known]) == self._sources
        )
        if not grew:
            self._dialect, self._settled, self._names = resolved, (0, 0), {}
        start, kept = self._settled
        projected, names, results = self._projected[:kept], self._names, list[Message]()
        for index in range(start, len(messages)):
            message = messages[index]
            if message.role == "tool":
                if not results:
                    self._settled = (index, len(projected))
                results.append(message)
                continue
            if results:
                projected.append(_framed(results, names, resolved))
                results = []
            if message.role == "assistant":
                names.update((call.id, call.name) for call in message.tool_calls)
                projected.append(_project_assistant(message, resolved))
            else:
                projected.append(message)
            self._settled = (index + 1, len(projected))
        if results:
            projected.append(_framed(results, names, resolved))
        self._sources, self._projected = list(messages), projected
        return list(projected)


def _framed(run: Sequence[Message], names: Mapping[str, str], dialect: Dialect) -> Message:
    """A run of results, framed as one user turn (each frame names its tool)."""
    failed = not all(result.ok for result in run)
    framed = _continuation([_frame_result(result, names) for result in run], dialect, failed=failed)
    images = tuple(image for result in run for image in result.images)  # `read_file` of an image
    return dataclasses.replace(framed, images=images) if images else framed


def retry_prompt(reason: str, dialect: Dialect | str = ASI) -> str:
    """The stricter user message that asks the model to answer again after `reason`."""
    resolved = _dialect(dialect)
    if reason.startswith("refusal"):
        why = "You do have working tools: they run on the user's project for you, so use them."
    elif reason.startswith("narrated"):
        why = "You described a tool call instead of making it, and no result exists yet."
    elif reason.startswith("unparsable"):
        why = reason.removeprefix("unparsable call: ")
    else:
        why = "Your reply had neither a tool call nor a final AGENT_STATUS line."
    if resolved is ASI:
        how = (
            f"To act, write each call on its own line exactly as {_CALL_FORMAT}, nothing else on that line, "
            "for example:"
        )
    else:
        how = "To act, write the call exactly in this format, for example:"
    return "\n".join(
        [
            f"Your last reply could not be used. {why}",
            how,
            _render([_HINT_EXAMPLE], resolved),
            "Do not describe calls and do not invent results. If the task is complete, give the final answer "
            f"and end it with the line {_STATUS_RULE}.",
        ]
    )
