"""What the person typed, kept per project (`.asi/chat_history`), for up/down in both chats."""

from __future__ import annotations

import json
from pathlib import Path

from asi_agent.state import append_line, ensure_state_dir

__all__ = ["InputHistory"]

KEEP = 500


class InputHistory:
    """Entries oldest first; `previous`/`next` walk them like a shell does.

    The unsent draft is kept when browsing starts (`previous(draft)`) and given back past the newest.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.path = root / ".asi" / "chat_history"
        self.entries: list[str] = self._load()
        self._at = len(self.entries)
        self._draft = ""

    def add(self, text: str) -> None:
        """Remember a sent message (not twice in a row) and append it to the file."""
        if text.strip() and (not self.entries or self.entries[-1] != text):
            self.entries.append(text)
            ensure_state_dir(self.root / ".asi")
            append_line(self.path, json.dumps(text, ensure_ascii=False))  # two chats: whole lines
        self._at = len(self.entries)
        self._draft = ""

    def previous(self, draft: str = "") -> str | None:
        """The entry before the current one, or None at the oldest; `draft` is what the box holds now,
        kept when browsing starts from it."""
        if self._at == 0:
            return None
        if self._at == len(self.entries):
            self._draft = draft
        self._at -= 1
        return self.entries[self._at]

    def next(self) -> str | None:
        """The entry after the current one; the kept draft past the newest; None when not browsing."""
        if self._at >= len(self.entries):
            return None
        self._at += 1
        return self.entries[self._at] if self._at < len(self.entries) else self._draft

    def _load(self) -> list[str]:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except OSError:
            return []
        entries = []
        for line in lines[-KEEP:]:
            try:
                value = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(value, str):
                entries.append(value)
        return entries
