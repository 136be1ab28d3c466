"""Pythonic calls: `[get_weather(city="SF"), search(q="x")]` (Llama 3.2/4, LFM2, Granite pythonic),
also inside `<|python_start|>…<|python_end|>`, `<|tool_call_start|>…<|tool_call_end|>` or a
```tool_code fence (Gemma), and one call per line inside `<function_calls>…</function_calls>` (OLMo 3).
JSON's `null`, `true` and `false` are read as Python's `None`, `True` and `False`.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterator, Sequence
from typing import Any, cast

from asi_agent.calls.dialects.base import Dialect, ReadContext, Span, cut_span, problem
from asi_agent.calls.jsonish import new_call_id
from asi_agent.exceptions import CallFormatError
from asi_agent.messages import ToolCall

__all__ = ["PYTHONIC"]

_START_RE = re.compile(r"\[\s*[A-Za-z_][\w.]*\s*\(")
_WRAPPERS = (
    ("<|python_start|>", "<|python_end|>"),
    ("<|tool_call_start|>", "<|tool_call_end|>"),
)
# Wrappers whose list is a call only once closed (LFM2; Llama 4's `<|python_end|>` may be left out).
_MUST_CLOSE = frozenset({"<|tool_call_end|>"})
_TOOL_CODE_RE = re.compile(r"^[ \t]*```tool_code[ \t]*\n(?P<body>.*?)\n[ \t]*```[ \t]*$", re.M | re.S)
_BLOCK_OPEN, _BLOCK_CLOSE = "<function_calls>", "</function_calls>"
# A block of Python calls starts with a call (or a list of them); other formats' blocks are theirs to read.
_BLOCK_CALL_RE = re.compile(r"\s*\[?\s*[A-Za-z_][\w.]*\s*\(")
_LIMIT = 65_536
_JSON_NAMES = {"null": None, "true": True, "false": False}


class _JsonNames(ast.NodeTransformer):
    """JSON's literals written in a Python call, read as the Python constants they mean."""

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in _JSON_NAMES:
            return ast.copy_location(ast.Constant(_JSON_NAMES[node.id]), node)
        return node


def _bracket_end(text: str, start: int) -> int | None:
    """End (exclusive) of the bracket opening at `start`, skipping brackets inside Python strings."""
    depth, quote, index = 0, "", start
    stop = min(len(text), start + _LIMIT)
    while index < stop:
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return None


def _literal(node: ast.expr) -> Any:
    value = ast.literal_eval(_JsonNames().visit(node))
    if isinstance(value, bytes | complex | set | frozenset):
        raise ValueError("not a JSON value")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("not a finite number")
    return list(value) if isinstance(value, tuple) else value


def _call(node: ast.expr) -> ToolCall:
    if not isinstance(node, ast.Call) or node.args:
        raise CallFormatError("write each call as name(param=value, ...)")
    name = ast.unparse(node.func)
    try:
        arguments = {str(kw.arg): _literal(kw.value) for kw in node.keywords if kw.arg is not None}
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError) as exc:
        raise CallFormatError(f"an argument of `{name}` is not a literal value ({exc})") from None
    return ToolCall(new_call_id(), name, arguments)


def _segments(inner: str) -> list[str]:
    """The top-level comma-separated items of a list body, so that one broken call spares the others."""
    items, depth, quote, begin = [], 0, "", 0
    for index, char in enumerate(inner):
        if quote:
            quote = "" if char == quote and inner[index - 1] != "\\" else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            items.append(inner[begin:index])
            begin = index + 1
    items.append(inner[begin:])
    return [item.strip() for item in items if item.strip()]


def _nodes(source: str, ctx: ReadContext) -> tuple[list[ast.expr], list[str]]:
    """The call expressions of a list (or of one call); broken items become problems."""
    try:
        tree = ast.parse(source, mode="eval").body
        return (tree.elts if isinstance(tree, ast.List) else [tree]), []
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass
    nodes: list[ast.expr] = []
    problems: list[str] = []
    inner = source[1:-1] if source.startswith("[") and source.endswith("]") else source
    for segment in _segments(inner):
        try:
            nodes.append(ast.parse(segment, mode="eval").body)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            problems.append(problem(segment, "it is not a Python call with literal arguments", ctx))
    return nodes, problems


def _read(source: str, ctx: ReadContext) -> tuple[list[ToolCall], list[str]]:
    nodes, problems = _nodes(source.strip(), ctx)
    return _convert(source, nodes, problems, ctx)


def _convert(
    source: str, nodes: list[ast.expr], problems: list[str], ctx: ReadContext
) -> tuple[list[ToolCall], list[str]]:
    calls = []
    for node in nodes:
        printed = isinstance(node, ast.Call) and ast.unparse(node.func) == "print" and len(node.args) == 1
        # Gemma's tool_code wraps the call: print(get_weather(...))
        call_node = node.args[0] if printed and isinstance(node, ast.Call) else node
        try:
            calls.append(_call(call_node))
        except CallFormatError as exc:
            problems.append(problem(source, str(exc), ctx))
    return calls, problems


