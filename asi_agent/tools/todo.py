"""`todo_write`: the task list the model keeps while it works (an extension tool, not in the spec).

Each call sends the whole list, which replaces the previous one; it is checked (unique ids, at most one
task in progress) and kept (as `TodoItem`s) in the session's tool state under `TODO_KEY`, where the front
ends find it: the chat's panel, the editor protocol's plan updates, the line modes and the JSON result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import TodoItem, TodoWriteArgs
from asi_agent.tools.base import ToolContext

__all__ = ["MARKS", "TODO_KEY", "current_todos", "render_todos", "todo_write"]

TODO_KEY = "asi_agent.tools.todo"
"""The `ctx.state` key of the session's current list (a list of `{id, content, status}` dicts)."""

MARKS: Mapping[str, str] = {"pending": "[ ]", "in_progress": "[>]", "completed": "[x]"}
"""How each status is shown in text."""


async def todo_write(args: TodoWriteArgs, ctx: ToolContext) -> str:
    """Replace the session's task list with `args.todos`, after checking it."""
    _check(args.todos)
    ctx.state[TODO_KEY] = list(args.todos)
    return render_todos(args.todos)


def current_todos(state: Mapping[str, Any]) -> list[TodoItem]:
    """The list a session holds (empty before the first `todo_write`)."""
    found = state.get(TODO_KEY)
    return [item for item in found if isinstance(item, TodoItem)] if isinstance(found, list) else []


def render_todos(todos: Sequence[TodoItem]) -> str:
    """The list as text: a count line, then one line per task with its mark."""
    if not todos:
        return "The todo list is empty now."
    done = sum(1 for item in todos if item.status == "completed")
    lines = [f"Todo list ({done}/{len(todos)} completed):"]
    lines += [f"{MARKS[item.status]} {item.content}" for item in todos]
    return "\n".join(lines)


def _check(todos: Sequence[TodoItem]) -> None:
    """Unique, non-empty ids and contents; at most one task in progress."""
    if any(not item.id.strip() or not item.content.strip() for item in todos):
        raise ToolError("every task needs a non-empty id and content; send the whole list again")
    twice = sorted(name for name, count in Counter(item.id for item in todos).items() if count > 1)
    if twice:
        raise ToolError(f"task ids must be unique, and {', '.join(twice)} is used twice; send the list again")
    busy = [item.id for item in todos if item.status == "in_progress"]
    if len(busy) > 1:
        raise ToolError(
            f"only one task may be in_progress at a time, but {', '.join(busy)} are; mark the others "
            "pending (or completed) and send the whole list again"
        )
