"""grep_search (real ripgrep) and file_search on real temporary projects."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path

import pytest

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import FileSearchArgs, GrepSearchArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.search.grep import _Events, _Found, file_search, grep_search, ripgrep_binary


def _put(ctx: ToolContext, rel: str, data: str | bytes = "") -> None:
    path = ctx.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)


def _paths(out: str) -> list[str]:
    """The file lines of a grep_search answer."""
    return [line for line in out.splitlines()[1:] if line and not line.startswith(("  ", "…"))]


async def _grep(ctx: ToolContext, pattern: str, **kwargs: object) -> str:
    return await grep_search(GrepSearchArgs(pattern=pattern, **kwargs), ctx)  # type: ignore[arg-type]


async def _find(ctx: ToolContext, pattern: str, **kwargs: object) -> list[str]:
    out = await file_search(FileSearchArgs(pattern=pattern, **kwargs), ctx)  # type: ignore[arg-type]
    return out.splitlines()


@pytest.fixture
def code(ctx: ToolContext) -> ToolContext:
    _put(ctx, "src/app.py", "import os\n\ndef main():\n    return Needle()\n")
    _put(ctx, "src/util.js", "// needle in js\nconst x = 1;\n")
    _put(ctx, "docs/guide.md", "The NEEDLE is here.\n")
    _put(ctx, ".github/workflows/ci.yml", "run: needle\n")
    return ctx


async def test_grep_groups_by_file_with_line_numbers(code: ToolContext) -> None:
    out = await _grep(code, "needle")
    assert out.splitlines() == [
        "4 matches in 4 files",
        ".github/workflows/ci.yml",
        "  1: run: needle",
        "docs/guide.md",
        "  1: The NEEDLE is here.",
        "src/app.py",
        "  4:     return Needle()",
        "src/util.js",
        "  1: // needle in js",
    ]


async def test_grep_case_sensitive(code: ToolContext) -> None:
    out = await _grep(code, "Needle", caseSensitive=True)
    assert _paths(out) == ["src/app.py"]


@pytest.mark.parametrize("file_type", [".py", "py", "*.py", "python", "PY"])
async def test_grep_file_type_forms(code: ToolContext, file_type: str) -> None:
    assert _paths(await _grep(code, "needle", fileType=file_type)) == ["src/app.py"]


async def test_grep_file_type_names_and_lists(code: ToolContext) -> None:
    assert _paths(await _grep(code, "needle", fileType="js")) == ["src/util.js"]
    assert _paths(await _grep(code, "needle", fileType="md, yml")) == [
        ".github/workflows/ci.yml",
        "docs/guide.md",
    ]


async def test_grep_no_match_is_a_message_not_an_error(code: ToolContext) -> None:
    assert await _grep(code, "absent_word") == "no matches for /absent_word/"
    assert await _grep(code, "import", fileType="rs") == "no matches for /import/ in rs files"


async def test_grep_invalid_regex_quotes_ripgrep(code: ToolContext) -> None:
    with pytest.raises(ToolError, match=r"(?s)/foo\(/ is not a valid regular expression.*unclosed group"):
        await _grep(code, "foo(")
    with pytest.raises(ToolError, match="look-around"):
        await _grep(code, "(?<=a)b")


async def test_grep_pattern_starting_with_a_dash(ctx: ToolContext) -> None:
    _put(ctx, "a.txt", "x --verbose y\n")
    assert _paths(await _grep(ctx, "--verbose")) == ["a.txt"]


async def test_grep_limit_note_only_when_more_exist(ctx: ToolContext) -> None:
    _put(ctx, "many.txt", "hit\n" * 10)
    out = await _grep(ctx, "hit", limit=3)
    assert out.splitlines() == [
        "3 matches in 1 file",
        "many.txt",
        "  1: hit",
        "  2: hit",
        "  3: hit",
        "… showing the first 3 matches; narrow with fileType or a more specific pattern",
    ]
    exact = await _grep(ctx, "hit", limit=10)
    assert exact.splitlines()[0] == "10 matches in 1 file"
    assert "showing the first" not in exact
    with pytest.raises(ToolError, match="limit must be at least 1"):
        await _grep(ctx, "hit", limit=0)


async def test_grep_skips_binary_and_decodes_legacy_text(ctx: ToolContext) -> None:
    _put(ctx, "blob.bin", b"needle\x00\x01\x02needle")
    _put(ctx, "latin.txt", "café needle\n".encode("cp1252"))
    _put(ctx, "utf8.txt", "naïve needle ✓\n")
    out = await _grep(ctx, "needle")
    assert _paths(out) == ["latin.txt", "utf8.txt"]
    assert "  1: café needle" in out.splitlines()
    assert "  1: naïve needle ✓" in out.splitlines()


async def test_grep_shows_lines_without_byte_order_mark_or_line_ending(ctx: ToolContext) -> None:
    _put(ctx, "bom.txt", "\ufeffneedle first\r\nsecond needle\r\n".encode())
    out = await _grep(ctx, "needle")
    assert out.splitlines()[1:] == ["bom.txt", "  1: needle first", "  2: second needle"]


async def test_grep_cuts_long_lines_around_the_match(ctx: ToolContext) -> None:
    _put(ctx, "min.js", "a" * 5000 + "needle" + "b" * 5000 + "\n")
    _put(ctx, "start.txt", "needle" + "c" * 1000 + "\n")
    out = await _grep(ctx, "needle")
    lines = out.splitlines()
    cut = next(line for line in lines if line.startswith("  1: …"))
    assert "needle" in cut and len(cut) < 320 and cut.endswith("…")
    head = lines[lines.index("start.txt") + 1]
    assert head.startswith("  1: needle") and head.endswith("…") and len(head) < 320


async def test_grep_respects_gitignore_outside_git_with_nesting_and_negation(ctx: ToolContext) -> None:
    _put(ctx, ".gitignore", "*.log\n!keep.log\ngenerated/\n")
    _put(ctx, "a.log", "needle\n")
    _put(ctx, "keep.log", "needle\n")
    _put(ctx, "generated/x.py", "needle\n")
    _put(ctx, "sub/.gitignore", "*.tmp\n")
    _put(ctx, "sub/x.tmp", "needle\n")
    _put(ctx, "other/x.tmp", "needle\n")
    assert _paths(await _grep(ctx, "needle")) == ["keep.log", "other/x.tmp"]


async def test_grep_respects_gitignore_inside_git(ctx: ToolContext) -> None:
    subprocess.run(["git", "init", "-q", str(ctx.root)], check=True)
    _put(ctx, ".gitignore", "secret.txt\n")
    _put(ctx, "secret.txt", "needle\n")
    _put(ctx, "public.txt", "needle\n")
    assert _paths(await _grep(ctx, "needle")) == ["public.txt"]


async def test_grep_skips_always_ignored_folders_and_venvs(ctx: ToolContext) -> None:
    for rel in [".git/x", ".asi/sessions/s.jsonl", "node_modules/m/i.js", ".venv/l.py", "env/l.py", "ok.py"]:
        _put(ctx, rel, "needle\n")
    _put(ctx, "env/pyvenv.cfg", "home = /usr\n")
    assert _paths(await _grep(ctx, "needle")) == ["ok.py"]


async def test_grep_cancelled_stops_ripgrep(ctx: ToolContext) -> None:
    # About 30 MB and a regex without a literal to skip ahead to: ripgrep needs a good fraction of a second.
    line = b"alpha beta gamma delta epsilon zeta alpha gamma beta zeta delta epsilon\n"
    for index in range(6):
        _put(ctx, f"big{index}.txt", line * 70_000)
    task = asyncio.create_task(_grep(ctx, r"(a|e)(l|p)\w*\s(\w+\s){10}\d"))
    root = ctx.root.resolve()
    for _ in range(200):
        await asyncio.sleep(0.01)
        if _processes_in(root):
            break
    assert _processes_in(root), "ripgrep did not start"
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not _processes_in(root)


def _processes_in(folder: Path) -> list[int]:
    """Ids of live processes whose working directory is `folder` (Linux /proc)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink(f"/proc/{pid}/cwd") == str(folder):
                found.append(int(pid))
        except OSError:
            continue
    return found


