"""Keeping the code index fresh without rescans: the change feed and partial updates of files and folders."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from test_index_store import make_project, names, open_index, write

from asi_agent.tools.args import FindCodeLocationArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.code.index.watch import ChangeFeed
from asi_agent.tools.code.lookup import find_code_location
from asi_agent.tools.files.journal import Journal


def _drain_until(feed: ChangeFeed, *want: Path, timeout: float = 5.0) -> set[Path]:
    """Everything the feed reported until one of `want` showed up."""
    seen: set[Path] = set()
    deadline = time.monotonic() + timeout
    while not seen.intersection(want) and time.monotonic() < deadline:
        time.sleep(0.05)
        seen |= feed.drain() or set()
    return seen


def test_feed_reports_changed_files_and_skips_ignored_folders(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    feed = ChangeFeed.start(root)
    assert feed is not None and feed.wait_ready(5)
    try:
        write(root, "node_modules/x.js", "ignored")
        write(root, ".asi/state.json", "ignored")
        new = write(root, "pkg/new.py", "def fresh():\n    pass\n")
        # A file made in a new folder may be reported as that folder (created before it was watched);
        # the index then walks the folder.
        seen = _drain_until(feed, new, new.parent)
        assert new in seen or new.parent in seen
        assert not any("node_modules" in p.parts or ".asi" in p.parts for p in seen)
        assert feed.drain() == set()  # drained
    finally:
        feed.stop()
    assert not feed.alive


def test_feed_stopped_without_waiting_ends_its_thread_by_itself(tmp_path: Path) -> None:
    feed = ChangeFeed.start(tmp_path.resolve())
    assert feed is not None and feed.wait_ready(5)
    feed.stop(wait=False)
    deadline = time.monotonic() + 5
    while feed.alive and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not feed.alive
    assert feed.drain() is None  # a stopped feed asks for rescans


def test_partial_update_of_a_deleted_or_moved_folder_takes_its_files(tmp_path: Path) -> None:
    make_project(tmp_path)
    index = open_index(tmp_path)
    index.update()
    assert "helper" in names(index)
    shutil.move(tmp_path / "app", tmp_path / "core")
    stats = index.update([tmp_path / "app", tmp_path / "core"])
    assert stats.files == 2  # only the moved folder's files were looked at
    paths = {row[0] for row in index.conn.execute("SELECT path FROM files")}
    assert paths == {"core/main.py", "core/util.py", "web/app.ts", "README.md"}
    shutil.rmtree(tmp_path / "core")
    index.update([tmp_path / "core"])
    assert "helper" not in names(index)


async def test_find_code_location_sees_an_outside_edit_without_waiting_for_a_rescan(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    make_project(root)
    ctx = ToolContext(root=root, journal=Journal(root / ".asi"))
    try:
        first = await find_code_location(FindCodeLocationArgs(search="helper", findDefinition=True), ctx)
        assert "app/util.py" in first
        feed = ctx.state["asi_agent.tools.code.sessionindex"].feed
        assert feed is not None and feed.wait_ready(5)
        new = write(root, "app/extra.py", "def brand_new_helper():\n    return 2\n")
        time.sleep(0.4)  # the notification's debounce; a real model's next call comes seconds later
        out = await find_code_location(
            FindCodeLocationArgs(search="brand_new_helper", findDefinition=True), ctx
        )
        assert "app/extra.py" in out, out
        assert new.exists()
    finally:
        await ctx.aclose()
