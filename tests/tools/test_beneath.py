"""Operations beneath a base folder follow no link: a link on the path is refused, the outside untouched.

Each test runs twice: with openat2 (this kernel has it) and with the portable walk (`ASI_NO_OPENAT2`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from asi_agent.exceptions import ModelFixableError, ToolError, UserError
from asi_agent.tools import beneath
from asi_agent.tools.args import CreateFileArgs, ReadFileArgs, ReplaceTextArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.beneath import Anchored, LinkOnPathError, anchor
from asi_agent.tools.files.edit import replace_text
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.files.ops import create_file, read_file


@pytest.fixture(params=["openat2", "walk"])
def walk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which way paths are walked in this run of the test."""
    if request.param == "walk":
        monkeypatch.setenv("ASI_NO_OPENAT2", "1")
    else:
        monkeypatch.delenv("ASI_NO_OPENAT2", raising=False)
    return str(request.param)


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """A project with `real/` and a link `out` to an outside folder holding a decoy file."""
    root, outside = tmp_path / "project", tmp_path / "outside"
    (root / "real").mkdir(parents=True)
    outside.mkdir()
    (outside / "f.txt").write_text("OUTSIDE\n", encoding="utf-8")
    (root / "out").symlink_to(outside)
    return root.resolve(), outside


def _at(root: Path, rel: str) -> Anchored:
    return Anchored(root, tuple(rel.split("/")))


def test_a_write_under_a_linked_folder_is_refused_and_leaves_nothing_anywhere(
    walk: str, layout: tuple[Path, Path]
) -> None:
    root, outside = layout
    for rel in ("out/new.txt", "out/f.txt", "out/deeper/new.txt"):
        with pytest.raises(LinkOnPathError, match="symbolic link"):
            beneath.write_atomic(_at(root, rel), b"MARKER")
    assert sorted(os.listdir(outside)) == ["f.txt"]
    assert (outside / "f.txt").read_text(encoding="utf-8") == "OUTSIDE\n"


def test_reads_through_a_link_are_refused_at_any_depth(walk: str, layout: tuple[Path, Path]) -> None:
    root, _ = layout
    (root / "real" / "alias.txt").symlink_to(root / "out" / "f.txt")
    for rel in ("out/f.txt", "real/alias.txt"):
        with pytest.raises(LinkOnPathError):
            beneath.read_bytes(_at(root, rel))
    with pytest.raises(LinkOnPathError):
        beneath.listdir(_at(root, "out"))


def test_unlink_removes_a_link_itself_and_move_refuses_one(walk: str, layout: tuple[Path, Path]) -> None:
    root, outside = layout
    (root / "real" / "alias.txt").symlink_to(outside / "f.txt")
    with pytest.raises(LinkOnPathError):
        beneath.move(_at(root, "real/alias.txt"), _at(root, "real/moved.txt"))
    with pytest.raises(LinkOnPathError):
        beneath.move(_at(root, "out/f.txt"), _at(root, "real/moved.txt"))
    beneath.unlink(_at(root, "real/alias.txt"))
    assert not (root / "real" / "alias.txt").exists()
    assert (outside / "f.txt").read_text(encoding="utf-8") == "OUTSIDE\n"


def test_writes_make_folders_replace_atomically_and_keep_the_mode(
    walk: str, layout: tuple[Path, Path]
) -> None:
    root, _ = layout
    target = _at(root, "real/a/b/c.txt")
    beneath.write_atomic(target, b"one\n", 0o640)
    beneath.write_atomic(target, b"two\n", 0o640)
    assert beneath.read_bytes(target) == b"two\n"
    found = beneath.lstat(target)
    assert found is not None and found.st_mode & 0o777 == 0o640
    assert sorted(os.listdir(root / "real" / "a" / "b")) == ["c.txt"]  # no temporary file left
    beneath.move(target, _at(root, ".asi/trash/x/real/a/b/c.txt"))
    assert (root / ".asi" / "trash" / "x" / "real" / "a" / "b" / "c.txt").read_bytes() == b"two\n"
    assert beneath.lstat(target) is None


def test_a_file_where_a_folder_is_expected_is_not_a_directory(walk: str, layout: tuple[Path, Path]) -> None:
    root, _ = layout
    (root / "real" / "plain").write_text("x", encoding="utf-8")
    with pytest.raises(NotADirectoryError):
        beneath.write_atomic(_at(root, "real/plain/new.txt"), b"x")


def test_left_over_temporary_files_are_removed_and_only_those(walk: str, layout: tuple[Path, Path]) -> None:
    root, _ = layout
    names = [".c.txt.0123abcd.tmp", ".c.txt.zzzz.tmp", ".other.txt.0123abcd.tmp", "c.txt"]
    for name in names:
        (root / "real" / name).write_text("x", encoding="utf-8")
    removed = beneath.remove_write_temps(_at(root, "real/c.txt"))
    assert [p.name for p in removed] == [".c.txt.0123abcd.tmp"]
    assert sorted(os.listdir(root / "real")) == sorted(names[1:])
    assert beneath.remove_write_temps(_at(root, "out/c.txt")) == []  # a link: nothing is touched


