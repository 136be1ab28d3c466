"""generate_tests on real temporary projects: scripted model replies, real pytest runs, real journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from asi_agent.backends.scripted import ScriptedBackend
from asi_agent.exceptions import ToolError
from asi_agent.toolrun import BackendModel
from asi_agent.tools.args import GenerateTestsArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.quality.gentests import conventional_test_path, generate_tests

CALC = '''"""Small arithmetic helpers."""


def add(a, b):
    return a + b


def div(a, b):
    if b == 0:
        raise ZeroDivisionError("b must not be zero")
    return a / b
'''
GOOD_TESTS = """import pytest

from calc import add, div


def test_add():
    assert add(2, 3) == 5


def test_div_by_zero():
    with pytest.raises(ZeroDivisionError):
        div(1, 0)
"""
BROKEN_TESTS = "from calc import multiply\n\n\ndef test_multiply():\n    assert multiply(2, 3) == 6\n"


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "calc.py").write_text(CALC, encoding="utf-8")
    (root / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "-q"\n', encoding="utf-8")
    return root


def _ctx(root: Path, *replies: str) -> tuple[ToolContext, ScriptedBackend]:
    backend = ScriptedBackend(list(replies))
    ctx = ToolContext(root=root, journal=Journal(root / ".asi"), session_id="t", model=BackendModel(backend))
    return ctx, backend


def _fenced(code: str, lang: str = "python") -> str:
    return f"Here are the tests.\n```{lang}\n{code}```\n"


async def test_writes_a_passing_test_file_next_to_the_source(tmp_path: Path) -> None:
    root = _project(tmp_path)
    ctx, backend = _ctx(root, _fenced(GOOD_TESTS))
    out = await generate_tests(GenerateTestsArgs(path="calc.py"), ctx)
    assert (root / "test_calc.py").read_text(encoding="utf-8") == GOOD_TESTS
    assert out.startswith("Wrote test_calc.py with pytest tests for calc.py; all pass.")
    assert "2 passed, 0 failed" in out
    prompt = backend.requests[0][0][-1].content
    assert "def div(a, b):" in prompt and "`calc`" in prompt and "one fenced code block" in prompt
    assert [(e.path, e.tool, e.kind) for e in ctx.journal.entries()] == [
        ("test_calc.py", "generate_tests", "created")
    ]


async def test_never_overwrites_an_existing_test_file(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "tests").mkdir()
    (root / "tests" / "test_calc.py").write_text("def test_old():\n    pass\n", encoding="utf-8")
    ctx, _ = _ctx(root, _fenced(GOOD_TESTS, lang=""))
    out = await generate_tests(GenerateTestsArgs(path="calc.py", testTypes=["unit"]), ctx)
    assert (root / "tests" / "test_calc.py").read_text(encoding="utf-8") == "def test_old():\n    pass\n"
    assert (root / "tests" / "test_calc_generated.py").read_text(encoding="utf-8") == GOOD_TESTS
    assert "Wrote tests/test_calc_generated.py" in out and "2 passed" in out


async def test_a_file_that_does_not_import_is_repaired_by_the_second_reply(tmp_path: Path) -> None:
    root = _project(tmp_path)
    ctx, backend = _ctx(root, _fenced(BROKEN_TESTS), _fenced(GOOD_TESTS))
    out = await generate_tests(GenerateTestsArgs(path="calc.py"), ctx)
    assert "repaired once" in out and "2 passed, 0 failed" in out
    assert (root / "test_calc.py").read_text(encoding="utf-8") == GOOD_TESTS
    repair_prompt = backend.requests[1][0][-1].content
    assert "multiply" in repair_prompt and "ImportError" in repair_prompt
    assert [e.kind for e in ctx.journal.entries()] == ["modified", "created"]


async def test_a_file_still_broken_after_the_repair_is_reported_and_kept(tmp_path: Path) -> None:
    root = _project(tmp_path)
    ctx, backend = _ctx(root, _fenced(BROKEN_TESTS), _fenced("from calc import add, multiply\n"))
    with pytest.raises(ToolError) as raised:
        await generate_tests(GenerateTestsArgs(path="calc.py"), ctx)
    message = str(raised.value)
    assert "test_calc.py is BROKEN" in message and "ImportError" in message
    assert "asi-agent undo 2" in message
    assert (root / "test_calc.py").read_text(encoding="utf-8") == "from calc import add, multiply\n"
    assert backend.remaining == 0
    ctx.journal.undo(root, 2)
    assert not (root / "test_calc.py").exists()


async def test_a_repair_that_would_not_parse_is_refused_and_the_loading_version_kept(tmp_path: Path) -> None:
    root = _project(tmp_path)
    ctx, backend = _ctx(root, _fenced(BROKEN_TESTS), _fenced("def test_x(:\n    pass\n"))
    with pytest.raises(ToolError) as raised:
        await generate_tests(GenerateTestsArgs(path="calc.py"), ctx)
    message = str(raised.value)
    assert "test_calc.py is BROKEN" in message and "ImportError" in message
    assert "The model's repair was not applied: it would not parse, line 1: invalid syntax." in message
    assert "asi-agent undo 1` (its creation)" in message
    assert (root / "test_calc.py").read_text(encoding="utf-8") == BROKEN_TESTS
    assert backend.remaining == 0 and ctx.guarded_edits == 1
    assert [e.kind for e in ctx.journal.entries()] == ["created"]


async def test_a_first_version_that_would_not_parse_is_repaired_before_it_is_written(tmp_path: Path) -> None:
    root = _project(tmp_path)
    ctx, backend = _ctx(root, _fenced("def test_add(:\n    pass\n"), _fenced(GOOD_TESTS))
    out = await generate_tests(GenerateTestsArgs(path="calc.py"), ctx)
    assert "repaired once" in out and "2 passed, 0 failed" in out
    assert "syntax error at line 1: invalid syntax" in backend.requests[1][0][-1].content
    assert [e.kind for e in ctx.journal.entries()] == ["created"]
    assert ctx.guarded_edits == 0  # the tool asked for the repair itself: nothing was refused


async def test_a_test_file_that_never_parses_is_never_written(tmp_path: Path) -> None:
    root = _project(tmp_path)
    ctx, _ = _ctx(root, _fenced("def test_add(:\n    pass\n"), _fenced("def test_add()\n    pass\n"))
    with pytest.raises(ToolError) as raised:
        await generate_tests(GenerateTestsArgs(path="calc.py"), ctx)
    assert str(raised.value).startswith(
        "edit refused: test_calc.py would not parse (line 1: expected ':'); nothing was written. "
        "generate_tests asked the model once to repair it, without success"
    )
    assert not (root / "test_calc.py").exists() and ctx.journal.entries() == []
    assert ctx.guarded_edits == 1


async def test_a_reply_without_code_writes_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path)
    ctx, _ = _ctx(root, "   \n")
    with pytest.raises(ToolError, match="without any test code"):
        await generate_tests(GenerateTestsArgs(path="calc.py"), ctx)
    assert not (root / "test_calc.py").exists()


async def test_needs_a_model_and_a_known_framework(tmp_path: Path) -> None:
    root = _project(tmp_path)
    bare = ToolContext(root=root, journal=Journal(root / ".asi"))
    with pytest.raises(ToolError, match="needs a model"):
        await generate_tests(GenerateTestsArgs(path="calc.py"), bare)
    ctx, _ = _ctx(root, _fenced(GOOD_TESTS))
    with pytest.raises(ToolError, match="'nose' is not supported"):
        await generate_tests(GenerateTestsArgs(path="calc.py", testFramework="nose"), ctx)


def test_conventional_places_per_framework(tmp_path: Path) -> None:
    (tmp_path / "web" / "__tests__").mkdir(parents=True)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "math.test.js").write_text("", encoding="utf-8")
    assert conventional_test_path(tmp_path, tmp_path / "web" / "app.ts", "jest") == (
        tmp_path / "web" / "__tests__" / "app.test.ts"
    )
    assert conventional_test_path(tmp_path, tmp_path / "lib" / "math.js", "node") == (
        tmp_path / "lib" / "math_generated.test.js"
    )
    assert (
        conventional_test_path(tmp_path, tmp_path / "pkg" / "calc.go", "go")
        == tmp_path / "pkg" / "calc_test.go"
    )
    assert conventional_test_path(tmp_path, tmp_path / "m.py", "pytest") == tmp_path / "test_m.py"
