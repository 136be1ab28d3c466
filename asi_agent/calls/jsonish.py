"""Lenient JSON and call objects: what every dialect reader shares.

A call object names its tool with `name`, `tool`, `tool_name` or `function` (a string, or an object with
`name` and `arguments`) and its arguments with `arguments`, `parameters`, `args` or `input` (an object or
stringified JSON). Broken JSON (smart quotes, trailing commas, single quotes) is repaired with json_repair.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from asi_agent.exceptions import CallFormatError
from asi_agent.messages import RawCall, ToolCall

__all__ = [
    "ARGS_HINT",
    "JSON_DECODER",
    "NAME_KEYS",
    "call_from_object",
    "clean_name",
    "damage",
    "decode_arguments",
    "hex_id",
    "json_values",
    "lenient_json",
    "looks_like_call",
    "new_call_id",
    "normalize_native",
]

NAME_KEYS = ("name", "tool", "tool_name", "function")
_ARG_KEYS = ("arguments", "parameters", "args", "input")
_CALL_KEYS = frozenset({*NAME_KEYS, *_ARG_KEYS, "id", "type", "call_id", "tool_call_id"})
ARGS_HINT = 'a JSON object mapping parameter names to values, such as {"path": "src/app.py"}'
_SMART_SINGLE = str.maketrans({"‘": "'", "’": "'"})
# json_repair is quadratic on some garbage: longer text is not repaired.
_REPAIR_LIMIT = 20_000


# Ids name calls and messages, they guard nothing: a generator seeded once from the system's randomness
# draws them (a system call per id cost more than the rest of making one), one of its own so that a
# caller seeding `random` repeats no ids.
_IDS = random.Random()


def hex_id(chars: int) -> str:
    """`chars` random hex characters, for an id."""
    # The bytes' hex form (an even `chars`, as every id here has) is the padded number's, at half the cost.
    if chars % 2:
        return f"{_IDS.getrandbits(chars * 4):0{chars}x}"
    return _IDS.getrandbits(chars * 4).to_bytes(chars // 2, "big").hex()


def new_call_id() -> str:
    """A fresh call id: "call_" and 12 hex characters."""
    return "call_" + hex_id(12)


def _outside_strings(text: str) -> tuple[str, bool]:
    """The non-space characters of `text` outside JSON strings (their quotes kept), and whether the text
    ends inside a string."""
    kept: list[str] = []
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
                kept.append(char)
        elif not char.isspace():
            in_string = char == '"'
            kept.append(char)
    return "".join(kept), in_string


# A value written as a bare word (`{location:Paris}`): where its text ends is a guess.
_BARE_VALUE_RE = re.compile(r":(?P<word>[^\W\d][^,{}\[\]\"]*)(?=[,}\]]|$)")
_BARE_LITERALS = frozenset({"true", "false", "null", "none"})


def damage(text: str) -> str | None:
    """Why broken JSON must not be repaired: it was cut off, its brackets do not match, or a value is a
    bare word. Repairing those would invent values (a half-written path, a missing number, where a text
    ends); quotes around keys and commas are fine to fix."""
    chars, in_string = _outside_strings(text)
    if in_string:
        return "it was cut off inside a string"
    bare = next((m for m in _BARE_VALUE_RE.finditer(chars) if m["word"].lower() not in _BARE_LITERALS), None)
    if bare is not None:
        return f"a text value is not quoted (`{bare['word']}`)"
    stack: list[str] = []
    last = ""
    for char in chars:
        if char in "{[":
            if last == "{":
                return "an object opens where a key belongs"
            stack.append("}" if char == "{" else "]")
        # (a stray closer after the value, with the stack empty, is trailing junk: safe to drop)
        elif char in "}]" and stack and (stack.pop() != char or last == ":"):
            return "its brackets do not match" if last != ":" else "a value is missing"
        last = char
    if stack:  # closers the text never wrote: adding them would be a guess at where the value ends
        return "it was cut off" if last not in ('"', "}", "]") else "a closing bracket is missing"
    return None


def lenient_json(text: str) -> Any:
    """Strict JSON first, then json_repair; raises ValueError when nothing JSON-like is there or when
    the JSON was cut off (see `damage`)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    if len(text) > _REPAIR_LIMIT:
        raise ValueError("too long to repair")
    reason = damage(text)
    if reason is not None:
        raise ValueError(reason)
    import json_repair  # noqa: PLC0415 - ~10 ms of imports, only for a reply that is not plain JSON

    try:
        value = json_repair.loads(text.translate(_SMART_SINGLE))
    except (ValueError, RecursionError, IndexError, TypeError) as exc:
        raise ValueError(f"not JSON: {exc}") from exc
    # json_repair answers "" for text it cannot read at all.
    if value == "" and text.strip() not in ('""', "''"):
        raise ValueError("not JSON")
    return value


