"""refactor on real temporary projects: rope renames across files, scripted model rewrites, real lint."""

from __future__ import annotations

from pathlib import Path

import pytest

from asi_agent.backends.scripted import ScriptedBackend
from asi_agent.exceptions import ToolError
from asi_agent.toolrun import BackendModel
from asi_agent.tools.args import RefactorArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.quality.refactor import refactor
from asi_agent.tools.quality.refactor_rope import parse_rename

SHAPES = '''"""Shapes."""


def area(width, height):
    result = 0
    for _ in range(height):
        result = result + width
    return result


class Box:
    def volume(self, w, h, d):
        return area(w, h) * d
'''
REPORT = "from shapes import area\n\n\ndef show(w, h):\n    return f'{area(w, h)} m2'\n"
MAIN = "import shapes\n\nprint(shapes.area(2, 3))\n"
FILES = {"shapes.py": SHAPES, "report.py": REPORT, "main.py": MAIN}


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    for name, text in FILES.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def _ctx(root: Path, *replies: str) -> ToolContext:
    model = BackendModel(ScriptedBackend(list(replies)))
    return ToolContext(root=root, journal=Journal(root / ".asi"), session_id="t", model=model)


def _contents(root: Path) -> dict[str, str]:
    return {name: (root / name).read_text(encoding="utf-8") for name in FILES}


def test_rename_convention() -> None:
    assert parse_rename("area->surface") == ("area", "surface")
    assert parse_rename(" Box.volume => capacity ") == ("Box.volume", "capacity")
    assert parse_rename("area → surface") == ("area", "surface")
    assert parse_rename("area") is None
    assert parse_rename(None) is None


async def test_rename_across_three_files_is_journaled_and_undone(tmp_path: Path) -> None:
    root = _project(tmp_path)
    ctx = _ctx(root)
    out = await refactor(RefactorArgs(path="shapes.py", symbol="area->surface"), ctx)
    after = _contents(root)
    assert "def surface(width, height):" in after["shapes.py"]
    assert "return surface(w, h) * d" in after["shapes.py"]
    assert after["report.py"] == REPORT.replace("area", "surface")
    assert after["main.py"] == MAIN.replace("area", "surface")
    assert out.startswith("Renamed area to surface in 3 file(s)")
    assert "report.py:5" in out and "main.py:3" in out  # the impact, from the code index
    assert sorted((e.path, e.tool) for e in ctx.journal.entries()) == [
        ("main.py", "refactor"),
        ("report.py", "refactor"),
        ("shapes.py", "refactor"),
    ]
    assert not (root / ".ropeproject").exists()
    ctx.journal.undo(root, 3)
    assert _contents(root) == FILES


async def test_rename_preview_writes_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path)
    ctx = _ctx(root)
    out = await refactor(RefactorArgs(path="report.py", symbol="area->surface", preview=True), ctx)
    assert out.startswith("Preview (nothing written): renaming area to surface would change 3 file(s)")
    assert "+print(shapes.surface(2, 3))" in out
    assert _contents(root) == FILES and ctx.journal.entries() == []


async def test_model_rewrite_of_a_method_is_reindented_and_applied(tmp_path: Path) -> None:
    root = _project(tmp_path)
    # A small model often drops the method's indentation: the tool puts it back.
    reply = "```python\ndef volume(self, w, h, d):\n    return d * area(w, h)\n```"
    ctx = _ctx(root, reply)
    out = await refactor(RefactorArgs(path="shapes.py", symbol="volume", refactorType="readability"), ctx)
    assert _contents(root)["shapes.py"].endswith(
        "    def volume(self, w, h, d):\n        return d * area(w, h)\n"
    )
    assert out.startswith("Refactored lines 12–13 of shapes.py (readability): it parses and adds no lint")
    assert "Impact: 0 reference(s) to volume" in out
    assert [e.tool for e in ctx.journal.entries()] == ["refactor"]


