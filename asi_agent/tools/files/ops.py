"""The whole-file tools (`read_file`, `create_file`, `delete_file`) and the one function every write uses.

`commit_change` is the single place where a tool changes the project: atomic write (or trash/delete),
journal entry, and a fresh stamp so that the agent's own writes never look stale. Files are read and
written beneath the project root with no link followed (`tools/beneath.py`), so a link swapped onto a
resolved path cannot carry a read or a write out of the project.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.instructions import NESTED_KEY, nested_instructions
from asi_agent.tools import beneath
from asi_agent.tools.args import CreateFileArgs, DeleteFileArgs, ReadFileArgs
from asi_agent.tools.base import FileStamp, ToolContext
from asi_agent.tools.beneath import Anchored, LinkOnPathError, anchor
from asi_agent.tools.files.guard import guard_change, nothing_changed
from asi_agent.tools.files.journal import JournalEntry, move_to_trash
from asi_agent.tools.files.journal_file import JournalBusyError
from asi_agent.tools.files.journal_format import mode_or_none
from asi_agent.tools.files.media import is_media, read_media
from asi_agent.tools.files.textio import TextFile, encode, read_text, split_lines
from asi_agent.tools.paths import display_path, expand_home

__all__ = [
    "ChangePlanned",
    "Committed",
    "anchored",
    "commit_change",
    "create_file",
    "delete_file",
    "missing_file_error",
    "read_existing",
    "read_file",
    "stamp_file",
]


class ChangePlanned(Exception):
    """Raised by the write path in dry-run mode, carrying the change a tool was about to make."""

    def __init__(self, path: str, before: bytes | None, after: bytes | None) -> None:
        super().__init__(path)
        self.path, self.before, self.after = path, before, after


@dataclass(frozen=True, slots=True)
class Committed:
    """What `commit_change` did: the journal entry, and where a trashed file went."""

    entry: JournalEntry
    trash: Path | None = None


def commit_change(
    ctx: ToolContext,
    path: Path,
    before: bytes | None,
    after: bytes | None,
    *,
    tool: str,
    mode: int | None = None,
    permanent: bool = False,
) -> Committed:
    """Write `after` to `path` (None: delete it, to the trash unless `permanent`), journal it, stamp it.

    `before` is what the caller read and computed `after` from: if the file no longer holds it when
    the journal's lock is taken (another process wrote it), StaleFileError and nothing is written.
    """
    shown = display_path(ctx.root, path)
    if ctx.dry_run:
        raise ChangePlanned(shown, before, after)
    trash: Path | None = None
    written: os.stat_result | None = None
    where = anchored(ctx, path)
    if after is None and mode is None:
        mode = mode_or_none(where)
    try:
        with ctx.journal.change(
            where,
            shown,
            before,
            after,
            tool=tool,
            session_id=ctx.session_id,
            mode=mode,
            checked=path not in ctx.buffers,
        ) as change:
            if after is None:
                if permanent:
                    beneath.unlink(where)
                else:
                    trash = move_to_trash(ctx.root, where)
            else:
                written = beneath.write_atomic(where, after, mode)
    except (FileExistsError, NotADirectoryError) as exc:
        raise ToolError(
            f"cannot write {shown}: a parent of it is a file, not a folder ({exc.strerror})"
        ) from exc
    except JournalBusyError as exc:
        raise ToolError(f"cannot write {shown}: {exc}") from exc
    except OSError as exc:
        raise ToolError(f"cannot write {shown}: {exc.strerror or exc}") from exc
    entry = change.entry
    if written is None or after is None:
        ctx.stamps.pop(path, None)
    else:
        _stamp(ctx, path, written, after)
    return Committed(entry, trash)


def stamp_file(ctx: ToolContext, path: Path, data: bytes) -> None:
    """Remember what the model now knows `path` to contain (for the stale-file check of edits)."""
    st = beneath.lstat(anchored(ctx, path))
    if st is not None:
        _stamp(ctx, path, st, data)


def _stamp(ctx: ToolContext, path: Path, st: os.stat_result, data: bytes) -> None:
    ctx.stamps[path] = FileStamp(st.st_mtime_ns, st.st_size, hashlib.sha256(data).hexdigest())


def anchored(ctx: ToolContext, path: Path) -> Anchored:
    """A path from `ctx.resolve`, beneath the project root (or the allowed folder holding it)."""
    return anchor(path, (ctx.root, *ctx.allowed_dirs))


def missing_file_error(ctx: ToolContext, path: Path) -> ToolError:
    """A 'no such file' error that names the closest existing files of the same folder."""
    shown = display_path(ctx.root, path)
    folder = path.parent
    where = anchored(ctx, path)
    try:
        names = sorted(beneath.listdir(Anchored(where.base, where.parts[:-1])))
    except (OSError, ToolError):
        return ToolError(
            f"{shown} does not exist, nor does its folder {display_path(ctx.root, folder)}; "
            "call list_directory or file_search to find the right path"
        )
    close = difflib.get_close_matches(path.name, names, n=3, cutoff=0.5)
    if close:
        options = ", ".join(display_path(ctx.root, folder / name) for name in close)
        return ToolError(f"{shown} does not exist; did you mean {options}?")
    return ToolError(f"{shown} does not exist; call list_directory or file_search to find the right path")


def read_existing(ctx: ToolContext, path: Path) -> TextFile:
    """Read a text file the model named (as the editor holds it, when it does: `ctx.buffers`), turning
    every failure into a message it can act on."""
    shown = display_path(ctx.root, path)
    try:
        return read_text(anchored(ctx, path), name=shown, buffer=ctx.buffers.get(path))
    except IsADirectoryError as exc:
        raise ToolError(
            f"{shown} is a directory; call list_directory with path={shown!r} to see its files"
        ) from exc
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise missing_file_error(ctx, path) from exc
    except OSError as exc:
        raise ToolError(f"cannot read {shown}: {exc.strerror or exc}") from exc


async def read_file(args: ReadFileArgs, ctx: ToolContext) -> str:
    """Show a file (or a line range of it) with line numbers, within the context's size budget."""
    path = ctx.resolve(args.path, write=False)
    shown = display_path(ctx.root, path)
    if is_media(path):  # PDFs and images: media.py
        return await read_media(args, ctx, path, shown, anchored(ctx, path))
    shown_text = await _read_text(args, ctx, path, shown)
    # The instruction files of the folders down to this file, the first time one of their files is read.
    nested = nested_instructions(ctx.root, path, ctx.state.setdefault(NESTED_KEY, set()))
    return f"{shown_text}\n\n{nested}" if nested else shown_text