def _widen(text: str, start: int, end: int) -> tuple[int, int, str]:
    """The span with the wrapper around the list, and the wrapper's closer when it must close and did not."""
    for opener, closer in _WRAPPERS:
        if text[:start].rstrip().endswith(opener):
            start = text.rfind(opener, 0, start)
            tail = text[end:].lstrip()
            if tail.startswith(closer):
                end = text.find(closer, end) + len(closer)
            elif closer in _MUST_CLOSE:
                return start, end, closer
    return start, end, ""


def _unclosed(text: str, start: int, end: int, closer: str, ctx: ReadContext) -> Span:
    """A list its wrapper's closer never followed: LFM2's parser (mistral.rs) leaves it unparsed, so it is
    reported, and nothing of a reply that stopped there runs."""
    if not text[end:].strip():
        return cut_span(start, end, text[start:end], "pythonic", ctx)
    reason = f"the call list is not closed by {closer}"
    return Span(start, end, problems=(problem(text[start:end], reason, ctx),), dialect="pythonic")


def _block_nodes(body: str, ctx: ReadContext) -> tuple[list[ast.expr], list[str], bool]:
    """The calls of a block, one statement each (a list counts as its calls); when the block does not
    read as a whole, line by line so that one broken call spares the others. The flag: it read whole."""
    try:
        statements = ast.parse(body.strip(), mode="exec").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        statements = []
    else:
        if all(isinstance(statement, ast.Expr) for statement in statements):
            values = [cast(ast.Expr, statement).value for statement in statements]
            return [n for v in values for n in (v.elts if isinstance(v, ast.List) else [v])], [], True
    nodes: list[ast.expr] = []
    problems: list[str] = []
    for line in body.splitlines():
        if line.strip():
            found, broken = _nodes(line.strip(), ctx)
            nodes.extend(found)
            problems.extend(broken)
    return nodes, problems, False


def _blocks(text: str, ctx: ReadContext) -> Iterator[Span]:
    """`<function_calls>` blocks of Python calls; one the reply stopped inside runs nothing."""
    position = 0
    while (start := text.find(_BLOCK_OPEN, position)) >= 0:
        body_start = start + len(_BLOCK_OPEN)
        position = body_start
        if not _BLOCK_CALL_RE.match(text, body_start):
            continue
        close = text.find(_BLOCK_CLOSE, body_start)
        end = len(text) if close < 0 else close + len(_BLOCK_CLOSE)
        body = text[body_start : len(text) if close < 0 else close]
        position = end
        nodes, problems, whole = _block_nodes(body, ctx)
        if close < 0 and not whole:
            yield cut_span(start, end, text[start:end], "pythonic", ctx)
            return
        calls, problems = _convert(body, nodes, problems, ctx)
        if not calls and not problems:
            problems = [problem(text[start:end], "no call in the block", ctx)]
        yield Span(start, end, tuple(calls), tuple(problems), "pythonic")


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    if _BLOCK_OPEN in text:
        yield from _blocks(text, ctx)
    position = 0
    for match in _START_RE.finditer(text):
        if match.start() < position:
            continue
        end = _bracket_end(text, match.start())
        if end is None and (close := text.find(")]", match.start())) >= 0:
            end = close + 2  # a broken quote hides the end: the list still ends at the first ")]"
        if end is None:
            if len(text) - match.start() < _LIMIT:  # runs to the end of the reply: cut off mid-call
                reason = "the call list was cut off before its closing bracket"
                yield Span(match.start(), len(text), problems=(problem(text[match.start() :], reason, ctx),))
                return
            continue
        position = end
        calls, problems = _read(text[match.start() : end], ctx)
        start, stop, unclosed = _widen(text, match.start(), end)
        if unclosed:
            yield _unclosed(text, start, stop, unclosed, ctx)
            continue
        opens_line = not text[text.rfind("\n", 0, match.start()) + 1 : match.start()].strip()
        if calls or (problems and (opens_line or start < match.start())):
            yield Span(start, stop, tuple(calls), tuple(problems), "pythonic")
    for fence in _TOOL_CODE_RE.finditer(text):
        calls, problems = _read(fence.group("body"), ctx)
        if not calls and not problems:
            problems = [problem(fence.group(), "no call in the tool_code block", ctx)]
        yield Span(fence.start(), fence.end(), tuple(calls), tuple(problems), "pythonic")


def _render(calls: Sequence[ToolCall]) -> str:
    parts = []
    for call in calls:
        arguments = ", ".join(f"{key}={value!r}" for key, value in call.arguments.items())
        parts.append(f"{call.name}({arguments})")
    return "[" + ", ".join(parts) + "]"


PYTHONIC = Dialect(
    name="pythonic",
    scan=_scan,
    markers=("<|python_start|>", "<|tool_call_start|>", "```tool_code"),
    render=_render,
    rules=(
        "To call tools, write a Python list of calls with keyword arguments and literal values:",
        '[tool_name(param="value"), other_tool(count=2)]',
    ),
    models=("llama-4", "llama4", "lfm2", "lfm-2", "granite-3.1", "gemma-3", "gemma3", "olmo-3", "olmo3"),
    needs=("(",),
)
