"""The chat's plan hand-off: after a `plan`-mode turn that wrote a todo list, run it in which mode?"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from asi_agent.tools.args import TodoItem

__all__ = ["PlanHandoffScreen"]


class PlanHandoffScreen(ModalScreen[str | None]):
    """The plan's steps, then a (run in ask mode), e (auto-edit), y (yolo), or k / Esc (keep planning)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "choose('ask')", "run in ask mode"),
        Binding("e", "choose('auto-edit')", "run in auto-edit mode"),
        Binding("y", "choose('yolo')", "run in yolo mode"),
        Binding("k", "choose('')", "keep planning"),
        Binding("escape", "choose('')", "keep planning"),
    ]

    def __init__(self, todos: Sequence[TodoItem]) -> None:
        super().__init__()
        self.todos = list(todos)

    def compose(self) -> ComposeResult:
        steps = "\n".join(f"{number}. {item.content}" for number, item in enumerate(self.todos, 1))
        with Vertical(id="dialog"):
            yield Static(Text(f"Run this plan?\n\n{steps}"), id="question")
            yield Static(
                Text("[a] run in ask mode   [e] auto-edit   [y] yolo   [k/Esc] keep planning"), id="keys"
            )

    def action_choose(self, mode: str) -> None:
        """Resolve with the chosen mode (None: keep planning)."""
        self.dismiss(mode or None)
