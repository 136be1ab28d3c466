"""Streamed reply text without its `AGENT_STATUS` line, as the chats show it.

The status is the runtime's business: `asi-agent run` never prints it, the full-screen chat shows it in the
status bar and the line-mode chat in its closing `── DONE …` line. While a reply streams, text that could
still turn out to be the status line (`AGENT_STATUS: DONE`, alone or ending a line of text) is held back
until the line ends; everything else goes out at once.
"""

from __future__ import annotations

from asi_agent.calls import STATUS_RE

__all__ = ["StatusFilter"]

KEYWORD = "AGENT_STATUS"
MARKUP = " \t>*_`#-"
"""What may stand before the keyword on a status line (STATUS_RE's leading markup)."""
WINDOW = 64
"""How far past a possible start to look: a status line has little markup before its keyword."""


class StatusFilter:
    """Feed it a reply's deltas; it returns what to show. `finish()` at the end of each reply."""

    def __init__(self) -> None:
        self._shown = ""
        """The current line's text already passed on."""
        self._held = ""
        """The current line's text held back: it may be the start of the status."""
        self._newlines = 0
        """Line ends held back, so that a reply never ends in the blank line its status line left."""

    def feed(self, delta: str) -> str:
        """What of `delta` (and of text held before) can be shown now."""
        out: list[str] = []
        text = self._held + delta
        while True:
            line, newline, text = text.partition("\n")
            if not newline:
                out.append(self._partial(line))
                return "".join(out)
            out.append(self._line_ended(line))

    def finish(self) -> str:
        """The reply ended: what was still held back, without the status (and without trailing line ends)."""
        rest = self._rest_of_line(self._held)
        self._shown, self._held, self._newlines = "", "", 0
        return rest

    def _line_ended(self, tail: str) -> str:
        full = self._shown + tail
        if _without_status(full) is None and not self._shown.strip():
            self._shown, self._held = "", ""
            return ""  # a line of nothing but the status: it vanishes with its line end
        rest = self._rest_of_line(tail)
        self._shown, self._held = "", ""
        self._newlines += 1
        return rest

    def _rest_of_line(self, tail: str) -> str:
        """`tail` (the line's unshown end) without a status ending the line."""
        cleaned = _without_status(self._shown + tail) or ""
        return self._emit(cleaned[len(self._shown) :])

    def _partial(self, text: str) -> str:
        """Pass on the line's text up to where a status could begin; hold back the rest."""
        start = len(self._shown)
        full = self._shown + text
        cut = next((i for i in range(start, len(full)) if _may_start_status(full, i)), len(full))
        cut = max(start, len(full[:cut].rstrip(" \t")))  # spaces go out with what follows them, if anything
        self._held = full[cut:]
        shown = self._emit(full[start:cut])
        self._shown += full[start:cut]
        return shown

    def _emit(self, text: str) -> str:
        if not text:
            return ""
        out, self._newlines = "\n" * self._newlines + text, 0
        return out


def _may_start_status(line: str, at: int) -> bool:
    """Whether the status could begin at `at` (a line start or after a space) given what came so far."""
    if at > 0 and not line[at - 1].isspace():
        return False
    window = line[at : at + WINDOW]  # bounded: a long line is scanned in linear time
    word = window.lstrip(MARKUP).upper()
    if len(word) >= len(KEYWORD):
        return word.startswith(KEYWORD)
    return len(window) < WINDOW and KEYWORD.startswith(word)


def _without_status(line: str) -> str | None:
    """The line without an `AGENT_STATUS` ending; None when nothing but the status was on it."""
    if not STATUS_RE.search(line):
        return line
    return STATUS_RE.sub("", line).rstrip() or None