async def test_output_that_would_not_parse_is_refused(tmp_path: Path) -> None:
    root = _project(tmp_path)
    ctx = _ctx(root, "```python\ndef area(width, height:\n    return width * height\n```")
    with pytest.raises(
        ToolError,
        match=r"rewrite shapes.py would not parse \(line 4: '\(' was never closed\); shapes.py is unchanged",
    ):
        await refactor(RefactorArgs(path="shapes.py", symbol="area", refactorType="performance"), ctx)
    assert _contents(root) == FILES and ctx.journal.entries() == [] and ctx.guarded_edits == 1
    # A refactoring promises code that parses: this check holds even with the edit guard switched off.
    ctx = _ctx(root, "```python\ndef area(width, height:\n    return width * height\n```")
    ctx.edit_guard = False
    with pytest.raises(ToolError, match="would not parse"):
        await refactor(RefactorArgs(path="shapes.py", symbol="area"), ctx)
    assert _contents(root) == FILES


async def test_output_that_adds_lint_problems_is_refused(tmp_path: Path) -> None:
    root = _project(tmp_path)
    reply = "```\ndef area(width, height):\n    import os\n    return width * height\n```"
    ctx = _ctx(root, reply)
    with pytest.raises(ToolError, match="adds lint problems") as raised:
        await refactor(RefactorArgs(path="shapes.py", startLine=4, endLine=8), ctx)
    assert "F401" in str(raised.value)
    assert _contents(root) == FILES


async def test_preview_returns_the_diff_and_the_impact_and_writes_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path)
    ctx = _ctx(root, "```python\ndef area(width, height):\n    return width * height\n```")
    args = RefactorArgs(path="shapes.py", startLine=4, endLine=8, refactorType="performance", preview=True)
    out = await refactor(args, ctx)
    lines = out.splitlines()
    assert lines[0] == "Preview (nothing written): performance refactoring of lines 4–8 of shapes.py."
    assert "+    return width * height" in lines and "-    for _ in range(height):" in lines
    assert "Impact: 4 reference(s) to area outside the changed lines:" in lines
    assert {"  shapes.py:13", "  report.py:1", "  report.py:5", "  main.py:3"} <= set(lines)
    assert _contents(root) == FILES and ctx.journal.entries() == []


async def test_the_prompt_carries_the_goal_the_code_and_its_callers(tmp_path: Path) -> None:
    root = _project(tmp_path)
    backend = ScriptedBackend(["```python\ndef area(width, height):\n    return width * height\n```"])
    ctx = ToolContext(root=root, journal=Journal(root / ".asi"), model=BackendModel(backend))
    await refactor(RefactorArgs(path="shapes.py", symbol="area", refactorType="performance"), ctx)
    prompt = backend.requests[0][0][-1].content
    assert "Refactor lines 4-8 of shapes.py. Goal: Make it faster" in prompt
    assert "result = result + width" in prompt
    assert "report.py:5: return f'{area(w, h)} m2'" in prompt
    assert "def area(width, height):\n    return width * height\n" in (root / "shapes.py").read_text()


async def test_javascript_output_is_checked_with_tree_sitter(tmp_path: Path) -> None:
    root = tmp_path / "web"
    root.mkdir()
    (root / "a.js").write_text("function twice(x) {\n  return x + x;\n}\n", encoding="utf-8")
    ctx = _ctx(root, "```js\nfunction twice(x) {\n  return x * 2;\n```")
    with pytest.raises(ToolError, match="would not parse"):
        await refactor(RefactorArgs(path="a.js"), ctx)
    ctx = _ctx(root, "```js\nfunction twice(x) {\n  return x * 2;\n}\n```")
    out = await refactor(RefactorArgs(path="a.js"), ctx)
    assert out.startswith("Refactored a.js (general)")
    assert (root / "a.js").read_text(encoding="utf-8") == "function twice(x) {\n  return x * 2;\n}\n"


async def test_clear_errors_for_what_cannot_be_done(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "a.js").write_text("const a = 1;\n", encoding="utf-8")
    with pytest.raises(ToolError, match=r"renaming .* works on Python files"):
        await refactor(RefactorArgs(path="a.js", symbol="a->b"), _ctx(root))
    with pytest.raises(ToolError, match=r"'perimeter' is not defined in shapes.py; it defines: area, Box"):
        await refactor(RefactorArgs(path="shapes.py", symbol="perimeter"), _ctx(root))
    with pytest.raises(ToolError, match="needs a model"):
        await refactor(RefactorArgs(path="shapes.py"), ToolContext(root=root, journal=Journal(root / ".asi")))
    with pytest.raises(ToolError, match="not a valid Python name"):
        await refactor(RefactorArgs(path="shapes.py", symbol="area->class"), _ctx(root))
