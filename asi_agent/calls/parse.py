"""Turning model output into tool calls: native calls, the text forms of spec §4.4, and status lines.

Text forms accepted, in any mix and number per reply, in order of appearance:

    [TOOL_CALL]name[ARGS]{json}        one line (or several lines while the braces balance)
    [TOOL:name]{json}[/TOOL]
    ```json / ```json action fences    a call object or an array of call objects
    <tool_call>{json}</tool_call>       Hermes
    a reply that is nothing but a call object or array (what constrained decoding emits)

A call object names its tool with `name`, `tool`, `tool_name` or `function` (a string, or an object with
`name` and `arguments`) and its arguments with `arguments`, `parameters`, `args` or `input` (an object or
stringified JSON). Broken JSON (smart quotes, trailing commas, single quotes) is repaired with json_repair.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any, cast

import json_repair

from asi_agent.events import Status
from asi_agent.exceptions import CallFormatError
from asi_agent.messages import RawCall, ToolCall

__all__ = [
    "STATUS_RE",
    "ParsedReply",
    "decode_arguments",
    "new_call_id",
    "normalize_native",
    "parse_reply",
    "parse_status",
    "strip_status",
]

_NAME_KEYS = ("name", "tool", "tool_name", "function")
_ARG_KEYS = ("arguments", "parameters", "args", "input")
_CALL_KEYS = frozenset({*_NAME_KEYS, *_ARG_KEYS, "id", "type", "call_id"})
_FORMAT_HINT = 'Write each call on its own line as [TOOL_CALL]name[ARGS]{"param": "value"}.'
_ARGS_HINT = 'a JSON object mapping parameter names to values, such as {"path": "src/app.py"}'
_SMART_SINGLE = str.maketrans({"‘": "'", "’": "'"})
_TOOL_CALL_RE = re.compile(r"\[TOOL_CALL\][ \t]*(?P<name>[^\[\]\n]*?)[ \t]*\[ARGS\][ \t]*")
_TOOL_CALL_CLOSE_RE = re.compile(r"[ \t]*\[/TOOL_CALL\]")
_TOOL_TAG_RE = re.compile(r"\[TOOL:[ \t]*(?P<name>[^\]\n]*?)[ \t]*\]")
_HERMES_RE = re.compile(r"<tool_call>")
# Fences open a line, so a ``` inside a JSON string (a markdown file's text) is not one.
_FENCE_LINE_RE = re.compile(r"^[ \t]*```[ \t]*(?P<info>[^`\n]*)$", re.M)
_ACTION_FENCES = frozenset({"json action", "action", "tool_call", "tool_calls", "json tool_call"})
_JSON_FENCES = frozenset({"json", "json5", "jsonc", ""})
_MARKUP_RE = re.compile(r"\[TOOL_CALL\]|<tool_call>|\[TOOL:|```")
_NON_SPACE_RE = re.compile(r"\S")
_EMPTY_FENCE_RE = re.compile(r"^[ \t]*```[^`\n]*\n(?:[ \t]*\n)*[ \t]*```[ \t]*$", re.M)
_EMPTY_CODE_RE = re.compile(r"(?<!`)``(?!`)")
_JSON_TOKEN_RE = re.compile(r'[{}"“”\\]')
# Bounds for runaway replies (a small model looping on call syntax): json_repair is quadratic on some
# garbage, and scanning for a closing brace again from every call marker would be too.
_SCAN_LIMIT = 65_536
_REPAIR_LIMIT = 20_000
_MAX_SPANS = 64

STATUS_RE = re.compile(
    r"^[ \t>*_`#-]*AGENT_STATUS[ \t*_`]*[:：][ \t*_`]*(?P<status>DONE|CONTINUE|STOP)\b[ \t*_`.!。\r]*$",
    re.IGNORECASE | re.MULTILINE,
)
"""One `AGENT_STATUS: X` line, tolerating markdown bold/backticks, a full-width colon and any case."""


def new_call_id() -> str:
    """A fresh call id: "call_" and 12 hex characters."""
    return "call_" + secrets.token_hex(6)


@dataclass(frozen=True, slots=True)
class ParsedReply:
    """A reply split into its prose, the calls it made, and problems to show the model."""

    text: str
    calls: tuple[ToolCall, ...] = ()
    problems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Span:
    """A call-looking fragment of a reply: what it parsed to, or why it did not."""

    start: int
    end: int
    calls: tuple[ToolCall, ...] = ()
    problems: tuple[str, ...] = ()


def _lenient_json(text: str) -> Any:
    """Strict JSON first, then json_repair; raises ValueError when nothing JSON-like is there."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    if len(text) > _REPAIR_LIMIT:
        raise ValueError("too long to repair")
    try:
        value = json_repair.loads(text.translate(_SMART_SINGLE))
    except (ValueError, RecursionError, IndexError, TypeError) as exc:
        raise ValueError(f"not JSON: {exc}") from exc
    # json_repair answers "" for text it cannot read at all.
    if value == "" and text.strip() not in ('""', "''"):
        raise ValueError("not JSON")
    return value