def test_anchor_takes_the_base_that_holds_the_path(tmp_path: Path) -> None:
    root, extra = tmp_path / "p", tmp_path / "extra"
    assert anchor(root / "a" / "b.txt", (root, extra)) == Anchored(root.resolve(), ("a", "b.txt"))
    assert anchor(extra / "c.txt", (root, extra)) == Anchored(extra.resolve(), ("c.txt",))
    with pytest.raises(ToolError, match="not a resolved path"):
        anchor(root / ".." / "x", (root,))


# -- through the tools ------------------------------------------------------------------------


@pytest.fixture
def ctx(layout: tuple[Path, Path]) -> ToolContext:
    root, _ = layout
    return ToolContext(root=root, journal=Journal(root / ".asi"), session_id="t")


async def test_a_link_inside_the_project_that_stays_inside_is_followed(walk: str, ctx: ToolContext) -> None:
    (ctx.root / "alias").symlink_to(ctx.root / "real")
    out = await create_file(CreateFileArgs(path="alias/new.txt", content="hello\n"), ctx)
    assert out.startswith("Created real/new.txt")
    assert (ctx.root / "real" / "new.txt").read_text(encoding="utf-8") == "hello\n"
    await replace_text(ReplaceTextArgs(path="alias/new.txt", oldText="hello", newText="bye"), ctx)
    assert "bye" in await read_file(ReadFileArgs(path="real/new.txt"), ctx)


async def test_a_linked_folder_leading_out_is_named_as_such(walk: str, ctx: ToolContext) -> None:
    with pytest.raises(ModelFixableError, match=r"out/new\.txt is a symbolic link .* leading outside the"):
        await create_file(CreateFileArgs(path="out/new.txt", content="MARKER"), ctx)


async def test_a_fifo_in_place_of_a_file_is_refused_without_hanging(walk: str, ctx: ToolContext) -> None:
    os.mkfifo(ctx.root / "real" / "pipe")
    with pytest.raises(ToolError, match="not a regular file"):
        await read_file(ReadFileArgs(path="real/pipe"), ctx)


async def test_undo_through_a_folder_now_linked_outside_is_refused_and_touches_nothing(
    walk: str, ctx: ToolContext, layout: tuple[Path, Path]
) -> None:
    _, outside = layout
    await create_file(CreateFileArgs(path="real/f.txt", content="MARKER\n"), ctx)
    (ctx.root / "real").rename(ctx.root / "moved")
    (ctx.root / "real").symlink_to(outside)  # the same name, now leading out, where a decoy f.txt waits
    with pytest.raises(UserError, match=r"cannot undo the change of real/f\.txt: .*symbolic link"):
        ctx.journal.undo(ctx.root, 1)
    assert (outside / "f.txt").read_text(encoding="utf-8") == "OUTSIDE\n"
    assert (ctx.root / "moved" / "f.txt").read_text(encoding="utf-8") == "MARKER\n"


async def test_a_planted_pending_entry_naming_a_path_outside_is_aborted_without_touching_it(
    walk: str, ctx: ToolContext, layout: tuple[Path, Path]
) -> None:
    """A repository can ship `.asi/journal/entries.jsonl`: recovery must not clean up or read outside."""
    _, outside = layout
    (outside / ".f.txt.0123abcd.tmp").write_text("OUTSIDE TEMP\n", encoding="utf-8")
    journal_dir = ctx.root / ".asi" / "journal"
    journal_dir.mkdir(parents=True)
    planted = {"seq": 1, "time": "t", "path": "../outside/f.txt", "tool": "x", "session_id": "",
               "before": None, "after": None, "pending": True}  # fmt: skip
    (journal_dir / "entries.jsonl").write_text(json.dumps(planted) + "\n", encoding="utf-8")
    report = Journal(ctx.root / ".asi").recover()
    assert report.aborted == (1,) and report.removed == ()
    assert sorted(os.listdir(outside)) == [".f.txt.0123abcd.tmp", "f.txt"]
    out = await create_file(CreateFileArgs(path="real/new.txt", content="fine\n"), ctx)
    assert out.startswith("Created real/new.txt")


def test_a_planted_pending_entry_with_an_absolute_path_is_aborted_without_touching_it(
    walk: str, ctx: ToolContext, layout: tuple[Path, Path]
) -> None:
    _, outside = layout
    (outside / ".f.txt.0123abcd.tmp").write_text("OUTSIDE TEMP\n", encoding="utf-8")
    journal_dir = ctx.root / ".asi" / "journal"
    journal_dir.mkdir(parents=True)
    planted = {"seq": 1, "time": "t", "path": str(outside / "f.txt"), "tool": "x", "session_id": "",
               "before": None, "after": None, "pending": True}  # fmt: skip
    (journal_dir / "entries.jsonl").write_text(json.dumps(planted) + "\n", encoding="utf-8")
    report = Journal(ctx.root / ".asi").recover()
    assert report.aborted == (1,) and report.removed == ()
    assert sorted(os.listdir(outside)) == [".f.txt.0123abcd.tmp", "f.txt"]