async def test_grep_and_file_search_on_three_thousand_files(ctx: ToolContext) -> None:
    _put(ctx, ".gitignore", "*.skip\n")
    for index in range(3000):
        suffix = "skip" if index % 10 == 0 else "py"
        body = f"value = {index}\n" + ("MARKER\n" if index % 100 == 7 else "")
        _put(ctx, f"pkg{index % 30}/mod{index}.{suffix}", body)
    out = await _grep(ctx, "^MARKER$", caseSensitive=True, limit=100)
    assert out.splitlines()[0] == "30 matches in 30 files"
    assert sorted(_paths(out)) == sorted(f"pkg{i % 30}/mod{i}.py" for i in range(7, 3000, 100))
    assert (await _find(ctx, "mod2345.py"))[0] == "pkg5/mod2345.py"
    every = await _find(ctx, "*.py", fuzzy=False)
    assert len(every) == 201  # 200 shown, then the note
    assert every[-1] == "… 2500 more; use a longer pattern or fileType"
    assert await _find(ctx, "*.skip", fuzzy=False) == [
        "no files match '*.skip'; try fuzzy=true or a shorter pattern"
    ]


def test_ripgrep_binary_is_the_bundled_one() -> None:
    rg = ripgrep_binary()
    version = subprocess.run([rg, "--version"], capture_output=True, text=True, check=True).stdout
    assert version.startswith("ripgrep 14.1.0")


