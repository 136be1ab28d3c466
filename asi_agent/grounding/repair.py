"""Requests to make a failing test pass: "Fix the failing test in calc.py", "test_subtract fails; fix
subtract", "run the tests and fix whatever is failing".

The fix is worked out from what the tests assert, never guessed from a name: a function whose body is one
`return a OP b` over its parameters, and test assertions that call it with literal arguments and compare
the result with a literal (`assert subtract(5, 3) == 2`). When the assertions fail with the operator the
function has and hold with exactly one other arithmetic operator, the request states that change — an
`Edit("returns", …)` of `grounding.request` — and the runtime's own test run after the edit checks it.
Nothing of the project is run to find it: the arguments and expected values are literals, evaluated here.
A request the assertions do not settle (no such function, several operators fit) states no edit.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from asi_agent.grounding.project import ProjectView

__all__ = ["Repair", "asks_to_fix_failure", "repairs"]

_FIX = re.compile(r"\b(?:fix|repair|correct|make)\b|修复|修好|修一下|改好", re.IGNORECASE)
_FAILURE = re.compile(
    r"\bfail(?:s|ing|ed|ures?)?\b|\bbroken\b|\bred\b|\bpass\b|失败|不通过|挂了", re.IGNORECASE
)
_TEST_NAME = re.compile(r"\b(test_\w+)\b")
_MAX_FILES = 300
_MAX_BYTES = 200_000
_OPERATORS: dict[type[ast.operator], tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Add: ("+", operator.add),
    ast.Sub: ("-", operator.sub),
    ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv),
    ast.FloorDiv: ("//", operator.floordiv),
    ast.Mod: ("%", operator.mod),
    ast.Pow: ("**", operator.pow),
}

_NAMED: dict[str, type[ast.operator]] = {
    **dict.fromkeys(("add", "plus", "sum", "total", "increment"), ast.Add),
    **dict.fromkeys(("subtract", "sub", "minus", "difference", "diff", "decrement"), ast.Sub),
    **dict.fromkeys(("multiply", "mul", "times", "product", "double", "triple", "scale"), ast.Mult),
    **dict.fromkeys(("divide", "div", "quotient", "ratio", "half", "per"), ast.Div),
    **dict.fromkeys(("mod", "modulo", "remainder", "rem"), ast.Mod),
    **dict.fromkeys(("pow", "power", "exp", "square", "cube"), ast.Pow),
}
"""Words of a function's name that say which operator it means, for assertions several operators satisfy."""


@dataclass(frozen=True, slots=True)
class Repair:
    """A function's return expression that makes the failing assertions on it hold."""

    function: str
    expression: str
    """The new expression (`a - b`)."""
    path: str
    """The file that defines the function."""


@dataclass(frozen=True, slots=True)
class _Function:
    name: str
    path: str
    params: tuple[str, ...]
    left: ast.expr
    right: ast.expr
    op: type[ast.operator]


def asks_to_fix_failure(task: str) -> bool:
    """Whether the request asks to fix something a failing test shows ("fix the failing test", "test_x
    fails; fix x", "make the tests pass")."""
    return bool(_FIX.search(task) and (_FAILURE.search(task) or _TEST_NAME.search(task)))


def repairs(task: str, view: ProjectView) -> list[Repair]:
    """The fixes the project's test assertions settle for this request (empty when none or unclear)."""
    if not asks_to_fix_failure(task):
        return []
    rels = [rel for rel in view.files[:_MAX_FILES] if rel.endswith(".py")]
    sources = [(rel, text) for rel in rels if (text := view.small_text(rel, _MAX_BYTES)) is not None]
    tests = [(rel, text) for rel, text in sources if _is_test_file(rel)]
    functions = {f.name: f for rel, text in sources if not _is_test_file(rel) for f in _functions(rel, text)}
    named_tests = set(_TEST_NAME.findall(task))
    named_files = set(view.mentioned_files(task))
    words = set(re.findall(r"[A-Za-z_]\w*", task))
    found: list[Repair] = []
    for name, function in functions.items():
        if named_files and function.path not in named_files and not named_files & {r for r, _ in tests}:
            continue
        if words & set(functions) and name not in words and not named_tests:
            continue  # "fix subtract": the function the request names
        asserted = list(_assertions(tests, name, named_tests))
        if asserted and (repair := _repair(function, asserted)) is not None:
            found.append(repair)
    return found


