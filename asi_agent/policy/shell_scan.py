"""Scanning a shell command line into simple commands: words, redirections, substitutions, here-documents.

Quotes are respected (`echo "rm -rf /"` is one echo); `$(...)`, backticks and `<(...)` bodies and
here-document texts are kept apart so that `danger` can judge them as command lines of their own.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["PLACEHOLDER", "REDIRECT", "Scanner", "Simple", "Unparsable", "dequote", "split_words"]

PLACEHOLDER = "$(...)"  # stands for a substitution in the unquoted words: its value is unknown
REDIRECT = re.compile(r"(\d*)(<<<|<<-|<<|<>|<&|>>|>&|>\||&>>|&>|<|>)")


class Unparsable(Exception):
    """The command line is not shell syntax that the classifier can follow."""


# --- scanning: from a command line to simple commands ---------------------------------------------


@dataclass
class Simple:
    """One simple command as written: raw words, redirections, substituted scripts, here-documents."""

    words: list[str] = field(default_factory=list)
    redirects: list[tuple[str, str]] = field(default_factory=list)
    nested: list[str] = field(default_factory=list)
    heredocs: list[str] = field(default_factory=list)
    pipe_next: bool = False
    source: str = ""


class Scanner:
    """Splits a command line into simple commands, honouring quotes, escapes and substitutions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.commands: list[Simple] = []
        self.current = Simple()
        self.start: int | None = None
        self.word: list[str] = []
        self.in_word = False
        self.redirect: str | None = None
        self.heredocs: list[tuple[str, bool, Simple]] = []

    def scan(self) -> list[Simple]:
        """The simple commands of the whole text, here-document bodies attached to their owners."""
        while self.pos < len(self.text):
            self._step(self.text[self.pos])
        self._end_command(pipe=False)
        self._read_heredocs()
        return self.commands

    def _step(self, char: str) -> None:
        text = self.text
        redirect = REDIRECT.match(text, self.pos) if char in "<>&" or char.isdigit() else None
        if char in " \t\r":
            self._end_word()
            self.pos += 1
        elif char == "#" and not self.in_word:
            end = text.find("\n", self.pos)
            self.pos = len(text) if end < 0 else end
        elif text.startswith(("<(", ">("), self.pos):
            self._begin()
            self._substitution(self.pos + 1)
        elif redirect and not (self.in_word and redirect.group(1)):
            self._end_word()
            self._begin()
            self.redirect = redirect.group(2)
            self.pos = redirect.end()
        elif char in ";&|()\n":
            self._operator(char)
        else:
            self._word_char(char)

    def _operator(self, char: str) -> None:
        pair = self.text[self.pos : self.pos + 2]
        width = 2 if pair in ("&&", "||", ";;", "|&") else 1
        self._end_command(pipe=pair == "|&" or (char == "|" and width == 1))
        self.pos += width
        if char == "\n":
            self._read_heredocs()

    def _word_char(self, char: str) -> None:
        self._begin()
        self.in_word = True
        text, pos = self.text, self.pos
        if char == "\\":
            self.word.append("" if text.startswith("\\\n", pos) else text[pos : pos + 2])
            self.pos += 2
        elif char == "'":
            end = _closing(text, pos)
            self.word.append(text[pos : end + 1])
            self.pos = end + 1
        elif char == '"':
            end, raw, nested = _read_double(text, pos)
            self.word.append(raw)
            self.current.nested.extend(nested)
            self.pos = end + 1
        elif char == "`":
            end = _closing(text, pos)
            self._nest(text[pos + 1 : end], end + 1)
        elif text.startswith("$((", pos):
            end, nested = _arithmetic(text, pos)
            self.current.nested.extend(nested)
            self.word.append("0")  # an arithmetic value: a number, never a command
            self.pos = end + 1
        elif text.startswith("$(", pos):
            self._substitution(pos + 1)
        else:
            self.word.append(char)
            self.pos += 1

    def _substitution(self, open_pos: int) -> None:
        close = _closing_paren(self.text, open_pos)
        self._nest(self.text[open_pos + 1 : close], close + 1)

    def _nest(self, source: str, end: int) -> None:
        self.in_word = True
        self.current.nested.append(source)
        self.word.append(PLACEHOLDER)
        self.pos = end

    def _begin(self) -> None:
        if self.start is None:
            self.start = self.pos

    def _end_word(self) -> None:
        if not self.in_word:
            return
        raw = "".join(self.word)
        self.word, self.in_word = [], False
        if self.redirect in ("<<", "<<-"):
            self.heredocs.append((dequote(raw), self.redirect == "<<-", self.current))
        elif self.redirect:
            self.current.redirects.append((self.redirect, raw))
        else:
            self.current.words.append(raw)
        self.redirect = None

    def _end_command(self, *, pipe: bool) -> None:
        self._end_word()
        self.redirect = None
        simple = self.current
        if simple.words or simple.redirects or simple.nested:
            simple.pipe_next = pipe
            simple.source = self.text[self.start or 0 : self.pos].strip()
            self.commands.append(simple)
        self.current, self.start = Simple(), None

    def _read_heredocs(self) -> None:
        """Consume the bodies of the here-documents opened on the line just ended."""
        text = self.text
        for delimiter, strip_tabs, owner in self.heredocs:
            lines: list[str] = []
            while self.pos < len(text):
                end = text.find("\n", self.pos)
                end = len(text) if end < 0 else end
                line, self.pos = text[self.pos : end], end + 1
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    break
                lines.append(line)
            owner.heredocs.append("\n".join(lines))
        self.heredocs = []