def _skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\r\n;,":
        index += 1
    return index


JSON_DECODER = json.JSONDecoder()
"""One decoder for every read of the call readers: it holds no state between reads, and making one costs as
much as a read."""


def json_values(text: str) -> Any:
    """One JSON value, a list when several follow each other (JSON Lines, `;`), else the repaired text."""
    values: list[Any] = []
    index = _skip_space(text, 0)
    try:
        while index < len(text):
            value, index = JSON_DECODER.raw_decode(text, index)
            values.append(value)
            index = _skip_space(text, index)
    except (ValueError, RecursionError):
        return lenient_json(text)
    if not values:
        raise ValueError("no JSON")
    return values[0] if len(values) == 1 else values


def _describe(value: object) -> str:
    if isinstance(value, list):
        return "a JSON array"
    return "the value " + json.dumps(value, ensure_ascii=False, default=str)[:60]


def decode_arguments(value: object, tool: str = "") -> dict[str, Any]:
    """Arguments as a dict: accepts a dict, JSON text (also double-encoded or broken), None or ""."""
    who = f"of `{tool}` " if tool else ""
    for _ in range(4):  # each pass unwraps one level of string encoding (three at most)
        if value is None:
            return {}
        if isinstance(value, dict):
            return {str(key): item for key, item in value.items()}
        if not isinstance(value, str):
            break
        if not value.strip():
            return {}
        try:
            value = lenient_json(value)
        except ValueError as exc:
            reason = f"The arguments {who}are not valid JSON ({exc}); use {ARGS_HINT}."
            raise CallFormatError(reason) from None
    raise CallFormatError(f"The arguments {who}must be {ARGS_HINT}; got {_describe(value)}.")


CALL_ID_RE = re.compile(r"^(?:call|toolu|tool_call|chatcmpl-tool)[_-][A-Za-z0-9_-]*\d[A-Za-z0-9_-]*$")
"""A call id (`call_0`, `call_abc123`, `toolu_01…`): never a tool's name."""


_CONTROL_TOKEN_RE = re.compile(r"<\|[\w:.-]*\|>")


def clean_name(name: str) -> str:
    """A tool name without surrounding quotes, backticks and spaces, and without a control token the
    model fumbled into it (`read<|message|>`): no tool's name holds one."""
    if "<|" in name:
        name = _CONTROL_TOKEN_RE.sub("", name)
    return name.strip().strip("`'\"“”").strip()


def normalize_native(raw: RawCall) -> ToolCall:
    """A backend's native call as a ToolCall; raises CallFormatError for unusable arguments."""
    name = clean_name(raw.name)
    if not name:
        raise CallFormatError("A tool call has no tool name; give the exact name of a listed tool.")
    arguments = decode_arguments(raw.arguments, name)
    call_id = raw.id.strip() if raw.id and raw.id.strip() else new_call_id()
    return ToolCall(id=call_id, name=name, arguments=arguments)


def looks_like_call(obj: object) -> bool:
    """Whether a JSON value is a call object rather than other JSON the model shows (package.json...)."""
    if not isinstance(obj, dict):
        return False
    function = obj.get("function")
    if isinstance(function, dict):
        return isinstance(function.get("name"), str)
    # Plain loops: this runs for every JSON value a reader finds, and generators cost more than the tests.
    for key in NAME_KEYS:
        if isinstance(obj.get(key), str):
            break
    else:
        return False
    if "description" in obj and "parameters" in obj:  # a tool definition, not a call
        return False
    for key in _ARG_KEYS:
        if key in obj:
            return True
    return obj.keys() <= _CALL_KEYS


def _call_name(obj: dict[str, Any]) -> str:
    """The first name key's clean value that is not a call id; raises CallFormatError without one."""
    names = []
    for key in NAME_KEYS:
        value = obj.get(key)
        if isinstance(value, str):
            name = clean_name(value)
            if name and not CALL_ID_RE.match(name):
                return name
            names.append(name)
    if any(names):
        raise CallFormatError(f"`{next(item for item in names if item)}` is a call id, not a tool name")
    raise CallFormatError("the call has no tool name")


def call_from_object(obj: dict[str, Any]) -> ToolCall:
    """The call an object describes; raises CallFormatError without a name or with bad arguments."""
    raw_id = obj.get("id", obj.get("tool_call_id"))
    function = obj.get("function")
    if isinstance(function, dict):
        obj = {**obj, **function}
    name = _call_name(obj)
    arguments: dict[str, Any] = {}
    for key in _ARG_KEYS:  # a loop, not `next` over a generator: this runs for every call read
        if key in obj:
            arguments = decode_arguments(obj[key], name)
            break
    call_id = raw_id.strip() if isinstance(raw_id, str) and raw_id.strip() else new_call_id()
    return ToolCall(id=call_id, name=name, arguments=arguments)
