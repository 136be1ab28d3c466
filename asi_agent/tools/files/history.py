"""The history tools: `diff_history` shows journaled changes, `reapply` writes one of them again.

Index 0 is the latest change. Undo records are shown (so the model sees what was reverted) but carry
no index: `reapply` counts only real changes, and `diff_history` prints the same index it expects.
"""

from __future__ import annotations

from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import DiffHistoryArgs, ReapplyArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal, JournalEntry
from asi_agent.tools.files.journal_format import mode_or_none, read_or_none
from asi_agent.tools.files.ops import anchored, commit_change
from asi_agent.tools.files.textio import decode, is_binary, unified_diff
from asi_agent.tools.paths import display_path

__all__ = ["diff_history", "reapply"]

_DIFF_LINES = 60


async def diff_history(args: DiffHistoryArgs, ctx: ToolContext) -> str:
    """The latest journaled changes (optionally of one file), each with a header and its diff."""
    if args.limit < 1:
        raise ToolError(f"limit must be 1 or more; got {args.limit}")
    everything = ctx.journal.entries()
    shown_path = None
    if args.path is not None:
        shown_path = display_path(ctx.root, ctx.resolve(args.path, write=False))
    picked = [e for e in everything if shown_path is None or e.path == shown_path][: args.limit]
    if not picked:
        where = f" to {shown_path}" if shown_path else ""
        return f"No changes{where} have been recorded yet."
    index = {entry.seq: i for i, entry in enumerate(_changes(everything))}
    undone_by = {entry.reverts: entry.seq for entry in everything if entry.reverts is not None}
    blocks: list[str] = []
    used = 0
    for entry in picked:
        block = f"{_heading(entry, index, undone_by)}\n{_entry_diff(ctx.journal, entry)}"
        if blocks and used + len(block) > ctx.read_max_bytes:
            blocks.append(
                f"[{len(picked) - len(blocks)} older entries left out; use a smaller limit or a path]"
            )
            break
        blocks.append(block)
        used += len(block)
    return "\n\n".join(blocks)


async def reapply(args: ReapplyArgs, ctx: ToolContext) -> str:
    """Write the content of change `index` (0 = latest) again, even if it was undone since."""
    changes = _changes(ctx.journal.entries())
    if not 0 <= args.index < len(changes):
        if not changes:
            raise ToolError("the journal has no changes yet, so there is nothing to reapply")
        raise ToolError(
            f"index={args.index} is out of range: the journal has {len(changes)} changes "
            f"(valid index 0–{len(changes) - 1}, 0 = latest); call diff_history to list them"
        )
    entry = changes[args.index]
    path = ctx.resolve(entry.path, write=True)
    where = anchored(ctx, path)
    try:
        current = read_or_none(where)
    except IsADirectoryError as exc:
        raise ToolError(f"{entry.path} is now a directory; change #{entry.seq} cannot be reapplied") from exc
    if entry.after is None:
        return _reapply_delete(ctx, path, entry, current)
    after = ctx.journal.blob(entry.after)
    if current == after:
        return f"{entry.path} already has the content written by change #{entry.seq}; nothing was written."
    mode = entry.mode if current is None else mode_or_none(where)
    commit_change(ctx, path, current, after, tool="reapply", mode=mode)
    action = "Recreated" if current is None else "Rewrote"
    diff = _diff_bytes(current or b"", after, entry.path)
    return f"{action} {entry.path} with the content of change #{entry.seq} ({entry.tool}).\n{diff}"


def _reapply_delete(ctx: ToolContext, path: Path, entry: JournalEntry, current: bytes | None) -> str:
    """Reapplying a deletion: delete the file again (to the trash), if it exists."""
    if current is None:
        return f"{entry.path} does not exist; reapplying deletion #{entry.seq} changed nothing."
    committed = commit_change(ctx, path, current, None, tool="reapply")
    where = "" if committed.trash is None else f" ({display_path(ctx.root, committed.trash)})"
    return f"Deleted {entry.path} again, as change #{entry.seq} did; it went to the trash{where}."


def _changes(entries: list[JournalEntry]) -> list[JournalEntry]:
    """The entries `reapply` can pick from, newest first: everything but undo records."""
    return [entry for entry in entries if entry.reverts is None]


def _heading(entry: JournalEntry, index: dict[int, int], undone_by: dict[int, int]) -> str:
    """One header line: index, seq, time, tool, path and what happened."""
    if entry.reverts is not None:
        label, what = "[-]", f"undo of #{entry.reverts}"
    else:
        label, what = f"[{index[entry.seq]}]", entry.kind
        if entry.seq in undone_by:
            what += f", undone by #{undone_by[entry.seq]}"
    return f"{label} #{entry.seq} {entry.time} {entry.tool} {entry.path} ({what})"


def _entry_diff(journal: Journal, entry: JournalEntry) -> str:
    """The diff of one entry, before → after."""
    before = b"" if entry.before is None else journal.blob(entry.before)
    after = b"" if entry.after is None else journal.blob(entry.after)
    return _diff_bytes(before, after, entry.path)


def _diff_bytes(before: bytes, after: bytes, name: str) -> str:
    """A capped unified diff of two contents, or a size note when either is binary."""
    if is_binary(before) or is_binary(after):
        return f"(binary content: {len(before)} bytes → {len(after)} bytes)"
    diff = unified_diff(_text(before), _text(after), name, max_lines=_DIFF_LINES)
    return diff or "(no textual difference)"


def _text(data: bytes) -> str:
    """Decoded content with "\\n" line ends, for diffing."""
    return decode(data)[0].replace("\r\n", "\n").replace("\r", "\n")
