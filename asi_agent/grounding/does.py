"""What a function does, told from its body: "What does subtract do?" → "`subtract` returns `a - b`".

The answer states what the body shows — what it returns, the functions it calls — and rests on one read of
the function's lines (`grounding.questions`); a signature alone says nothing of what a function does
(`verify_steps.answer_check` holds any answer to that). Python functions only; a question about another
language's function, or about a body with neither a return value nor a call, goes to the ordinary grounding.
"""

from __future__ import annotations

import ast
import re

from asi_agent.grounding.derive import PlannedCall
from asi_agent.grounding.project import ProjectView

__all__ = ["ASKS_WHAT_IT_DOES", "describe"]

ASKS_WHAT_IT_DOES = re.compile(
    r"\bwhat (?:does|do|will) (?:the )?(?:function |method )?`?(?P<name>[A-Za-z_]\w*)`?(?:\(\))? do\b"
    r"|`?(?P<zh>[A-Za-z_]\w*)`?(?:\(\))?\s*(?:是)?(?:做什么|干什么|干嘛|有什么用)",
    re.IGNORECASE,
)
"""A question about what a named function does (`name` or `zh` holds the name)."""
_MAX_FILES = 300
_MAX_CALLS = 4


def describe(task: str, view: ProjectView) -> tuple[PlannedCall, str] | None:
    """The read of the function the question names and the answer its body gives; None when none fits."""
    match = ASKS_WHAT_IT_DOES.search(task)
    if match is None:
        return None
    name = match["name"] or match["zh"]
    named = view.mentioned_files(task)
    rels = named or [rel for rel in view.files[:_MAX_FILES] if rel.endswith(".py")]
    for rel in rels:
        text = view.small_text(rel, 200_000) if rel.endswith(".py") else None
        if text is None:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
                answer = _told(node)
                if answer is not None:
                    end = node.end_lineno or node.lineno
                    read = PlannedCall("read_file", {"path": rel, "startLine": node.lineno, "endLine": end})
                    return read, answer
    return None


def _told(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """One line on what the body does: what it returns and which functions it calls."""
    returns: list[str] = []
    calls: list[str] = []
    for inner in ast.walk(node):
        if isinstance(inner, ast.Return) and inner.value is not None:
            returns.append(ast.unparse(inner.value))
        elif isinstance(inner, ast.Call):
            calls.append(ast.unparse(inner.func))
    returns, calls = list(dict.fromkeys(returns)), list(dict.fromkeys(calls))
    shown = [call for call in calls if not any(call in value for value in returns)][:_MAX_CALLS]
    if not returns and not shown:
        return None
    parts: list[str] = []
    if returns:
        parts.append("returns " + " or ".join(f"`{value}`" for value in returns[:3]))
    if shown:
        parts.append("calls " + ", ".join(f"`{call}`" for call in shown))
    return f"`{node.name}` " + " and ".join(parts)
