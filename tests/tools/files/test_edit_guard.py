"""The edit guard through the edit tools and create_file, on real files: a change that would leave a file
which parsed unparsable is refused with the parser's message, and the file is left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import (
    CreateFileArgs,
    DeleteLinesArgs,
    InsertLineArgs,
    ReplaceLinesArgs,
    ReplaceTextArgs,
)
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.edit import delete_lines, insert_line, replace_lines, replace_text
from asi_agent.tools.files.guard import EditGuarded
from asi_agent.tools.files.ops import create_file

GREET = "def greet(name):\n    message = f'hello {name}'\n    return message\n"


def _put(ctx: ToolContext, rel: str, text: str) -> Path:
    path = ctx.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _assert_untouched(ctx: ToolContext, path: Path, text: str, *, refused: int = 1) -> None:
    assert path.read_text(encoding="utf-8") == text
    assert ctx.journal.entries() == []
    assert ctx.guarded_edits == refused


async def test_python_edit_that_would_not_parse_is_refused_with_the_parsers_message(ctx: ToolContext):
    path = _put(ctx, "greet.py", GREET)
    args = ReplaceTextArgs(path="greet.py", oldText="def greet(name):", newText="def greet(name)")
    with pytest.raises(EditGuarded) as raised:
        await replace_text(args, ctx)
    assert str(raised.value).splitlines() == [
        "edit refused: after this change greet.py would not parse (line 1: expected ':'); greet.py is "
        "unchanged. Fix the edit and call replace_text again.",
        "The text it would have had, around line 1:",
        "> 1| def greet(name)",
        "  2|     message = f'hello {name}'",
        "  3|     return message",
    ]
    assert raised.value.problem.line == 1
    _assert_untouched(ctx, path, GREET)


async def test_the_lines_shown_are_those_around_the_error(ctx: ToolContext) -> None:
    text = "".join(f"value_{n} = {n}\n" for n in range(1, 11))
    path = _put(ctx, "numbers.py", text)
    args = ReplaceLinesArgs(path="numbers.py", startLine=6, endLine=6, newText="value_6 = (6")
    with pytest.raises(ToolError) as raised:
        await replace_lines(args, ctx)
    message = str(raised.value)
    assert "(line 6: '(' was never closed)" in message
    assert message.splitlines()[-6:] == [
        "  3| value_3 = 3",
        "  4| value_4 = 4",
        "  5| value_5 = 5",
        "> 6| value_6 = (6",
        "  7| value_7 = 7",
        "  8| value_8 = 8",
    ]
    _assert_untouched(ctx, path, text)


async def test_json(ctx: ToolContext) -> None:
    text = '{\n  "name": "demo",\n  "version": "1.0.0"\n}\n'
    path = _put(ctx, "package.json", text)
    args = ReplaceLinesArgs(path="package.json", startLine=2, endLine=2, newText='  "name": "demo"')
    expected = r"package\.json would not parse \(line 3, column 3: Expecting ',' delimiter\)"
    with pytest.raises(ToolError, match=expected):
        await replace_lines(args, ctx)
    _assert_untouched(ctx, path, text)


async def test_toml(ctx: ToolContext) -> None:
    text = '[project]\nname = "demo"\n'
    path = _put(ctx, "pyproject.toml", text)
    expected = r"pyproject\.toml would not parse \(line 3: Expected '\]' at the end of a table declaration\)"
    with pytest.raises(ToolError, match=expected):
        await insert_line(InsertLineArgs(path="pyproject.toml", line=3, text="[tool"), ctx)
    _assert_untouched(ctx, path, text)


async def test_yaml(ctx: ToolContext) -> None:
    text = "jobs:\n  test:\n    runs-on: ubuntu-latest\n"
    path = _put(ctx, "ci.yml", text)
    args = ReplaceTextArgs(path="ci.yml", oldText="ubuntu-latest", newText="ubuntu: latest")
    expected = r"ci\.yml would not parse \(line 3, column 20: mapping values are not allowed here\)"
    with pytest.raises(ToolError, match=expected):
        await replace_text(args, ctx)
    _assert_untouched(ctx, path, text)


async def test_javascript_through_tree_sitter(ctx: ToolContext) -> None:
    text = "function twice(x) {\n  return x + x;\n}\n\nmodule.exports = { twice };\n"
    path = _put(ctx, "twice.js", text)
    expected = r"after this change twice\.js would not parse \(line \d+, column \d+: "
    with pytest.raises(ToolError, match=expected):
        await delete_lines(DeleteLinesArgs(path="twice.js", startLine=3, endLine=3), ctx)
    _assert_untouched(ctx, path, text)


async def test_a_file_that_did_not_parse_before_is_not_held_to_it(ctx: ToolContext) -> None:
    broken = "def greet(name)\n    return name\n\nVALUE = 1\n"
    path = _put(ctx, "broken.py", broken)
    await replace_text(ReplaceTextArgs(path="broken.py", oldText="VALUE = 1", newText="VALUE = 2"), ctx)
    assert path.read_text(encoding="utf-8") == broken.replace("VALUE = 1", "VALUE = 2")
    assert ctx.guarded_edits == 0
    # Fixing it is of course allowed too, and from then on it is held to parsing.
    await replace_text(ReplaceTextArgs(path="broken.py", oldText="greet(name)", newText="greet(name):"), ctx)
    with pytest.raises(EditGuarded):
        await replace_text(ReplaceTextArgs(path="broken.py", oldText="(name):", newText="(name"), ctx)
    assert ctx.guarded_edits == 1


async def test_a_new_file_must_parse(ctx: ToolContext) -> None:
    with pytest.raises(EditGuarded) as raised:
        await create_file(CreateFileArgs(path="pkg/new.py", content="def f(:\n    pass\n"), ctx)
    assert str(raised.value).startswith(
        "edit refused: pkg/new.py would not parse (line 1: invalid syntax); nothing was written. "
        "Fix the content and call create_file again.\n"
        "The text it would have had, around line 1:\n> 1| def f(:"
    )
    assert not (ctx.root / "pkg").exists() and ctx.journal.entries() == [] and ctx.guarded_edits == 1
    out = await create_file(CreateFileArgs(path="pkg/new.py", content="def f():\n    pass\n"), ctx)
    assert out.startswith("Created pkg/new.py")


async def test_an_overwrite_that_would_not_parse_is_refused(ctx: ToolContext) -> None:
    text = '{"a": 1}\n'
    path = _put(ctx, "data.json", text)
    expected = r"after this overwrite data\.json would not parse .*; data\.json is unchanged"
    with pytest.raises(EditGuarded, match=expected):
        await create_file(CreateFileArgs(path="data.json", content='{"a": 1,}\n', overwrite=True), ctx)
    _assert_untouched(ctx, path, text)


async def test_a_change_that_leaves_the_file_as_it_is_is_an_error(ctx: ToolContext) -> None:
    path = _put(ctx, "notes.txt", "one\ntwo\n")
    with pytest.raises(ToolError) as raised:
        await replace_text(ReplaceTextArgs(path="notes.txt", oldText="two", newText="two"), ctx)
    assert str(raised.value).startswith(
        "nothing changed: notes.txt already has this text, so nothing was written. If the file still needs "
        "a change, call read_file to see its current text and call replace_text with text that differs"
    )
    with pytest.raises(ToolError, match=r"nothing changed: notes\.txt already has this text"):
        await replace_lines(ReplaceLinesArgs(path="notes.txt", startLine=1, endLine=1, newText="one"), ctx)
    with pytest.raises(ToolError, match=r"nothing changed: notes\.txt .* call create_file with text"):
        await create_file(CreateFileArgs(path="notes.txt", content="one\ntwo\n", overwrite=True), ctx)
    _assert_untouched(ctx, path, "one\ntwo\n", refused=0)


async def test_switched_off_the_guard_lets_the_edit_through(ctx: ToolContext) -> None:
    ctx.edit_guard = False
    path = _put(ctx, "greet.py", GREET)
    args = ReplaceTextArgs(path="greet.py", oldText="def greet(name):", newText="def greet(name)")
    await replace_text(args, ctx)
    assert path.read_text(encoding="utf-8").startswith("def greet(name)\n")
    await create_file(CreateFileArgs(path="bad.json", content="{"), ctx)
    assert (ctx.root / "bad.json").read_text(encoding="utf-8") == "{"
    assert ctx.guarded_edits == 0
    # Switching the guard off does not make a change that changes nothing count as one.
    with pytest.raises(ToolError, match="nothing changed"):
        await create_file(CreateFileArgs(path="bad.json", content="{", overwrite=True), ctx)
