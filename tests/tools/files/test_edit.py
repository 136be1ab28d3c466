"""The edit tools on real files: ranges, matching, preservation of file style, staleness, atomicity."""

from __future__ import annotations

import codecs
import stat
from pathlib import Path

import pytest

from asi_agent.exceptions import PermissionDeniedError, ToolError
from asi_agent.tools.args import (
    DeleteLinesArgs,
    InsertLineArgs,
    ReadFileArgs,
    ReplaceLinesArgs,
    ReplaceTextArgs,
)
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.edit import delete_lines, insert_line, replace_lines, replace_text
from asi_agent.tools.files.ops import read_file

FIVE = b"one\ntwo\nthree\nfour\nfive\n"


def _put(ctx: ToolContext, rel: str, data: bytes) -> Path:
    path = ctx.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


async def test_replace_lines_with_several_lines_and_diff(ctx: ToolContext) -> None:
    path = _put(ctx, "f.txt", FIVE)
    out = await replace_lines(
        ReplaceLinesArgs(path="f.txt", startLine=2, endLine=3, newText="2a\n2b\n2c"), ctx
    )
    assert path.read_bytes() == b"one\n2a\n2b\n2c\nfour\nfive\n"
    summary, *diff = out.splitlines()
    assert summary == "Replaced lines 2–3 of f.txt (2 lines → 3); the file now has 6 lines."
    assert diff[:3] == ["--- a/f.txt", "+++ b/f.txt", "@@ -1,5 +1,6 @@"]
    assert "-two" in diff
    assert "+2c" in diff
    (entry,) = ctx.journal.entries()
    assert (entry.tool, entry.kind) == ("replace_lines", "modified")


@pytest.mark.parametrize(
    ("start", "end", "message"),
    [
        (3, 2, "startLine=3 is after endLine=2"),
        (4, 9, "endLine=9 is beyond the end: f.txt has 5 lines"),
        (0, 1, "startLine must be 1 or more"),
    ],
)
async def test_replace_lines_range_errors(ctx: ToolContext, start: int, end: int, message: str) -> None:
    path = _put(ctx, "f.txt", FIVE)
    with pytest.raises(ToolError, match=message):
        await replace_lines(ReplaceLinesArgs(path="f.txt", startLine=start, endLine=end, newText="x"), ctx)
    assert path.read_bytes() == FIVE
    assert ctx.journal.entries() == []


async def test_insert_line_before_and_append(ctx: ToolContext) -> None:
    path = _put(ctx, "f.txt", b"a\nc\n")
    await insert_line(InsertLineArgs(path="f.txt", line=2, text="b"), ctx)
    out = await insert_line(InsertLineArgs(path="f.txt", line=4, text="d\ne\n"), ctx)
    assert path.read_bytes() == b"a\nb\nc\nd\ne\n"
    assert out.startswith("Inserted 2 line(s) at the end of f.txt; the file now has 5 lines.")


async def test_insert_line_into_an_empty_file(ctx: ToolContext) -> None:
    path = _put(ctx, "empty.py", b"")
    await insert_line(InsertLineArgs(path="empty.py", line=1, text="x = 1"), ctx)
    assert path.read_bytes() == b"x = 1\n"


async def test_insert_line_out_of_range_names_the_valid_range(ctx: ToolContext) -> None:
    _put(ctx, "f.txt", FIVE)
    with pytest.raises(
        ToolError, match=r"line=8 is out of range: f\.txt has 5 lines, so line must be between 1 and 6"
    ):
        await insert_line(InsertLineArgs(path="f.txt", line=8, text="x"), ctx)


async def test_delete_lines(ctx: ToolContext) -> None:
    path = _put(ctx, "f.txt", FIVE)
    out = await delete_lines(DeleteLinesArgs(path="f.txt", startLine=2, endLine=4), ctx)
    assert path.read_bytes() == b"one\nfive\n"
    assert out.startswith("Deleted lines 2–4 of f.txt; the file now has 2 lines.")


