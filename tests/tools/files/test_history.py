"""diff_history and reapply over a journal filled by the real tools."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import (
    CreateFileArgs,
    DeleteFileArgs,
    DiffHistoryArgs,
    ReapplyArgs,
    ReplaceTextArgs,
)
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.edit import replace_text
from asi_agent.tools.files.history import diff_history, reapply
from asi_agent.tools.files.ops import create_file, delete_file


async def _two_changes(ctx: ToolContext) -> Path:
    await create_file(CreateFileArgs(path="a.py", content="x = 1\n"), ctx)
    await replace_text(ReplaceTextArgs(path="a.py", oldText="x = 1", newText="x = 2"), ctx)
    return ctx.root / "a.py"


async def test_diff_history_lists_newest_first_with_diffs(ctx: ToolContext) -> None:
    await _two_changes(ctx)
    out = await diff_history(DiffHistoryArgs(), ctx)
    first, second = out.split("\n\n")
    assert first.startswith("[0] #2 ")
    assert first.splitlines()[0].endswith(" replace_text a.py (modified)")
    assert "-x = 1\n+x = 2" in first
    assert second.startswith("[1] #1 ")
    assert second.splitlines()[0].endswith(" create_file a.py (created)")
    assert "+x = 1" in second


async def test_diff_history_filters_by_path_and_limit(ctx: ToolContext) -> None:
    await _two_changes(ctx)
    await create_file(CreateFileArgs(path="b.py", content="y\n"), ctx)
    only_a = await diff_history(DiffHistoryArgs(path="a.py", limit=1), ctx)
    assert only_a.startswith("[1] #2 ")
    assert "b.py" not in only_a
    assert "\n\n[" not in only_a


async def test_diff_history_empty(ctx: ToolContext) -> None:
    assert await diff_history(DiffHistoryArgs(), ctx) == "No changes have been recorded yet."
    assert (
        await diff_history(DiffHistoryArgs(path="x.py"), ctx) == "No changes to x.py have been recorded yet."
    )


async def test_diff_history_shows_undo_records(ctx: ToolContext) -> None:
    await _two_changes(ctx)
    ctx.journal.undo(ctx.root)
    headers = [block.splitlines()[0] for block in (await diff_history(DiffHistoryArgs(), ctx)).split("\n\n")]
    assert headers[0].startswith("[-] #3 ")
    assert headers[0].endswith("(undo of #2)")
    assert headers[1].endswith("(modified, undone by #3)")


async def test_diff_history_cuts_long_diffs(ctx: ToolContext) -> None:
    content = "".join(f"line {i}\n" for i in range(300))
    await create_file(CreateFileArgs(path="long.txt", content=content), ctx)
    out = await diff_history(DiffHistoryArgs(), ctx)
    assert len(out.splitlines()) < 70
    assert "diff cut" in out


async def test_reapply_after_undo(ctx: ToolContext) -> None:
    path = await _two_changes(ctx)
    ctx.journal.undo(ctx.root)
    assert path.read_text() == "x = 1\n"
    out = await reapply(ReapplyArgs(index=0), ctx)
    assert out.startswith("Rewrote a.py with the content of change #2 (replace_text).")
    assert path.read_text() == "x = 2\n"
    latest = ctx.journal.entries()[0]
    assert (latest.tool, latest.kind) == ("reapply", "modified")


async def test_reapply_recreates_an_undone_create_with_its_mode(ctx: ToolContext) -> None:
    await create_file(CreateFileArgs(path="run.sh", content="echo hi\n"), ctx)
    (ctx.root / "run.sh").chmod(0o755)
    await replace_text(ReplaceTextArgs(path="run.sh", oldText="hi", newText="ho"), ctx)
    ctx.journal.undo(ctx.root, 2)
    assert not (ctx.root / "run.sh").exists()
    out = await reapply(ReapplyArgs(index=0), ctx)
    assert out.startswith("Recreated run.sh")
    assert (ctx.root / "run.sh").read_text() == "echo ho\n"
    assert stat.S_IMODE((ctx.root / "run.sh").stat().st_mode) == 0o755


async def test_reapply_of_a_delete_deletes_again(ctx: ToolContext) -> None:
    await create_file(CreateFileArgs(path="gone.txt", content="bye\n"), ctx)
    await delete_file(DeleteFileArgs(path="gone.txt"), ctx)
    ctx.journal.undo(ctx.root)
    assert (ctx.root / "gone.txt").exists()
    out = await reapply(ReapplyArgs(index=0), ctx)
    assert out.startswith("Deleted gone.txt again")
    assert not (ctx.root / "gone.txt").exists()


async def test_reapply_when_content_is_already_there(ctx: ToolContext) -> None:
    await _two_changes(ctx)
    out = await reapply(ReapplyArgs(index=0), ctx)
    assert out == "a.py already has the content written by change #2; nothing was written."
    assert len(ctx.journal.entries()) == 2


async def test_reapply_index_out_of_range_says_how_many(ctx: ToolContext) -> None:
    await _two_changes(ctx)
    ctx.journal.undo(ctx.root)
    with pytest.raises(
        ToolError, match=r"index=2 is out of range: the journal has 2 changes \(valid index 0–1"
    ):
        await reapply(ReapplyArgs(index=2), ctx)
    with pytest.raises(ToolError, match="the journal has 2 changes"):
        await reapply(ReapplyArgs(index=-1), ctx)


async def test_reapply_with_empty_journal(ctx: ToolContext) -> None:
    with pytest.raises(ToolError, match="no changes yet"):
        await reapply(ReapplyArgs(), ctx)
