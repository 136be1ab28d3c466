"""The edit guard: a change that turns a file which parsed into one that does not is not applied.

The model gets the parser's message and the lines around the error, numbered, and the file stays as
it was. A file that did not parse before the change is not held to it; a new file is (nothing before
counts as parsing). Undo, `reapply` and the journal's recovery never come here.
"""

from __future__ import annotations

from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.syntax import ParseProblem, checked_language, parse_problem
from asi_agent.tools.paths import display_path

__all__ = ["EditGuarded", "guard_change", "nothing_changed"]

_BEFORE = 3
_AFTER = 2
_WIDTH = 160


class EditGuarded(ToolError):
    """A change refused because the file would no longer parse; `problem` is the parser's complaint."""

    def __init__(self, message: str, problem: ParseProblem) -> None:
        super().__init__(message)
        self.problem = problem


def guard_change(
    ctx: ToolContext,
    path: Path,
    before: str | None,
    after: str,
    *,
    tool: str,
    change: str = "this change",
    retry: str | None = None,
    always: bool = False,
) -> None:
    """Raise EditGuarded (and count it in `ctx.guarded_edits`) when `after` does not parse but `before`
    did or `path` is new (`before` None). Off when `ctx.edit_guard` is false, unless `always`.

    `change` names what would be applied ("this change", "the model's rewrite"); `retry` says what to
    do next (default: fix the edit and call `tool` again).
    """
    if not (ctx.edit_guard or always):
        return
    language = checked_language(str(path))
    problem = parse_problem(after, language)
    if problem is None or (before is not None and parse_problem(before, language) is not None):
        return
    shown = display_path(ctx.root, path)
    kept = "nothing was written" if before is None else f"{shown} is unchanged"
    what = f"{shown} would not parse" if before is None else f"after {change} {shown} would not parse"
    next_step = retry or f"Fix the edit and call {tool} again."
    message = f"edit refused: {what} ({problem}); {kept}. {next_step}"
    excerpt = _excerpt(after, problem)
    if excerpt:
        message += f"\nThe text it would have had, around line {problem.line}:\n{excerpt}"
    ctx.guarded_edits += 1
    raise EditGuarded(message, problem)


def nothing_changed(shown: str, tool: str) -> ToolError:
    """The error for a write that would leave the file byte for byte as it is: never progress."""
    return ToolError(
        f"nothing changed: {shown} already has this text, so nothing was written. If the file still "
        f"needs a change, call read_file to see its current text and call {tool} with text that differs "
        "from it; if it is already as it should be, go on with the next step."
    )


def _excerpt(text: str, problem: ParseProblem) -> str:
    """The lines around the problem's line of `text`, numbered, that line marked with `>`."""
    if problem.line is None:
        return ""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it does not start another
    if not lines:
        return ""
    line = min(max(problem.line, 1), len(lines))
    first, last = max(1, line - _BEFORE), min(len(lines), line + _AFTER)
    width = len(str(last))
    rows = []
    for number in range(first, last + 1):
        at = (problem.column or 1) if number == line else 1
        rows.append(f"{'>' if number == line else ' '} {number:>{width}}| {_cut(lines[number - 1], at)}")
    return "\n".join(rows)


def _cut(line: str, column: int) -> str:
    """A line short enough to show, keeping the part around `column` (a minified file is one long line)."""
    if len(line) <= _WIDTH:
        return line
    start = max(0, min(column - 1 - _WIDTH // 2, len(line) - _WIDTH))
    head = "…" if start else ""
    tail = "…" if start + _WIDTH < len(line) else ""
    return f"{head}{line[start : start + _WIDTH]}{tail}"