async def test_delete_lines_on_empty_file_is_refused(ctx: ToolContext) -> None:
    _put(ctx, "e.txt", b"")
    with pytest.raises(ToolError, match=r"e\.txt is empty; add text with insert_line"):
        await delete_lines(DeleteLinesArgs(path="e.txt", startLine=1, endLine=1), ctx)


async def test_replace_text_exact_unique(ctx: ToolContext) -> None:
    path = _put(ctx, "m.py", b"def f():\n    return 1\n\ndef g():\n    return 2\n")
    out = await replace_text(ReplaceTextArgs(path="m.py", oldText="return 2", newText="return 3"), ctx)
    assert path.read_bytes() == b"def f():\n    return 1\n\ndef g():\n    return 3\n"
    assert out.startswith("Replaced the text at line 5 of m.py")


async def test_replace_text_ambiguous_lists_lines(ctx: ToolContext) -> None:
    path = _put(ctx, "m.py", b"x = 1\ny = 2\nx = 1\nz\nx = 1\n")
    with pytest.raises(ToolError, match="found 3 matches at lines 1, 3, 5; include more surrounding lines"):
        await replace_text(ReplaceTextArgs(path="m.py", oldText="x = 1", newText="x = 9"), ctx)
    assert path.read_bytes() == b"x = 1\ny = 2\nx = 1\nz\nx = 1\n"


async def test_replace_text_whitespace_fallback_keeps_file_indentation(ctx: ToolContext) -> None:
    path = _put(ctx, "m.py", b"class A:\n    def f(self):\n        return  1\n")
    out = await replace_text(
        ReplaceTextArgs(
            path="m.py", oldText="def f(self):\n    return 1", newText="def f(self):\n    return 2"
        ),
        ctx,
    )
    assert "matched ignoring whitespace differences" in out
    assert path.read_bytes() == b"class A:\n    def f(self):\n        return 2\n"


async def test_replace_text_not_found_shows_similar_lines(ctx: ToolContext) -> None:
    path = _put(ctx, "m.py", b"import os\n\ndef compute_total(items):\n    return sum(items)\n")
    with pytest.raises(ToolError) as caught:
        await replace_text(
            ReplaceTextArgs(path="m.py", oldText="def compute_totals(item):", newText="x"), ctx
        )
    message = str(caught.value)
    assert "oldText was not found in m.py, not even when ignoring whitespace differences." in message
    assert "    3| def compute_total(items):" in message
    assert message.endswith("copy oldText from it exactly.")
    assert path.read_bytes() == b"import os\n\ndef compute_total(items):\n    return sum(items)\n"


async def test_replace_text_empty_old_text_is_refused(ctx: ToolContext) -> None:
    _put(ctx, "m.py", b"x\n")
    with pytest.raises(ToolError, match="oldText is empty"):
        await replace_text(ReplaceTextArgs(path="m.py", oldText="", newText="y"), ctx)


async def test_crlf_is_preserved_by_every_edit(ctx: ToolContext) -> None:
    path = _put(ctx, "w.txt", b"a\r\nb\r\nc\r\n")
    await replace_text(ReplaceTextArgs(path="w.txt", oldText="b\r\nc", newText="B\nC"), ctx)
    await insert_line(InsertLineArgs(path="w.txt", line=1, text="0"), ctx)
    await replace_lines(ReplaceLinesArgs(path="w.txt", startLine=2, endLine=2, newText="A"), ctx)
    assert path.read_bytes() == b"0\r\nA\r\nB\r\nC\r\n"


