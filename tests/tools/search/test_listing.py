"""list_directory and get_project_structure on real temporary projects."""

from __future__ import annotations

import json
import os
import re
from datetime import datetime
from pathlib import Path

import pytest

from asi_agent.exceptions import PermissionDeniedError, ToolError
from asi_agent.tools.args import GetProjectStructureArgs, ListDirectoryArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.search.listing import LIST_LIMIT, format_size, get_project_structure, list_directory

OLD = datetime(2020, 1, 2, 3, 4).timestamp()
NEW = datetime(2026, 5, 6, 7, 8).timestamp()


def _put(ctx: ToolContext, rel: str, size: int = 0, mtime: float = NEW) -> Path:
    path = ctx.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    os.utime(path, (mtime, mtime))
    return path


def _names(out: str) -> list[str]:
    return [line.split("  ")[0] for line in out.splitlines()]


@pytest.fixture
def sample(ctx: ToolContext) -> ToolContext:
    _put(ctx, "README.md", 1300, OLD)
    _put(ctx, "src/app.py", 50)
    _put(ctx, "src/util.py", 5000, OLD)
    _put(ctx, "src/pkg/deep.py", 10)
    _put(ctx, "src/data.json", 200)
    _put(ctx, "debug.log", 10)
    _put(ctx, "node_modules/lib/index.js", 10)
    (ctx.root / ".gitignore").write_text("*.log\n", encoding="utf-8")
    os.utime(ctx.root / ".gitignore", (OLD, OLD))
    return ctx


async def test_lists_folders_and_files_with_size_and_date(sample: ToolContext) -> None:
    out = await list_directory(ListDirectoryArgs(path="."), sample)
    assert out.splitlines() == [
        ".gitignore  6 B  2020-01-02 03:04",
        "README.md  1.3 KB  2020-01-02 03:04",
        "src/",
    ]


async def test_recursive_listing_is_relative_to_the_root_and_skips_ignored(sample: ToolContext) -> None:
    out = await list_directory(ListDirectoryArgs(path="src", recursive=True), sample)
    assert _names(out) == ["src/app.py", "src/data.json", "src/pkg/", "src/pkg/deep.py", "src/util.py"]
    top = await list_directory(ListDirectoryArgs(path=".", recursive=True), sample)
    assert "debug.log" not in top
    assert "node_modules" not in top


@pytest.mark.parametrize("file_type", [".py", "py", "*.py", "python", "PY"])
async def test_file_type_forms(sample: ToolContext, file_type: str) -> None:
    out = await list_directory(ListDirectoryArgs(path="src", recursive=True, fileType=file_type), sample)
    assert _names(out) == ["src/app.py", "src/pkg/deep.py", "src/util.py"]


async def test_file_type_list(sample: ToolContext) -> None:
    out = await list_directory(ListDirectoryArgs(path=".", recursive=True, fileType=".json, md"), sample)
    assert _names(out) == ["README.md", "src/data.json"]


async def test_size_filters(sample: ToolContext) -> None:
    args = ListDirectoryArgs(path=".", recursive=True, minSize=100, maxSize=2000)
    assert _names(await list_directory(args, sample)) == ["README.md", "src/data.json"]
    with pytest.raises(ToolError, match="minSize"):
        await list_directory(ListDirectoryArgs(path=".", minSize=10, maxSize=5), sample)


@pytest.mark.parametrize(
    "moment", ["2024-01-01", "2024-01-01T00:00:00", "2024-01-01 12:30", "2024-01-01T00:00Z"]
)
async def test_modified_after(sample: ToolContext, moment: str) -> None:
    args = ListDirectoryArgs(path=".", recursive=True, modifiedAfter=moment)
    assert _names(await list_directory(args, sample)) == ["src/app.py", "src/data.json", "src/pkg/deep.py"]


async def test_invalid_modified_after_gives_an_example(sample: ToolContext) -> None:
    with pytest.raises(ToolError, match=r"not an ISO date; use e\.g\. '2026-01-31'"):
        await list_directory(ListDirectoryArgs(path=".", modifiedAfter="yesterday"), sample)


async def test_sort_by_size_and_modified_both_orders(sample: ToolContext) -> None:
    def run(sort_by: str, order: str) -> ListDirectoryArgs:
        return ListDirectoryArgs(
            path="src", fileType="py,json", recursive=True, sortBy=sort_by, sortOrder=order
        )

    by_size = ["src/pkg/deep.py", "src/app.py", "src/data.json", "src/util.py"]
    assert _names(await list_directory(run("size", "asc"), sample)) == by_size
    assert _names(await list_directory(run("size", "desc"), sample)) == by_size[::-1]
    _put(sample, "src/app.py", 50, NEW + 60)
    newest_first = _names(await list_directory(run("modified", "desc"), sample))
    assert newest_first[0] == "src/app.py"
    assert newest_first[-1] == "src/util.py"
    assert _names(await list_directory(run("modified", "asc"), sample))[0] == "src/util.py"
    name_desc = _names(await list_directory(run("name", "desc"), sample))
    assert name_desc == ["src/util.py", "src/pkg/deep.py", "src/data.json", "src/app.py"]