async def _read_text(args: ReadFileArgs, ctx: ToolContext, path: Path, shown: str) -> str:
    """`read_file` of a text file."""
    text_file = read_existing(ctx, path)
    lines = text_file.lines
    start, end = _read_range(args, shown, len(lines))
    if text_file.disk is None:
        stamp_file(ctx, path, text_file.raw)
    else:  # the status read through the same descriptor: no second walk
        _stamp(ctx, path, text_file.disk, text_file.raw)
    ctx.last_location = (path, start)
    header = _header(shown, text_file, len(lines), start, end)
    if not lines:
        return f"{header}\n(the file is empty)"
    body, last = _numbered(lines, start, end, ctx.read_max_bytes)
    if last < end:
        body += (
            f"\n[showing lines {start}–{last} of {len(lines)}; "
            f"call read_file with startLine={last + 1} to read more]"
        )
    return f"{header}\n{body}"


async def create_file(args: CreateFileArgs, ctx: ToolContext) -> str:
    """Create a file (and its folders); an existing file is replaced only with overwrite=true."""
    path = ctx.resolve(args.path, write=True)
    shown = display_path(ctx.root, path)
    found = _entry(ctx, path)
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise ToolError(f"{shown} is a directory; give the path of a file to create")
    lines = len(split_lines(args.content.replace("\r\n", "\n")))
    retry = "Fix the content and call create_file again."
    if found is None:
        guard_change(ctx, path, None, args.content, tool="create_file", retry=retry)
        data = args.content.encode("utf-8")
        commit_change(ctx, path, None, data, tool="create_file")
        return f"Created {shown} ({lines} lines, {len(data)} bytes)."
    if not args.overwrite:
        raise ToolError(
            f"{shown} already exists; call create_file with overwrite=true to replace it, "
            "or change it with replace_text / replace_lines"
        )
    old = read_existing(ctx, path)
    # Keep the old file's encoding, BOM and line ends; the final newline follows the new content.
    style = replace(old, trailing_newline=args.content == "" or args.content.endswith(("\n", "\r")))
    data = encode(style, args.content)
    if data == old.raw:
        raise nothing_changed(shown, "create_file")
    guard_change(ctx, path, old.text, args.content, tool="create_file", change="this overwrite", retry=retry)
    commit_change(ctx, path, old.raw, data, tool="create_file", mode=old.mode)
    return f"Overwrote {shown} ({lines} lines; it had {len(old.lines)})."


