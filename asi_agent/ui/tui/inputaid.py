"""What the chat's input offers while the person types: the completions of `@file` and `/command` in a list
under the input, and the messages sent before, recalled with the arrows."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual.widgets import OptionList

from asi_agent.ui.history import InputHistory
from asi_agent.ui.mentions import FileIndex
from asi_agent.ui.slash import complete_command
from asi_agent.ui.tui.widgets import ChatInput

__all__ = ["InputAid"]


class InputAid:
    """The completion list under the chat's input, and the input's history; `commands` names the slash
    commands there are (none before a model is connected)."""

    def __init__(
        self,
        box: ChatInput,
        options: OptionList,
        files: FileIndex,
        history: InputHistory,
        commands: Callable[[], Iterable[str]],
    ) -> None:
        self.box, self.options, self.files = box, options, files
        self.history, self.commands = history, commands

    def recall(self, *, older: bool) -> None:
        """Put the message sent before (`older`) or after the one shown into the input."""
        draft = self.box.text
        text = self.history.previous(draft) if older else self.history.next()
        if text is not None:
            box = self.box
            box.text = text
            box.move_cursor(box.document.end)

    def typed(self) -> None:
        """List the completions of the word before the cursor; with none, the list hides."""
        found = self._candidates(_word_at_cursor(self.box))
        options = self.options
        options.clear_options()
        options.add_options(found)
        options.display = bool(found)
        self.box.completing = bool(found)
        if found:
            options.highlighted = 0

    def key(self, key: str) -> bool:
        """Up and Down walk the list; Tab and Enter put the highlighted completion in. True when Enter
        found nothing to complete: the message is to be sent."""
        options = self.options
        if key in ("up", "down"):
            options.action_cursor_up() if key == "up" else options.action_cursor_down()
            return False
        box = self.box
        word = _word_at_cursor(box)
        found = self._candidates(word)  # afresh: keys may come faster than the list is redrawn
        if not found:
            self.hide()
            return key == "enter"
        index = options.highlighted if options.display and options.highlighted is not None else 0
        choice = found[min(index, len(found) - 1)]
        row, col = box.cursor_location
        box.replace(choice + " ", (row, col - len(word)), (row, col))
        self.hide()
        return False

    def hide(self) -> None:
        """Hide the completion list."""
        self.options.display = False
        self.box.completing = False

    def _candidates(self, word: str) -> list[str]:
        """Completions of the word before the cursor: project files after `@`, commands after `/`."""
        found: list[str] = []
        if word.startswith("@"):
            found = [f"@{path}" for path in self.files.complete(word[1:])]
        elif word.startswith("/") and self.box.text.strip() == word:
            found = complete_command(word, self.commands())
        return [f for f in found if f != word]


def _word_at_cursor(box: ChatInput) -> str:
    row, col = box.cursor_location
    line = box.document.get_line(row)[:col]
    return line.split()[-1] if line and not line[-1].isspace() else ""
