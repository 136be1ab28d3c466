"""Status travels as data: no module but the renderer (`asi_agent/wire.py`) reads a status out of text.

A tool result carries its outcome, a message who wrote it, a retry its kind. Testing a message's text for
the words the runtime renders ("ERROR: ", "permission denied", "Not done yet", the retry wordings) would
make a rewording change behaviour elsewhere; this test fails on any such test, as `test_layering.py`
does on an import that flows the wrong way.
"""

import ast
from pathlib import Path

import pytest

from asi_agent.messages import Message
from asi_agent.wire import legacy_result, tool_text

PACKAGE = Path(__file__).resolve().parents[1] / "asi_agent"
RENDERER = Path("wire.py")
STATUS_PREFIXES = (
    "ERROR:",
    "permission denied",
    "Not done yet",
    "Not run, could not be parsed",
    "Continue with the next step",
    "Your last reply",
    "interrupted by the person",
)
"""How the runtime words a status or its own turns (see `asi_agent.wire`)."""
TEXT_TESTS = {"startswith", "endswith", "removeprefix", "removesuffix", "find", "rfind", "index", "partition"}


def _status_constants(node: ast.AST) -> list[str]:
    """The string constants in `node` (or in a tuple of them) that begin with a status word."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [
        item.value
        for item in items
        if isinstance(item, ast.Constant)
        and isinstance(item.value, str)
        and item.value.lstrip().startswith(STATUS_PREFIXES)
    ]


def status_tests(source: str) -> list[tuple[int, str]]:
    """Where `source` tests text for a status word: `.startswith("ERROR:")`, `"permission denied" in x`…"""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in TEXT_TESTS
        ):
            found += [(node.lineno, word) for arg in node.args for word in _status_constants(arg)]
        elif isinstance(node, ast.Compare) and any(
            isinstance(op, ast.In | ast.NotIn | ast.Eq | ast.NotEq) for op in node.ops
        ):
            for side in (node.left, *node.comparators):
                found += [(node.lineno, word) for word in _status_constants(side)]
    return found


def _modules() -> list[Path]:
    return [
        p.relative_to(PACKAGE) for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE) != RENDERER
    ]


@pytest.mark.parametrize("rel", _modules(), ids=str)
def test_no_module_but_the_renderer_reads_status_from_text(rel: Path) -> None:
    found = status_tests((PACKAGE / rel).read_text(encoding="utf-8"))
    assert not found, (
        f"{rel} tests text for a status word ({found}): ask the typed field instead "
        "(Message.outcome/origin/note, ToolFinished.result, RetryRequested.kind; wire.py renders them)"
    )


def test_the_check_finds_a_status_read_from_text() -> None:
    """The check itself can fail: each way of reading a status back is found, rendering one is not."""
    reads = (
        'ok = not message.content.startswith("ERROR:")\n'
        'refused = output.startswith(("x", "permission denied"))\n'
        'nag = "Not done yet," in text\n'
        'body = content.removeprefix("ERROR: ")\n'
    )
    assert sorted(line for line, _ in status_tests(reads)) == [1, 2, 3, 4]
    assert status_tests('text = f"ERROR: {output}"\nprefix = "ERROR: "\n') == []


def test_the_renderer_exists_and_renders() -> None:
    assert tool_text("error", "boom") == "ERROR: boom"
    assert legacy_result(tool_text("refused", "permission denied: no")) == "refused"
    kept = Message("tool", tool_text("error", "boom"), tool_call_id="c", outcome="error").to_dict()
    assert Message.from_dict(kept).outcome == "error" and Message.from_dict(kept).body == "boom"