def _closing(text: str, pos: int) -> int:
    """The index of the quote or backtick closing the one at `pos` (backslashes escape only in backticks)."""
    index = pos + 1
    while index < len(text):
        if text[index] == text[pos]:
            return index
        index += 2 if text[index] == "\\" and text[pos] == "`" else 1
    raise Unparsable(f"a {'backtick' if text[pos] == '`' else 'single quote'} is never closed")


def _read_double(text: str, pos: int) -> tuple[int, str, list[str]]:
    """A double-quoted string: its closing index, its text with substitutions replaced, their scripts."""
    out, nested, index = ['"'], list[str](), pos + 1
    while index < len(text):
        char = text[index]
        if char == '"':
            return index, "".join([*out, '"']), nested
        if text.startswith("$((", index):
            index, inner = _arithmetic(text, index)
            nested.extend(inner)
            out.append("0")
            index += 1
        elif char == "`" or text.startswith("$(", index):
            end = _closing(text, index) if char == "`" else _closing_paren(text, index + 1)
            nested.append(text[index + 1 : end] if char == "`" else text[index + 2 : end])
            out.append(PLACEHOLDER)
            index = end + 1
        else:
            out.append(text[index : index + 2] if char == "\\" else char)
            index += 2 if char == "\\" else 1
    raise Unparsable("a double quote is never closed")


def _arithmetic(text: str, pos: int) -> tuple[int, list[str]]:
    """`$(( … ))` at `pos`: the index of its last `)` and the substitutions inside it."""
    close = _closing_paren(text, pos + 1)
    return close, _substitutions_in(text[pos + 3 : close - 1])


def _substitutions_in(body: str) -> list[str]:
    """The scripts of `$(…)` and backticks inside an arithmetic expression."""
    found: list[str] = []
    index = 0
    while index < len(body):
        if body.startswith("$((", index):
            index, inner = _arithmetic(body, index)
            found += inner
        elif body.startswith("$(", index):
            end = _closing_paren(body, index + 1)
            found.append(body[index + 2 : end])
            index = end
        elif body[index] == "`":
            end = _closing(body, index)
            found.append(body[index + 1 : end])
            index = end
        index += 1
    return found


def _closing_paren(text: str, pos: int) -> int:
    """The index of the `)` closing the `(` at `pos`, skipping quoted text."""
    depth, index = 0, pos
    while index < len(text):
        char = text[index]
        if char == "'":
            index = _closing(text, index)
        elif char == '"':
            index = _read_double(text, index)[0]
        elif char == "`":
            index = _closing(text, index)
        elif char in "()":
            depth += 1 if char == "(" else -1
            if depth == 0:
                return index
        index += 2 if char == "\\" else 1
    raise Unparsable("a parenthesis is never closed")


# --- judging: from simple commands to risks ------------------------------------------------------


def split_words(words: Sequence[str]) -> list[str]:
    """Raw words unquoted as the shell would (POSIX `shlex`); unbalanced quotes are `Unparsable`."""
    try:
        return shlex.split(" ".join(words))
    except ValueError as exc:
        raise Unparsable(str(exc).lower()) from exc


def dequote(raw: str) -> str:
    """One raw word unquoted."""
    return "".join(split_words([raw]))
