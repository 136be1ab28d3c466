"""Keys the chat handles beyond its widgets: Ctrl+C pressed twice, arrows between tool cards, and typing
that reaches no input (it goes to the message box)."""

from __future__ import annotations

import time

from textual.containers import VerticalScroll
from textual.events import Key
from textual.widget import Widget
from textual.widgets import Input, TextArea
from textual.widgets.collapsible import CollapsibleTitle

__all__ = ["KeyRouter", "SecondPress"]


class SecondPress:
    """A key that acts only when pressed again within `seconds` (Ctrl+C quits the second time)."""

    def __init__(self, seconds: float = 3.0) -> None:
        self.seconds = seconds
        self._at: float | None = None

    def again(self) -> bool:
        """Record a press; True when the one before it was recent enough."""
        now = time.monotonic()
        recent = self._at is not None and now - self._at < self.seconds
        self._at = None if recent else now
        return recent


class KeyRouter:
    """Routes the keys no widget took: Up/Down on a tool card's title move between cards (past the last:
    the input), and a printable key goes to the input with its character."""

    def __init__(self, box: TextArea, conversation: VerticalScroll) -> None:
        self.box, self.conversation = box, conversation

    def route(self, focused: Widget | None, event: Key) -> None:
        """Act on a key that bubbled up to the app, while the chat's own screen is shown."""
        if focused is self.box:
            return
        if isinstance(focused, CollapsibleTitle) and event.key in ("up", "down"):
            event.stop()
            self._step(focused, -1 if event.key == "up" else 1)
        elif event.is_printable and event.character and not isinstance(focused, Input):
            event.stop()
            self.box.focus()
            self.box.insert(event.character)

    def _step(self, title: CollapsibleTitle, step: int) -> None:
        titles = list(self.conversation.query(CollapsibleTitle))
        index = titles.index(title) + step if title in titles else -1
        if 0 <= index < len(titles):
            titles[index].focus()
            titles[index].scroll_visible()
        elif index >= len(titles):
            self.box.focus()