def _is_test_file(rel: str) -> bool:
    name = PurePosixPath(rel).name
    return name.startswith("test_") or name.endswith("_test.py")


def _functions(rel: str, text: str) -> Iterator[_Function]:
    """The module-level functions of a file whose body is one `return x OP y` over their parameters."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or node.args.vararg or node.args.kwarg:
            continue
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) != 1 or not isinstance(body[0], ast.Return):
            continue
        value = body[0].value
        params = tuple(arg.arg for arg in node.args.args)
        if isinstance(value, ast.BinOp) and type(value.op) in _OPERATORS and _simple(value, params):
            yield _Function(node.name, rel, params, value.left, value.right, type(value.op))


def _simple(value: ast.BinOp, params: tuple[str, ...]) -> bool:
    """Both operands are parameters or number literals."""
    return all(
        (isinstance(side, ast.Name) and side.id in params)
        or (isinstance(side, ast.Constant) and isinstance(side.value, int | float))
        for side in (value.left, value.right)
    )


def _assertions(
    tests: list[tuple[str, str]], name: str, named_tests: set[str]
) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """(arguments, expected) of each `assert name(literals) == literal` in the tests (the named ones only,
    when the request names tests)."""
    for _, text in tests:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef) or (named_tests and node.name not in named_tests):
                continue
            for statement in ast.walk(node):
                if isinstance(statement, ast.Assert) and (pair := _compared(statement.test, name)):
                    yield pair


def _compared(test: ast.expr, name: str) -> tuple[tuple[Any, ...], Any] | None:
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return None
    for call, other in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
        if isinstance(call, ast.Call) and _called(call) == name and not call.keywords:
            try:
                return tuple(ast.literal_eval(arg) for arg in call.args), ast.literal_eval(other)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                return None
    return None


def _called(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


def _repair(function: _Function, asserted: list[tuple[tuple[Any, ...], Any]]) -> Repair | None:
    """The one other operator under which every assertion holds, when the current one fails some."""
    if _holds(function, function.op, asserted):
        return None
    fitting = [op for op in _OPERATORS if op is not function.op and _holds(function, op, asserted)]
    if len(fitting) > 1:  # `5 - 3` and `5 % 3` both give 2: the function's name tells which is meant
        named = {_NAMED[word] for word in re.findall(r"[a-z]+", function.name.lower()) if word in _NAMED}
        fitting = [op for op in fitting if op in named]
    if len(fitting) != 1:
        return None
    symbol = _OPERATORS[fitting[0]][0]
    expression = f"{ast.unparse(function.left)} {symbol} {ast.unparse(function.right)}"
    return Repair(function.name, expression, function.path)


def _holds(function: _Function, op: type[ast.operator], asserted: list[tuple[tuple[Any, ...], Any]]) -> bool:
    apply = _OPERATORS[op][1]
    for arguments, expected in asserted:
        if len(arguments) != len(function.params):
            return False
        values = dict(zip(function.params, arguments, strict=True))
        try:
            left, right = _operand(function.left, values), _operand(function.right, values)
            if op is ast.Pow and not (isinstance(right, int | float) and abs(right) <= 64):
                return False  # a huge power is no arithmetic a test means here
            result = apply(left, right)
        except (ArithmeticError, TypeError, ValueError):
            return False
        if not _equal(result, expected):
            return False
    return True


def _operand(side: ast.expr, values: dict[str, Any]) -> Any:
    if isinstance(side, ast.Name):
        return values[side.id]
    return ast.literal_eval(side)


def _equal(result: Any, expected: Any) -> bool:
    if isinstance(result, float) or isinstance(expected, float):
        try:
            return math.isclose(float(result), float(expected), rel_tol=1e-9, abs_tol=1e-12)
        except (TypeError, ValueError, OverflowError):
            return False
    return bool(result == expected)