@pytest.fixture
def files(ctx: ToolContext) -> ToolContext:
    for rel in [
        "src/config.py",
        "src/config_loader.py",
        "src/utils/strings.py",
        "src/utils/a.txt",
        "tests/test_config.py",
        "docs/configuration.md",
        "b.txt",
        "node_modules/config.js",
        "debug.log",
    ]:
        _put(ctx, rel)
    _put(ctx, ".gitignore", "*.log\n")
    return ctx


async def test_file_search_fuzzy_ranks_best_first(files: ToolContext) -> None:
    found = await _find(files, "config")
    assert found[0] == "src/config.py"
    assert set(found) >= {"src/config_loader.py", "tests/test_config.py", "docs/configuration.md"}
    assert "node_modules/config.js" not in found and "debug.log" not in found
    assert (await _find(files, "confg_loadr"))[0] == "src/config_loader.py"


async def test_file_search_search_path_matches_folders_too(files: ToolContext) -> None:
    with_path = await _find(files, "utils")
    assert set(with_path) == {"src/utils/strings.py", "src/utils/a.txt"}
    assert await _find(files, "utils", searchPath=False) == [
        "no files resemble 'utils'; try a shorter pattern, or grep_search to search contents"
    ]


async def test_file_search_file_type(files: ToolContext) -> None:
    assert await _find(files, "config", fileType="md") == ["docs/configuration.md"]
    assert await _find(files, "*", fuzzy=False, fileType=".txt") == ["b.txt", "src/utils/a.txt"]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("*.py", ["src/config.py", "src/config_loader.py", "src/utils/strings.py", "tests/test_config.py"]),
        ("src/*.py", ["src/config.py", "src/config_loader.py"]),
        ("**/test_*.py", ["tests/test_config.py"]),
        ("src/**", ["src/config.py", "src/config_loader.py", "src/utils/a.txt", "src/utils/strings.py"]),
        ("[ab].txt", ["b.txt", "src/utils/a.txt"]),
        ("[!a].txt", ["b.txt"]),
        ("?.txt", ["b.txt", "src/utils/a.txt"]),
        ("CONFIG.P?", ["src/config.py"]),
    ],
)
async def test_file_search_globs(files: ToolContext, pattern: str, expected: list[str]) -> None:
    assert await _find(files, pattern, fuzzy=False) == expected


async def test_file_search_plain_text_is_a_substring(files: ToolContext) -> None:
    assert await _find(files, "Config_", fuzzy=False) == ["src/config_loader.py"]
    assert await _find(files, "_CONFIG", fuzzy=False) == ["tests/test_config.py"]
    assert await _find(files, "utils/", fuzzy=False) == ["src/utils/a.txt", "src/utils/strings.py"]
    assert await _find(files, "utils", fuzzy=False, searchPath=False) == [
        "no files match 'utils'; try fuzzy=true or a shorter pattern"
    ]


async def test_file_search_glob_characters_win_over_fuzzy(files: ToolContext) -> None:
    assert await _find(files, "*.md") == ["docs/configuration.md"]


async def test_file_search_empty_pattern_is_an_error(files: ToolContext) -> None:
    with pytest.raises(ToolError, match="pattern is empty"):
        await _find(files, "  ")


async def test_temp_files_of_a_killed_write_are_never_shown(code: ToolContext) -> None:
    _put(code, "src/.app.py.0123abcd.tmp", "return Needle()  # half-written\n")
    _put(code, "src/.keep.tmp", "needle in a real dotfile\n")
    hits = _paths(await _grep(code, "needle", caseSensitive=False))
    assert "src/app.py" in hits[0] or any("src/app.py" in hit for hit in hits)
    assert not any("0123abcd" in hit for hit in hits)
    assert any(".keep.tmp" in hit for hit in hits)  # only write_atomic's own pattern is hidden
    assert not any("0123abcd" in line for line in await _find(code, "app"))


def _match_event(path: str, number: int, text: str) -> bytes:
    data = {"path": {"text": path}, "lines": {"text": text + "\n"}, "line_number": number, "submatches": []}
    return json.dumps({"type": "match", "data": data}, separators=(",", ":")).encode() + b"\n"


def test_an_event_longer_than_the_cap_is_skipped_and_the_others_are_read():
    long_line = _match_event("./min.js", 1, "x" * 5000)
    found = _Found()
    events = _Events(found, 10, longest=1000)

    begin = b'{"type":"begin","data":{}}\n'
    assert events.feed(begin + _match_event("./a.py", 3, "alpha") + long_line[:1500])
    assert events.feed(long_line[1500:4000])  # the long event arrives in pieces, each ending mid-line
    assert events.feed(long_line[4000:] + _match_event("./b.py", 7, "beta") + long_line)  # and once whole

    assert found.files == {"a.py": [(3, "alpha")], "b.py": [(7, "beta")]}


def test_reading_stops_at_the_limit_and_says_there_is_more():
    found = _Found()

    assert not _Events(found, 3).feed(b"".join(_match_event(f"./f{n}.py", 1, "hit") for n in range(5)))

    assert found.count == 3 and found.more
