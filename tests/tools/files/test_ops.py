"""read_file, create_file and delete_file on a real temporary project."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest

from asi_agent.exceptions import PermissionDeniedError, ToolError
from asi_agent.tools.args import CreateFileArgs, DeleteFileArgs, ReadFileArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.ops import create_file, delete_file, read_file


def _put(ctx: ToolContext, rel: str, data: bytes) -> Path:
    path = ctx.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


async def test_read_file_numbers_lines_and_stamps(ctx: ToolContext) -> None:
    path = _put(ctx, "src/a.py", b"import os\n\nprint(os.sep)\n")
    out = await read_file(ReadFileArgs(path="src/a.py"), ctx)
    assert out.splitlines() == ["src/a.py (3 lines)", "    1| import os", "    2| ", "    3| print(os.sep)"]
    stamp = ctx.stamps[path.resolve()]
    assert stamp.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert ctx.last_location == (path.resolve(), 1)


async def test_read_file_range_clamps_end(ctx: ToolContext) -> None:
    _put(ctx, "f.txt", b"".join(f"line {i}\n".encode() for i in range(1, 11)))
    out = await read_file(ReadFileArgs(path="f.txt", startLine=9, endLine=50), ctx)
    assert out.splitlines() == ["f.txt (10 lines, lines 9–10)", "    9| line 9", "   10| line 10"]


async def test_read_file_start_past_end_says_how_many_lines(ctx: ToolContext) -> None:
    _put(ctx, "f.txt", b"a\nb\n")
    with pytest.raises(ToolError, match=r"startLine=5 is past the end: f\.txt has 2 lines"):
        await read_file(ReadFileArgs(path="f.txt", startLine=5), ctx)


async def test_read_file_reversed_range_is_refused(ctx: ToolContext) -> None:
    _put(ctx, "f.txt", b"a\nb\nc\n")
    with pytest.raises(ToolError, match="endLine=1 is before startLine=3"):
        await read_file(ReadFileArgs(path="f.txt", startLine=3, endLine=1), ctx)


async def test_read_file_size_cap_tells_how_to_continue(ctx: ToolContext) -> None:
    ctx.read_max_bytes = 200
    _put(ctx, "big.txt", b"".join(f"{i:030d}\n".encode() for i in range(100)))
    out = await read_file(ReadFileArgs(path="big.txt"), ctx)
    last = out.splitlines()[-1]
    assert last == "[showing lines 1–5 of 100; call read_file with startLine=6 to read more]"
    assert len(out.encode()) < 400


async def test_read_file_names_an_assumed_encoding(ctx: ToolContext) -> None:
    _put(ctx, "old.txt", "caf\u00e9\n".encode("cp1252"))
    out = await read_file(ReadFileArgs(path="old.txt"), ctx)
    assert out.splitlines() == [
        "old.txt (1 line, encoding cp1252 assumed: the file is not valid UTF-8)",
        "    1| caf\u00e9",
    ]


async def test_read_file_empty_file(ctx: ToolContext) -> None:
    _put(ctx, "empty.txt", b"")
    assert await read_file(ReadFileArgs(path="empty.txt"), ctx) == "empty.txt (0 lines)\n(the file is empty)"


async def test_read_file_binary_is_refused_and_an_image_is_described(ctx: ToolContext) -> None:
    _put(ctx, "blob.bin", b"\x89PNG\x00\x00\x01")
    with pytest.raises(ToolError, match=r"blob.bin is a binary file \(7 bytes\)"):
        await read_file(ReadFileArgs(path="blob.bin"), ctx)
    _put(ctx, "img.png", b"\x89PNG\x00\x00\x01")
    described = await read_file(ReadFileArgs(path="img.png"), ctx)
    assert described.startswith("img.png is an image (PNG, 7 bytes).")


async def test_read_file_directory_suggests_list_directory(ctx: ToolContext) -> None:
    (ctx.root / "src").mkdir()
    with pytest.raises(ToolError, match="src is a directory; call list_directory"):
        await read_file(ReadFileArgs(path="src"), ctx)


async def test_read_file_missing_suggests_close_names(ctx: ToolContext) -> None:
    _put(ctx, "src/config.py", b"")
    _put(ctx, "src/other.txt", b"")
    with pytest.raises(ToolError, match=r"src/confg.py does not exist; did you mean src/config.py\?"):
        await read_file(ReadFileArgs(path="src/confg.py"), ctx)


async def test_read_file_missing_folder(ctx: ToolContext) -> None:
    with pytest.raises(ToolError, match="nor does its folder nope"):
        await read_file(ReadFileArgs(path="nope/x.py"), ctx)


async def test_read_through_a_symlink_pointing_outside_is_refused(ctx: ToolContext, tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("secret")
    os.symlink(tmp_path / "secret.txt", ctx.root / "link.txt")
    with pytest.raises(PermissionDeniedError, match="outside the project root"):
        await read_file(ReadFileArgs(path="link.txt"), ctx)


async def test_create_file_makes_parents_journals_and_stamps(ctx: ToolContext) -> None:
    out = await create_file(CreateFileArgs(path="pkg/sub/mod.py", content="x = 1\ny = 2\n"), ctx)
    path = ctx.root / "pkg" / "sub" / "mod.py"
    assert out == "Created pkg/sub/mod.py (2 lines, 12 bytes)."
    assert path.read_text() == "x = 1\ny = 2\n"
    (entry,) = ctx.journal.entries()
    assert (entry.path, entry.tool, entry.kind, entry.session_id) == (
        "pkg/sub/mod.py",
        "create_file",
        "created",
        "test",
    )
    assert path.resolve() in ctx.stamps


async def test_create_file_refuses_to_overwrite_without_the_flag(ctx: ToolContext) -> None:
    _put(ctx, "a.txt", b"keep\n")
    with pytest.raises(ToolError, match=r"a\.txt already exists; call create_file with overwrite=true"):
        await create_file(CreateFileArgs(path="a.txt", content="new\n"), ctx)
    assert (ctx.root / "a.txt").read_bytes() == b"keep\n"
    assert ctx.journal.entries() == []


async def test_create_file_overwrite_keeps_crlf_and_mode(ctx: ToolContext) -> None:
    path = _put(ctx, "run.bat", b"@echo off\r\necho old\r\n")
    path.chmod(0o755)
    out = await create_file(
        CreateFileArgs(path="run.bat", content="@echo off\necho new\n", overwrite=True), ctx
    )
    assert out == "Overwrote run.bat (2 lines; it had 2)."
    assert path.read_bytes() == b"@echo off\r\necho new\r\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o755
    assert ctx.journal.entries()[0].kind == "modified"


@pytest.mark.parametrize("raw", [".git/config", ".asi/USER_PROMPT.md", "../outside.txt"])
async def test_create_file_in_protected_or_outside_places_is_refused(ctx: ToolContext, raw: str) -> None:
    with pytest.raises(PermissionDeniedError):
        await create_file(CreateFileArgs(path=raw, content="x"), ctx)
    assert not (ctx.root / raw).exists()


async def test_create_file_through_a_symlinked_folder_outside_is_refused(
    ctx: ToolContext, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, ctx.root / "out")
    with pytest.raises(PermissionDeniedError, match="outside the project root"):
        await create_file(CreateFileArgs(path="out/evil.txt", content="x"), ctx)
    assert list(outside.iterdir()) == []


async def test_create_file_under_a_file_is_a_tool_error(ctx: ToolContext) -> None:
    _put(ctx, "plain", b"")
    with pytest.raises(ToolError, match=r"cannot write plain/x\.txt"):
        await create_file(CreateFileArgs(path="plain/x.txt", content="x"), ctx)


async def test_delete_file_moves_to_trash_and_undo_restores(ctx: ToolContext) -> None:
    path = _put(ctx, "src/old.py", b"legacy\n")
    out = await delete_file(DeleteFileArgs(path="src/old.py"), ctx)
    assert out.startswith("Moved src/old.py to the trash (.asi/trash/")
    assert not path.exists()
    trashed = list((ctx.root / ".asi" / "trash").glob("*/src/old.py"))
    assert [p.read_bytes() for p in trashed] == [b"legacy\n"]
    ctx.journal.undo(ctx.root)
    assert path.read_bytes() == b"legacy\n"


async def test_delete_file_permanent_is_still_undoable(ctx: ToolContext) -> None:
    path = _put(ctx, "tool.sh", b"#!/bin/sh\n")
    path.chmod(0o700)
    out = await delete_file(DeleteFileArgs(path="tool.sh", permanent=True), ctx)
    assert out.startswith("Deleted tool.sh permanently (10 bytes)")
    assert not path.exists()
    assert not (ctx.root / ".asi" / "trash").exists()
    ctx.journal.undo(ctx.root)
    assert path.read_bytes() == b"#!/bin/sh\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o700


async def test_delete_file_refuses_directories_and_missing_files(ctx: ToolContext) -> None:
    (ctx.root / "dir").mkdir()
    with pytest.raises(ToolError, match="dir is a directory"):
        await delete_file(DeleteFileArgs(path="dir"), ctx)
    with pytest.raises(ToolError, match=r"ghost\.txt does not exist"):
        await delete_file(DeleteFileArgs(path="ghost.txt"), ctx)
    assert ctx.journal.entries() == []


async def test_delete_file_refuses_a_symlink(ctx: ToolContext) -> None:
    target = _put(ctx, "real.txt", b"x")
    os.symlink(target, ctx.root / "alias.txt")
    with pytest.raises(ToolError, match=r"alias\.txt is a symbolic link to real\.txt"):
        await delete_file(DeleteFileArgs(path="alias.txt"), ctx)
    assert target.exists()