async def test_long_listing_is_capped_with_a_note(ctx: ToolContext) -> None:
    for index in range(LIST_LIMIT + 20):
        _put(ctx, f"many/f{index:04d}.txt")
    out = await list_directory(ListDirectoryArgs(path="many"), ctx)
    lines = out.splitlines()
    assert len(lines) == LIST_LIMIT + 1
    assert lines[0].startswith("many/f0000.txt  0 B  ")
    assert lines[-1].startswith(
        f"… 20 more entries not shown ({LIST_LIMIT + 20} in total); narrow with fileType"
    )


async def test_missing_path_file_path_and_outside_path(sample: ToolContext) -> None:
    with pytest.raises(ToolError, match="nope does not exist"):
        await list_directory(ListDirectoryArgs(path="nope"), sample)
    with pytest.raises(ToolError, match=r"src/app\.py is a file, not a folder; read it with read_file"):
        await list_directory(ListDirectoryArgs(path="src/app.py"), sample)
    with pytest.raises(PermissionDeniedError):
        await list_directory(ListDirectoryArgs(path=".."), sample)


async def test_empty_folder_and_filters_that_match_nothing(sample: ToolContext) -> None:
    (sample.root / "empty").mkdir()
    assert (
        await list_directory(ListDirectoryArgs(path="empty"), sample)
        == "empty/ is empty (or holds only ignored files)"
    )
    out = await list_directory(ListDirectoryArgs(path="src", fileType="rs"), sample)
    assert out == "no entries in src/ match fileType='rs'; try recursive=true to include subfolders"


async def test_an_explicitly_listed_ignored_folder_is_shown(sample: ToolContext) -> None:
    out = await list_directory(ListDirectoryArgs(path="node_modules", recursive=True), sample)
    assert _names(out) == ["node_modules/lib/", "node_modules/lib/index.js"]


def test_format_size() -> None:
    assert [format_size(n) for n in (0, 1023, 1024, 1536, 5 * 1024**2, 3 * 1024**3)] == [
        "0 B",
        "1023 B",
        "1.0 KB",
        "1.5 KB",
        "5.0 MB",
        "3.0 GB",
    ]


async def test_project_structure_tree_languages_key_files_and_entry_points(ctx: ToolContext) -> None:
    for rel in ["README.md", "LICENSE", "Makefile", "AGENTS.md", "app/__main__.py", "cmd/tool/main.go"]:
        _put(ctx, rel)
    (ctx.root / "pyproject.toml").write_text(
        '[project]\nname = "demo"\n[project.scripts]\ndemo = "app.cli:main"\n', encoding="utf-8"
    )
    (ctx.root / "package.json").write_text(
        json.dumps({"main": "lib/index.js", "bin": {"demo-js": "bin/demo.js"}}), encoding="utf-8"
    )
    for index in range(30):
        _put(ctx, f"app/mod{index:02d}.py")
    for index in range(3):
        _put(ctx, f"app/data{index}.json")
    _put(ctx, "a/b/c/d/e/deep.py")
    _put(ctx, "node_modules/x/index.js")
    _put(ctx, ".venv/lib/site.py")
    out = await get_project_structure(GetProjectStructureArgs(), ctx)
    lines = out.splitlines()
    assert lines[0] == "Project project: 42 files"
    assert "project/" in lines
    assert "  app/" in lines
    assert "    data2.json" in lines and "    mod07.py" in lines and "    mod08.py" not in lines
    assert "    … and 22 more files (.py: 22)" in lines  # 12 of the 34 entries are shown
    assert "        d/  (1 file)" in lines  # depth limit: deeper folders are summarised
    assert "deep.py" not in out
    assert "node_modules" not in out and ".venv" not in out
    assert "Languages (files): Python 32, JSON 4, Markdown/reST 2, Go 1, TOML 1, other 2" in lines
    assert "Key files: AGENTS.md, LICENSE, Makefile, README.md, package.json, pyproject.toml" in lines
    entry = next(line for line in lines if line.startswith("Entry points: "))
    for expected in [
        "app/__main__.py",
        "cmd/tool/main.go",
        "pyproject script demo = app.cli:main",
        "package.json main = lib/index.js",
        "package.json bin demo-js = bin/demo.js",
    ]:
        assert expected in entry


async def test_project_structure_stays_small_on_wide_deep_trees(ctx: ToolContext) -> None:
    for top in range(40):
        for sub in range(15):
            _put(ctx, f"t{top:02d}/s{sub:02d}/x/y/f.py")
    out = await get_project_structure(GetProjectStructureArgs(), ctx)
    assert len(out.encode()) < 9_000
    assert out.startswith("Project project: 600 files")
    assert re.search(r"… and 28 more folders with 420 files: t12/, t13/", out)
    assert "Languages (files): Python 600" in out


async def test_project_structure_of_an_empty_project(ctx: ToolContext) -> None:
    out = await get_project_structure(GetProjectStructureArgs(), ctx)
    assert out.splitlines()[0] == "Project project: 0 files"
    assert "Languages (files): no files" in out
    assert "Key files: none found" in out
    assert "Entry points: none found" in out


async def test_temp_files_of_a_killed_write_are_never_listed(sample: ToolContext) -> None:
    _put(sample, "src/.app.py.0123abcd.tmp", 20)
    out = await list_directory(ListDirectoryArgs(path="src", recursive=True), sample)
    assert "0123abcd" not in out
    tree = await get_project_structure(GetProjectStructureArgs(), sample)
    assert "0123abcd" not in tree
