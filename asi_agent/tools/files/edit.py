"""The edit tools: `replace_lines`, `insert_line`, `delete_lines`, `replace_text`.

Each one loads the file (refusing it when it changed on disk since the model last read it), computes
the new text, and hands it to `commit_change`; encoding, line ends, final newline and mode are kept.
A change that leaves the file as it was is an error, and so is one that would break its syntax (the
edit guard, `guard.py`).
The result is a one-line summary and a unified diff, so the model sees exactly what it did.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import DeleteLinesArgs, InsertLineArgs, ReplaceLinesArgs, ReplaceTextArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.correct import correct_old_text, count_correction
from asi_agent.tools.files.guard import guard_change, nothing_changed
from asi_agent.tools.files.ops import commit_change, read_existing
from asi_agent.tools.files.textio import TextFile, encode, split_lines, unified_diff
from asi_agent.tools.paths import display_path

__all__ = ["delete_lines", "insert_line", "replace_lines", "replace_text"]


@dataclass(frozen=True, slots=True)
class _Target:
    """A file about to be edited."""

    path: Path
    shown: str
    file: TextFile

    @property
    def lines(self) -> list[str]:
        """The file's current lines."""
        return self.file.lines


async def replace_lines(args: ReplaceLinesArgs, ctx: ToolContext) -> str:
    """Replace lines startLine..endLine (inclusive) with newText, which may hold any number of lines."""
    target = _load(ctx, args.path)
    _check_range(target, args.startLine, args.endLine)
    new = _to_lines(args.newText)
    lines = target.lines
    lines[args.startLine - 1 : args.endLine] = new
    summary = (
        f"Replaced lines {args.startLine}–{args.endLine} of {target.shown} "
        f"({args.endLine - args.startLine + 1} lines → {len(new)})"
    )
    return _finish(ctx, target, lines, tool="replace_lines", summary=summary, line=args.startLine)


async def insert_line(args: InsertLineArgs, ctx: ToolContext) -> str:
    """Insert text before line `line`; line = N+1 appends to an N-line file."""
    target = _load(ctx, args.path)
    lines = target.lines
    if not 1 <= args.line <= len(lines) + 1:
        raise ToolError(
            f"line={args.line} is out of range: {target.shown} has {len(lines)} lines, so line must be "
            f"between 1 and {len(lines) + 1} ({len(lines) + 1} appends at the end)"
        )
    # An empty text still inserts one (blank) line: that is what inserting a line means.
    new = _to_lines(args.text) or [""]
    lines[args.line - 1 : args.line - 1] = new
    where = "at the end" if args.line == len(target.lines) + 1 else f"before line {args.line}"
    summary = f"Inserted {len(new)} line(s) {where} of {target.shown}"
    return _finish(ctx, target, lines, tool="insert_line", summary=summary, line=args.line)


async def delete_lines(args: DeleteLinesArgs, ctx: ToolContext) -> str:
    """Delete lines startLine..endLine (inclusive)."""
    target = _load(ctx, args.path)
    _check_range(target, args.startLine, args.endLine)
    lines = target.lines
    del lines[args.startLine - 1 : args.endLine]
    summary = f"Deleted lines {args.startLine}–{args.endLine} of {target.shown}"
    return _finish(ctx, target, lines, tool="delete_lines", summary=summary, line=args.startLine)


async def replace_text(args: ReplaceTextArgs, ctx: ToolContext) -> str:
    """Replace the one occurrence of oldText with newText, tolerating whitespace differences if needed."""
    target = _load(ctx, args.path)
    old = _normalize_newlines(args.oldText)
    if not old.strip():
        raise ToolError("oldText is empty; give the exact text to replace, or use insert_line to add text")
    text = target.file.text
    starts = _occurrences(text, old)
    if len(starts) > 1:
        numbers = ", ".join(str(text.count("\n", 0, at) + 1) for at in starts)
        raise ToolError(
            f"{target.shown}: found {len(starts)} matches at lines {numbers}; "
            "include more surrounding lines in oldText to make it unique"
        )
    if len(starts) == 1:
        at = starts[0]
        new_text = text[:at] + _normalize_newlines(args.newText) + text[at + len(old) :]
        line = text.count("\n", 0, at) + 1
        summary = f"Replaced the text at line {line} of {target.shown}"
        return _finish(ctx, target, split_lines(new_text), tool="replace_text", summary=summary, line=line)
    return await _replace_fuzzy(ctx, target, old, _normalize_newlines(args.newText))