def _next_non_space(text: str, index: int) -> int:
    found = _NON_SPACE_RE.search(text, index)
    return found.start() if found else len(text)


def _json_values(text: str) -> Any:
    """One JSON value, a list when several follow each other (JSON Lines), else the repaired text."""
    decoder = json.JSONDecoder()
    values: list[Any] = []
    index = _next_non_space(text, 0)
    try:
        while index < len(text):
            value, index = decoder.raw_decode(text, index)
            values.append(value)
            index = _next_non_space(text, index)
    except (ValueError, RecursionError):
        return _lenient_json(text)
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
            value = _lenient_json(value)
        except ValueError:
            raise CallFormatError(f"The arguments {who}are not valid JSON; use {_ARGS_HINT}.") from None
    raise CallFormatError(f"The arguments {who}must be {_ARGS_HINT}; got {_describe(value)}.")


def _clean_name(name: str) -> str:
    return name.strip().strip("`'\"“”").strip()


def normalize_native(raw: RawCall) -> ToolCall:
    """A backend's native call as a ToolCall; raises CallFormatError for unusable arguments."""
    name = _clean_name(raw.name)
    if not name:
        raise CallFormatError("A tool call has no tool name; give the exact name of a listed tool.")
    arguments = decode_arguments(raw.arguments, name)
    call_id = raw.id.strip() if raw.id and raw.id.strip() else new_call_id()
    return ToolCall(id=call_id, name=name, arguments=arguments)


def _looks_like_call(obj: object) -> bool:
    """Whether a JSON value is a call object rather than other JSON the model shows (package.json...)."""
    if not isinstance(obj, dict):
        return False
    function = obj.get("function")
    if isinstance(function, dict):
        return isinstance(function.get("name"), str)
    if not any(isinstance(obj.get(key), str) for key in _NAME_KEYS):
        return False
    if "description" in obj and "parameters" in obj:  # a tool definition, not a call
        return False
    return any(key in obj for key in _ARG_KEYS) or set(obj) <= _CALL_KEYS


def _call_from_object(obj: dict[str, Any]) -> ToolCall:
    raw_id = obj.get("id")
    function = obj.get("function")
    if isinstance(function, dict):
        obj = {**obj, **function}
    name = next((obj[key] for key in _NAME_KEYS if isinstance(obj.get(key), str)), "")
    name = _clean_name(name)
    if not name:
        raise CallFormatError("the call has no tool name")
    args_key = next((key for key in _ARG_KEYS if key in obj), None)
    arguments = decode_arguments(obj[args_key], name) if args_key else {}
    call_id = raw_id.strip() if isinstance(raw_id, str) and raw_id.strip() else new_call_id()
    return ToolCall(id=call_id, name=name, arguments=arguments)