async def delete_file(args: DeleteFileArgs, ctx: ToolContext) -> str:
    """Delete a file: into `.asi/trash/` by default, for real with permanent=true; both can be undone."""
    path = ctx.resolve(args.path, write=True)
    shown = display_path(ctx.root, path)
    link = _lexical(ctx.root, args.path)
    if link.is_symlink():
        raise ToolError(
            f"{args.path} is a symbolic link to {shown}; delete_file deletes regular files only "
            f"(remove the link itself with run_terminal_cmd: rm {args.path})"
        )
    try:
        before = beneath.read_bytes(anchored(ctx, path))
    except IsADirectoryError as exc:
        raise ToolError(f"{shown} is a directory; delete_file deletes single files only") from exc
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise missing_file_error(ctx, path) from exc
    except OSError as exc:
        raise ToolError(f"cannot read {shown}: {exc.strerror or exc}") from exc
    committed = commit_change(ctx, path, before, None, tool="delete_file", permanent=args.permanent)
    if committed.trash is None:
        return (
            f"Deleted {shown} permanently ({len(before)} bytes). The journal kept a copy: "
            "`asi-agent undo` restores it."
        )
    where = display_path(ctx.root, committed.trash)
    return f"Moved {shown} to the trash ({where}); `asi-agent undo` puts it back."


def _read_range(args: ReadFileArgs, shown: str, total: int) -> tuple[int, int]:
    """The 1-based inclusive line range to show, with endLine clamped to the file."""
    start = 1 if args.startLine is None else args.startLine
    if start < 1:
        raise ToolError(f"startLine must be 1 or more (lines are 1-based); got {start}")
    if total and start > total:
        raise ToolError(f"startLine={start} is past the end: {shown} has {total} lines")
    end = total if args.endLine is None else min(args.endLine, total)
    if total and end < start:
        raise ToolError(f"endLine={args.endLine} is before startLine={start}; give endLine >= startLine")
    return start, end


def _header(shown: str, text_file: TextFile, total: int, start: int, end: int) -> str:
    """First output line: the path, its size in lines, the range shown and any unusual encoding."""
    parts = [f"{shown} ({total} {'line' if total == 1 else 'lines'}"]
    if total and (start, end) != (1, total):
        parts.append(f", lines {start}–{end}")
    if text_file.encoding != "utf-8":
        note = " assumed: the file is not valid UTF-8" if text_file.assumed_encoding else ""
        parts.append(f", encoding {text_file.encoding}{note}")
    return "".join(parts) + ")"


def _numbered(lines: list[str], start: int, end: int, max_bytes: int) -> tuple[str, int]:
    """Lines start..end as `   12| text`, stopping before `max_bytes`; returns them and the last shown."""
    width = max(5, len(str(end)))
    out: list[str] = []
    used = 0
    last = start - 1
    for number in range(start, end + 1):
        row = f"{number:>{width}}| {lines[number - 1]}"
        size = len(row.encode("utf-8")) + 1
        if used + size > max_bytes:
            if not out:
                # A single line longer than the budget is cut rather than never shown.
                out.append(row.encode("utf-8")[:max_bytes].decode("utf-8", "ignore") + " …[line cut]")
                last = number
            break
        out.append(row)
        used += size
        last = number
    return "\n".join(out), last


def _lexical(root: Path, raw: str) -> Path:
    """The path as written, joined to the root but with no link resolved (to spot symbolic links)."""
    candidate = expand_home(raw.strip())
    return candidate if candidate.is_absolute() else root / candidate


def _entry(ctx: ToolContext, path: Path) -> os.stat_result | None:
    """What is at a resolved path (None: nothing); a link there now was swapped in: LinkOnPathError."""
    found = beneath.lstat(anchored(ctx, path))
    if found is not None and stat.S_ISLNK(found.st_mode):
        raise LinkOnPathError(display_path(ctx.root, path))
    return found