async def _replace_fuzzy(ctx: ToolContext, target: _Target, old: str, new: str) -> str:
    """The whitespace-tolerant fallback: whole lines compared after trimming and collapsing spaces; then
    the corrections of `correct.py` (escapes, one model call)."""
    lines = target.lines
    wanted = [_squash(line) for line in split_lines(old)]
    squashed = [_squash(line) for line in lines]
    size = len(wanted)
    found = [i for i in range(len(lines) - size + 1) if squashed[i : i + size] == wanted]
    if not found:
        text = target.file.text
        fixed = await correct_old_text(ctx, text, old, new, target.shown)
        if fixed is None:
            raise ToolError(_not_found_message(target, split_lines(old)))
        at = text.index(fixed.old)
        line = text.count("\n", 0, at) + 1
        summary = f"Replaced the text at line {line} of {target.shown} ({fixed.how})"
        result = _finish(
            ctx, target, split_lines(text[:at] + fixed.new + text[at + len(fixed.old) :]),
            tool="replace_text", summary=summary, line=line,
        )  # fmt: skip
        count_correction(ctx)
        return result
    if len(found) > 1:
        numbers = ", ".join(str(i + 1) for i in found)
        raise ToolError(
            f"oldText was not found exactly, and ignoring whitespace it matches at lines {numbers} "
            f"of {target.shown}; include more surrounding lines in oldText to make it unique"
        )
    at = found[0]
    old_indent = _indent(split_lines(old)[0])
    lines[at : at + size] = _reindent(_to_lines(new), old_indent, _indent(lines[at]))
    summary = (
        f"Replaced lines {at + 1}–{at + size} of {target.shown} (matched ignoring whitespace differences)"
    )
    result = _finish(ctx, target, lines, tool="replace_text", summary=summary, line=at + 1)
    count_correction(ctx)
    return result


def _load(ctx: ToolContext, raw: str) -> _Target:
    """Resolve and read the file to edit; refuse it when it changed on disk since the model read it."""
    path = ctx.resolve(raw, write=True)
    shown = display_path(ctx.root, path)
    text_file = read_existing(ctx, path)
    stamp = ctx.stamps.get(path)
    if stamp is not None and stamp.sha256 != hashlib.sha256(text_file.raw).hexdigest():
        raise ToolError(
            f"{shown} changed on disk since you last read it; call read_file again before editing "
            "(nothing was written)"
        )
    return _Target(path, shown, text_file)


def _finish(
    ctx: ToolContext, target: _Target, lines: list[str], *, tool: str, summary: str, line: int
) -> str:
    """Encode, guard and commit the new lines, then report the summary and the diff."""
    new_text = "\n".join(lines)
    data = encode(target.file, new_text)
    if data == target.file.raw:
        raise nothing_changed(target.shown, tool)
    guard_change(ctx, target.path, target.file.text, new_text, tool=tool)
    commit_change(ctx, target.path, target.file.raw, data, tool=tool, mode=target.file.mode)
    ctx.last_location = (target.path, max(line, 1))
    diff = unified_diff(target.file.text, new_text, target.shown)
    return f"{summary}; the file now has {len(lines)} lines.\n{diff}"


def _check_range(target: _Target, start: int, end: int) -> None:
    """Refuse a line range that is reversed, below 1 or past the end of the file."""
    total = len(target.lines)
    if total == 0:
        raise ToolError(f"{target.shown} is empty; add text with insert_line (line=1) instead")
    if start < 1:
        raise ToolError(f"startLine must be 1 or more (lines are 1-based); got {start}")
    if start > end:
        raise ToolError(f"startLine={start} is after endLine={end}; give startLine <= endLine")
    if end > total:
        raise ToolError(
            f"endLine={end} is beyond the end: {target.shown} has {total} lines "
            f"(valid lines are 1–{total}); call read_file to see the current text"
        )


def _to_lines(text: str) -> list[str]:
    """The lines of a newText; one final newline is a line end, not an extra blank line."""
    return split_lines(_normalize_newlines(text))


def _normalize_newlines(text: str) -> str:
    """CRLF and CR as "\\n", the form edits are computed in."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _occurrences(text: str, needle: str) -> list[int]:
    """Every start offset of `needle` in `text`, overlapping ones included."""
    found: list[int] = []
    at = text.find(needle)
    while at != -1:
        found.append(at)
        at = text.find(needle, at + 1)
    return found


def _squash(line: str) -> str:
    """A line without leading/trailing whitespace and with inner whitespace runs made single spaces."""
    return " ".join(line.split())


def _indent(line: str) -> str:
    """The leading whitespace of a line."""
    return line[: len(line) - len(line.lstrip())]


def _reindent(lines: list[str], old_indent: str, file_indent: str) -> list[str]:
    """Shift newText by the indentation the file really has where oldText's first line had another."""
    if old_indent == file_indent:
        return lines
    return [file_indent + line[len(old_indent) :] if line.startswith(old_indent) else line for line in lines]


def _not_found_message(target: _Target, old_lines: list[str]) -> str:
    """Why replace_text found nothing, with the file's lines most like oldText's, numbered."""
    lines = target.lines
    by_text: dict[str, list[int]] = {}
    for number, line in enumerate(lines, start=1):
        by_text.setdefault(line.strip(), []).append(number)
    candidates = [text for text in by_text if text]
    numbers: set[int] = set()
    for old_line in [line.strip() for line in old_lines if line.strip()][:5]:
        for close in difflib.get_close_matches(old_line, candidates, n=2, cutoff=0.6):
            numbers.update(by_text[close][:2])
    parts = [f"oldText was not found in {target.shown}, not even when ignoring whitespace differences."]
    if numbers:
        parts.append("The most similar lines are:")
        parts.extend(f"{n:>5}| {lines[n - 1]}" for n in sorted(numbers)[:8])
    parts.append("Call read_file to see the current text and copy oldText from it exactly.")
    return "\n".join(parts)