def _problem(fragment: str, reason: str) -> str:
    snippet = " ".join(fragment.split())
    if len(snippet) > 80:
        snippet = snippet[:77] + "..."
    reason = reason.rstrip(".")
    return f"Could not parse the tool call `{snippet}`: {reason}. {_FORMAT_HINT}"


def _calls_span(start: int, end: int, fragment: str, value: object, *, strict: bool) -> _Span | None:
    """A span for a call object or array; None when the value is not a call and `strict` is off."""
    items = value if isinstance(value, list) else [value]
    if not any(_looks_like_call(item) for item in items):
        if not strict:
            return None
        reason = "its JSON could not be read" if value is None else "it is not a call object with a name"
        return _Span(start, end, problems=(_problem(fragment, reason),))
    calls: list[ToolCall] = []
    problems: list[str] = []
    for item in items:
        try:
            if not _looks_like_call(item):
                raise CallFormatError("an item is not a call object with a name")
            calls.append(_call_from_object(cast(dict[str, Any], item)))
        except CallFormatError as exc:
            problems.append(_problem(fragment, str(exc)))
    return _Span(start, end, tuple(calls), tuple(problems))


def _value_span(start: int, end: int, fragment: str, body: str, *, strict: bool) -> _Span | None:
    """A span for JSON text holding call objects (see `_calls_span`)."""
    try:
        value = _json_values(body)
    except ValueError:
        value = None
    return _calls_span(start, end, fragment, value, strict=strict)


def _named_span(start: int, end: int, fragment: str, name: str, body: str) -> _Span:
    """A span for the forms that give the name outside the JSON: [TOOL_CALL] and [TOOL:name]."""
    name = _clean_name(name)
    if not name:
        return _Span(start, end, problems=(_problem(fragment, "the tool name is missing"),))
    try:
        arguments = decode_arguments(body, name)
    except CallFormatError as exc:
        return _Span(start, end, problems=(_problem(fragment, str(exc)),))
    return _Span(start, end, (ToolCall(new_call_id(), name, arguments),))


def _balanced_end(text: str, start: int, limit: int) -> int | None:
    """End (exclusive) of the JSON object opening at `start`, skipping braces inside strings."""
    depth = 0
    closers = ""
    skip = -1
    for token in _JSON_TOKEN_RE.finditer(text, start, limit):
        char, index = token.group(), token.start()
        if closers:
            if index == skip:
                continue
            if char == "\\":
                skip = index + 1
            elif char in closers:
                closers = ""
        elif char in '"“”':
            closers = '"' if char == '"' else '”“"'
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
    return None


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start)
    return len(text) if end < 0 else end


def _object_end(text: str, start: int) -> int:
    """Where the object opening at `start` ends: its closing brace, else the line's end or next call."""
    line_end = _line_end(text, start)
    end = _balanced_end(text, start, min(len(text), start + _SCAN_LIMIT))
    # An unclosed object must not swallow the calls that follow it.
    if end is not None and (end <= line_end or not _MARKUP_RE.search(text, start, end)):
        return end
    marker = _MARKUP_RE.search(text, start + 1, line_end)
    return marker.start() if marker else line_end


def _scan_tool_call_lines(text: str) -> Iterator[_Span]:
    for marker in re.finditer(r"\[TOOL_CALL\]", text):
        start = marker.start()
        match = _TOOL_CALL_RE.match(text, start)
        if match is None:
            end = _line_end(text, start)
            yield _Span(start, end, problems=(_problem(text[start:end], "[ARGS] is missing after the name"),))
            continue
        body_start = match.end()
        has_object = text.startswith("{", body_start)
        end = _object_end(text, body_start) if has_object else _line_end(text, body_start)
        body = text[body_start:end]
        close = _TOOL_CALL_CLOSE_RE.match(text, end)
        if close is not None:
            end = close.end()
        elif not has_object:
            body = body.replace("[/TOOL_CALL]", "")
        yield _named_span(start, end, text[start:end], match.group("name"), body)