async def test_missing_final_newline_stays_missing(ctx: ToolContext) -> None:
    path = _put(ctx, "f.txt", b"a\nb")
    await insert_line(InsertLineArgs(path="f.txt", line=3, text="c"), ctx)
    assert path.read_bytes() == b"a\nb\nc"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (codecs.BOM_UTF8 + b"x = 1\n", codecs.BOM_UTF8 + b"x = 2\n"),
        (
            codecs.BOM_UTF16_LE + "x = 1\r\n".encode("utf-16-le"),
            codecs.BOM_UTF16_LE + "x = 2\r\n".encode("utf-16-le"),
        ),
        ("# caf\u00e9\nx = 1\n".encode("latin-1"), "# caf\u00e9\nx = 2\n".encode("latin-1")),
    ],
)
async def test_encodings_round_trip(ctx: ToolContext, data: bytes, expected: bytes) -> None:
    path = _put(ctx, "enc.py", data)
    await replace_text(ReplaceTextArgs(path="enc.py", oldText="x = 1", newText="x = 2"), ctx)
    assert path.read_bytes() == expected


async def test_mode_is_kept(ctx: ToolContext) -> None:
    path = _put(ctx, "run.sh", b"#!/bin/sh\necho hi\n")
    path.chmod(0o755)
    await replace_lines(ReplaceLinesArgs(path="run.sh", startLine=2, endLine=2, newText="echo bye"), ctx)
    assert stat.S_IMODE(path.stat().st_mode) == 0o755


async def test_stale_file_is_refused_until_read_again(ctx: ToolContext) -> None:
    path = _put(ctx, "f.txt", FIVE)
    await read_file(ReadFileArgs(path="f.txt"), ctx)
    path.write_bytes(b"changed by someone else\n")
    with pytest.raises(ToolError, match=r"f\.txt changed on disk since you last read it; call read_file"):
        await delete_lines(DeleteLinesArgs(path="f.txt", startLine=1, endLine=1), ctx)
    assert path.read_bytes() == b"changed by someone else\n"
    await read_file(ReadFileArgs(path="f.txt"), ctx)
    await delete_lines(DeleteLinesArgs(path="f.txt", startLine=1, endLine=1), ctx)
    assert path.read_bytes() == b""


async def test_own_writes_do_not_count_as_stale(ctx: ToolContext) -> None:
    path = _put(ctx, "f.txt", FIVE)
    await read_file(ReadFileArgs(path="f.txt"), ctx)
    await delete_lines(DeleteLinesArgs(path="f.txt", startLine=1, endLine=1), ctx)
    await delete_lines(DeleteLinesArgs(path="f.txt", startLine=1, endLine=1), ctx)
    assert path.read_bytes() == b"three\nfour\nfive\n"
    assert len(ctx.journal.entries()) == 2


async def test_unencodable_edit_writes_nothing_and_leaves_no_temp(ctx: ToolContext) -> None:
    data = "caf\u00e9\n".encode("cp1252")
    path = _put(ctx, "legacy.txt", data)
    with pytest.raises(ToolError, match=r"U\+2603.*cp1252"):
        await replace_text(
            ReplaceTextArgs(path="legacy.txt", oldText="caf\u00e9", newText="snow \u2603"), ctx
        )
    assert path.read_bytes() == data
    assert sorted(p.name for p in ctx.root.iterdir()) == ["legacy.txt"]
    assert ctx.journal.entries() == []


async def test_successful_edit_leaves_no_temp_file(ctx: ToolContext) -> None:
    _put(ctx, "f.txt", FIVE)
    await replace_text(ReplaceTextArgs(path="f.txt", oldText="three", newText="3"), ctx)
    assert sorted(p.name for p in ctx.root.iterdir()) == [".asi", "f.txt"]


async def test_edits_into_git_internals_are_refused(ctx: ToolContext) -> None:
    path = _put(ctx, ".git/config", b"[core]\n")
    with pytest.raises(PermissionDeniedError, match=r"\.git/"):
        await insert_line(InsertLineArgs(path=".git/config", line=1, text="x"), ctx)
    assert path.read_bytes() == b"[core]\n"


async def test_edit_of_missing_file_suggests_names(ctx: ToolContext) -> None:
    _put(ctx, "main.py", b"x\n")
    with pytest.raises(ToolError, match=r"mian.py does not exist; did you mean main.py\?"):
        await delete_lines(DeleteLinesArgs(path="mian.py", startLine=1, endLine=1), ctx)
