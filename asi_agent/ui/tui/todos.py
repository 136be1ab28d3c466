"""The chat's todo panel: the model's task list (`todo_write`), above the input while it has tasks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from asi_agent.events import AgentEvent, ToolFinished
from asi_agent.tools.args import TodoItem
from asi_agent.tools.todo import current_todos

__all__ = ["TodoPanel"]

_STYLES = {"pending": ("○", ""), "in_progress": ("◐", "bold"), "completed": ("●", "dim strike")}


class TodoPanel(Static):
    """The current task list; hidden while there is none."""

    def __init__(self) -> None:
        super().__init__(id="todos")
        self.todos: list[TodoItem] = []
        self.display = False

    def observe(self, event: AgentEvent, state: Mapping[str, Any]) -> None:
        """Show the list again after each `todo_write` that was accepted."""
        if isinstance(event, ToolFinished) and event.ok and event.call.name == "todo_write":
            self.show_todos(current_todos(state))

    def show_todos(self, todos: Sequence[TodoItem]) -> None:
        """Show these tasks (none hides the panel)."""
        self.todos = list(todos)
        self.display = bool(self.todos)
        done = sum(1 for item in self.todos if item.status == "completed")
        text = Text(f"Tasks {done}/{len(self.todos)}", style="bold")
        for item in self.todos:
            mark, style = _STYLES[item.status]
            text.append(f"\n{mark} ")
            text.append(item.content, style=style)
        self.update(text)

    def lines(self) -> list[str]:
        """The panel as plain lines (what a reader sees)."""
        return str(self.render()).splitlines()