def _tagged_body(text: str, start: int, close_tag: str, open_tag: str) -> tuple[str, int]:
    """The body after an opening tag and where the fragment ends: the closing tag, the object, the line."""
    body_start = _next_non_space(text, start)
    close = text.find(close_tag, body_start)
    if close >= 0 and open_tag not in text[body_start:close]:
        return text[body_start:close], close + len(close_tag)
    end = _object_end(text, body_start) if text.startswith("{", body_start) else _line_end(text, start)
    return text[body_start:end], end


def _scan_tool_tags(text: str) -> Iterator[_Span]:
    for match in _TOOL_TAG_RE.finditer(text):
        body, end = _tagged_body(text, match.end(), "[/TOOL]", "[TOOL:")
        yield _named_span(match.start(), end, text[match.start() : end], match.group("name"), body)


def _scan_hermes(text: str) -> Iterator[_Span]:
    for match in _HERMES_RE.finditer(text):
        body, end = _tagged_body(text, match.end(), "</tool_call>", "<tool_call>")
        span = _value_span(match.start(), end, text[match.start() : end], body, strict=True)
        if span is not None:
            yield span


def _fence_pairs(text: str) -> Iterator[tuple[re.Match[str], re.Match[str]]]:
    """Opening and closing fence lines, paired in order as markdown does (a closing fence has no info)."""
    opener = None
    for line in _FENCE_LINE_RE.finditer(text):
        if opener is None:
            opener = line
        elif not line.group("info").strip():
            yield opener, line
            opener = None


def _scan_fences(text: str) -> Iterator[_Span]:
    for opener, closer in _fence_pairs(text):
        info = " ".join(opener.group("info").lower().split())
        strict = info in _ACTION_FENCES
        body = text[opener.end() : closer.start()].strip()
        if not strict and (info not in _JSON_FENCES or not body.startswith(("{", "["))):
            continue
        fragment = text[opener.start() : closer.end()]
        span = _value_span(opener.start(), closer.end(), fragment, body, strict=strict)
        if span is not None:
            yield span


_SCANNERS: tuple[Callable[[str], Iterator[_Span]], ...] = (
    _scan_fences,
    _scan_tool_call_lines,
    _scan_tool_tags,
    _scan_hermes,
)


def _choose(spans: list[_Span]) -> list[_Span]:
    """Spans in order of appearance; of overlapping ones the first (then the longest) wins."""
    chosen: list[_Span] = []
    for span in sorted(spans, key=lambda item: (item.start, -item.end)):
        if not chosen or span.start >= chosen[-1].end:
            chosen.append(span)
    return chosen


def _tidy(text: str) -> str:
    text = "\n".join(line.rstrip() for line in text.splitlines())
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def parse_reply(text: str) -> ParsedReply:
    """Split a reply into prose, calls and problems; never raises."""
    spans = _choose([span for scan in _SCANNERS for span in islice(scan(text), _MAX_SPANS)])
    if not spans and text.lstrip().startswith(("{", "[")):
        whole = _value_span(0, len(text), text, text.strip(), strict=False)
        spans = [whole] if whole is not None else []
    pieces: list[str] = []
    position = 0
    for span in spans:
        pieces.append(text[position : span.start])
        position = span.end
    pieces.append(text[position:])
    # Removing a call can leave the fence or inline code that held it empty.
    rest = _EMPTY_CODE_RE.sub("", _EMPTY_FENCE_RE.sub("", "".join(pieces))) if spans else text
    return ParsedReply(
        text=_tidy(rest),
        calls=tuple(call for span in spans for call in span.calls),
        problems=tuple(problem for span in spans for problem in span.problems),
    )


def parse_status(text: str) -> Status | None:
    """The status of the last `AGENT_STATUS: X` line, upper-cased; None when there is none."""
    found = STATUS_RE.findall(text)
    return cast(Status, found[-1].upper()) if found else None


def strip_status(text: str) -> str:
    """The text without its `AGENT_STATUS` lines, whitespace tidied."""
    return _tidy(STATUS_RE.sub("", text))
