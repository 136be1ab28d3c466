"""generate_tests: the model writes a test file for one source file; the tool puts it where the framework
looks, checks that it loads (asking the model once to repair it if not), runs it and reports.

The file is written through `commit_change`, so it is journaled and `asi-agent undo` removes it. A file
that still does not load after the repair is kept for inspection and reported as broken, never silently;
with the edit guard on, a version that would not parse is never written (the guard's refusal is reported).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import GenerateTestsArgs
from asi_agent.tools.base import ModelAccess, ToolContext
from asi_agent.tools.code.index.symbols import language_of
from asi_agent.tools.exec.environment import detect_environment
from asi_agent.tools.exec.frameworks import FRAMEWORKS, detect_framework
from asi_agent.tools.exec.terminal import run_command
from asi_agent.tools.exec.testing import render, run_test_suite
from asi_agent.tools.files.guard import EditGuarded, guard_change
from asi_agent.tools.files.ops import commit_change, read_existing
from asi_agent.tools.files.syntax import checked_language, parse_problem, syntax_error
from asi_agent.tools.paths import display_path
from asi_agent.tools.quality.modelio import extract_code_block, require_model

__all__ = ["conventional_test_path", "generate_tests"]

_SOURCE_CHARS = 12_000
"""Most source characters put in the prompt: small local models have small contexts."""
_CHECK_TIMEOUT = 60.0
_ERROR_LINES = 25
_RETRY = (
    "generate_tests asked the model once to repair it, without success: call generate_tests again, or "
    "write the tests with create_file."
)
_SYSTEM = "You write correct, runnable test files. You reply with exactly one fenced code block."
_CONVENTIONS = {
    "pytest": "pytest: plain `def test_...():` functions with bare `assert`; `pytest.raises(...)` for "
    "expected exceptions; `@pytest.mark.parametrize` for tables of cases.",
    "unittest": "unittest: a `unittest.TestCase` subclass with `test_...` methods; `self.assertEqual`, "
    "`self.assertRaises` for expected exceptions.",
    "jest": "jest: `describe` / `test` / `expect` (globals, no import needed).",
    "vitest": "vitest: `import { describe, it, expect } from 'vitest'`.",
    "mocha": "mocha: `describe` / `it` with `assert` from `node:assert/strict`.",
    "node": "node's built-in runner: `test` from `node:test` and `assert` from `node:assert/strict` "
    "(use `require` if the source uses `module.exports`, `import` if it uses `export`).",
    "go": 'go test: package {package}, `import "testing"`, `func TestXxx(t *testing.T)`, table-driven cases.',
    "cargo": "cargo test: `#[test]` functions using `assert_eq!`; `#[should_panic]` for panics.",
}
_TEST_TYPES = {
    "unit": "unit: the normal behaviour of each public function, class and method",
    "edge": "edge: boundary values (empty, zero, negative, very large, None/null where allowed)",
    "error": "error: invalid input raises/returns the error the code really produces",
    "integration": "integration: the public functions used together as a caller would",
}


async def generate_tests(args: GenerateTestsArgs, ctx: ToolContext) -> str:
    """Write tests for `path` with the model, check they load (one repair), run them, report."""
    model = require_model(ctx, "generate_tests")
    source_path = ctx.resolve(args.path, write=False)
    source = read_existing(ctx, source_path)
    rel = display_path(ctx.root, source_path)
    framework = _framework(ctx.root, rel, args.testFramework)
    target = conventional_test_path(ctx.root, source_path, framework)
    shown = display_path(ctx.root, target)
    prompt = _prompt(
        ctx.root, source_path, source.text, framework=framework, target=target, types=args.testTypes
    )
    code = await _ask_code(model, prompt, language_of(rel))
    if code is None:
        raise ToolError(
            "the model replied without any test code, so nothing was written; "
            "call generate_tests again or write the tests with create_file"
        )
    error = await _first_write(ctx, target, framework, code)
    written = target.exists()  # the first version is not written when it would not parse
    repaired = False
    if error is not None:
        fixed = await _ask_code(model, _repair_prompt(shown, code, error), language_of(rel))
        repaired, error = await _repair(ctx, target, framework, code=code, fixed=fixed, error=error)
    if error is not None:
        changes = "2` (its repair, then its creation)" if repaired and written else "1` (its creation)"
        raise ToolError(
            f"the generated test file {shown} is BROKEN: it does not load, even after asking the model "
            f"once to repair it.\n{error}\nThe file was kept so that it can be inspected: fix it with the "
            f"edit tools, or remove it with `asi-agent undo {changes}."
        )
    report = await run_test_suite(ctx, test_file=shown)
    how = " (repaired once: the first version did not load)" if repaired else ""
    verdict = "all pass" if report.ok else "some fail or did not run: read them before trusting them"
    return f"Wrote {shown}{how} with {framework} tests for {rel}; {verdict}.\n{render(report)}"


def _framework(root: Path, rel: str, wanted: str | None) -> str:
    """The framework asked for (checked), else the project's, else the usual one for the file's language."""
    if wanted and wanted.strip():
        name = wanted.strip().lower()
        if name not in FRAMEWORKS:
            raise ToolError(f"testFramework {wanted!r} is not supported; use one of {', '.join(FRAMEWORKS)}")
        return name
    found = detect_framework(root, rel)
    if found is None:
        raise ToolError(
            f"cannot tell which test framework fits {rel}; give testFramework (e.g. pytest, jest, go)"
        )
    return found


def conventional_test_path(root: Path, source: Path, framework: str) -> Path:
    """Where the framework expects the tests of `source`; never an existing file (`_generated` is added)."""
    stem, suffix = source.stem, source.suffix
    if framework in ("pytest", "unittest"):
        folder = root / "tests" if (root / "tests").is_dir() else source.parent
        names = [f"test_{stem}{mark}.py" for mark in ("", "_generated")]
    elif framework == "go":
        folder, names = source.parent, [f"{stem}{mark}_test.go" for mark in ("", "_generated")]
    elif framework == "cargo":
        folder, names = root / "tests", [f"{stem}{mark}.rs" for mark in ("_test", "_generated_test")]
    else:
        beside = source.parent / "__tests__"
        folder = beside if framework in ("jest", "vitest") and beside.is_dir() else source.parent
        names = [f"{stem}{mark}.test{suffix or '.js'}" for mark in ("", "_generated")]
    for name in names:
        if not (folder / name).exists():
            return folder / name
    base, _, rest = names[-1].partition(".")
    number = 2
    while (folder / f"{base}{number}.{rest}").exists():
        number += 1
    return folder / f"{base}{number}.{rest}"


def _prompt(root: Path, source: Path, text: str, *, framework: str, target: Path, types: list[str]) -> str:
    """The request for a whole test file: the source, how to import it, conventions, kinds of tests."""
    rel = display_path(root, source)
    if len(text) > _SOURCE_CHARS:
        text = text[:_SOURCE_CHARS] + "\n... (the rest of the file is not shown)"
    kinds = "\n".join(f"- {_TEST_TYPES.get(kind.strip().lower(), kind)}" for kind in types or ["unit"])
    conventions = _CONVENTIONS.get(framework, framework).replace("{package}", _go_package(text))
    return (
        f"Write a {framework} test file for the source file {rel}.\n\n"
        f"Source of {rel}:\n```\n{text}```\n\n"
        f"The test file will be saved as {display_path(root, target)}. {_import_hint(root, source, target)}\n"
        f"Conventions: {conventions}\n"
        f"Tests to write:\n{kinds}\n\n"
        "Rules: test only what this source really defines and does; expected values must follow from "
        "the code shown; no network, no sleeping, no files outside a temporary folder.\n"
        "Reply with one fenced code block containing the whole test file, and nothing else."
    )


def _import_hint(root: Path, source: Path, target: Path) -> str:
    """How the test file reaches the code under test."""
    if source.suffix == ".py":
        module = _python_module(root, source)
        return f"Import the code under test as the module `{module}` (the project root is on sys.path)."
    if source.suffix == ".go":
        return "It is in the same package as the source."
    relative = os.path.relpath(source, target.parent).replace(os.sep, "/")
    relative = relative if relative.startswith(".") else f"./{relative}"
    return f"Import the code under test from {relative!r}."


def _python_module(root: Path, source: Path) -> str:
    """The dotted import path of a Python file run from the project root (a `src/` layout dropped)."""
    parts = list(source.relative_to(root.resolve()).with_suffix("").parts)
    if len(parts) > 1 and parts[0] == "src" and not (root / "src" / "__init__.py").exists():
        parts = parts[1:]
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def _go_package(text: str) -> str:
    """The package clause of a Go source, or "main"."""
    for line in text.splitlines():
        if line.startswith("package "):
            return line.split()[1]
    return "main"


def _repair_prompt(shown: str, code: str, error: str) -> str:
    """The one repair request: the file and why it does not load."""
    return (
        f"The test file {shown} you wrote does not load:\n```\n{error}\n```\n\n"
        f"The file:\n```\n{code}```\n\n"
        "Fix it (wrong imports or names, syntax). Reply with one fenced code block containing the whole "
        "corrected test file, and nothing else."
    )


async def _ask_code(model: ModelAccess, prompt: str, language: str) -> str | None:
    """The model's code block for `prompt`, None when its reply holds no code."""
    return extract_code_block(await model.ask(prompt, system=_SYSTEM), language)


async def _first_write(ctx: ToolContext, target: Path, framework: str, code: str) -> str | None:
    """Write the model's first version and say why it does not load (None: it does). With the edit
    guard on, a version that would not parse is not written: its syntax error goes to the repair."""
    problem = parse_problem(code, checked_language(str(target))) if ctx.edit_guard else None
    if problem is not None:
        return f"syntax error at {problem}"
    commit_change(ctx, target, None, code.encode("utf-8"), tool="generate_tests")
    return await _load_error(ctx, target, framework)


async def _repair(
    ctx: ToolContext, target: Path, framework: str, *, code: str, fixed: str | None, error: str
) -> tuple[bool, str | None]:
    """Write the model's repair (when it has one and the edit guard lets it): (repair written, why the
    file still does not load). A file that was never written because it would not parse stays unwritten:
    the guard's refusal is raised."""
    before = code if target.exists() else None
    if fixed is None:
        if before is None:
            guard_change(ctx, target, None, code, tool="generate_tests", retry=_RETRY)
        return False, error
    try:
        guard_change(ctx, target, before, fixed, tool="generate_tests", change="the repair", retry=_RETRY)
    except EditGuarded as refused:
        if before is None:
            raise
        return False, f"{error}\n(The model's repair was not applied: it would not parse, {refused.problem}.)"
    old = None if before is None else before.encode("utf-8")
    commit_change(ctx, target, old, fixed.encode("utf-8"), tool="generate_tests")
    return True, await _load_error(ctx, target, framework)


async def _load_error(ctx: ToolContext, target: Path, framework: str) -> str | None:
    """Why the test file does not even load (syntax, imports, collection), or None when it does."""
    text = target.read_text(encoding="utf-8", errors="replace")
    error = syntax_error(text, language_of(target.name))
    if error is not None or framework not in ("pytest", "unittest"):
        return None if error is None else f"syntax error at {error}"
    rel = display_path(ctx.root, target)
    if framework == "pytest":
        argv = [_python(ctx.root), "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", rel]
    else:
        argv = [
            _python(ctx.root),
            "-c",
            "import runpy, sys; runpy.run_path(sys.argv[1], run_name='check')",
            rel,
        ]
    with tempfile.TemporaryDirectory(prefix="asi-gentests-") as work:
        log = Path(work) / "collect.log"
        result = await run_command(argv, cwd=ctx.root, timeout=_CHECK_TIMEOUT, log=log, sandbox=ctx.sandbox)
        output = log.read_text(encoding="utf-8", errors="replace")
    # pytest exits 5 when the file loads but holds no tests: loading is all this checks.
    if result.exit_code in (0, 5) and not result.timed_out:
        return None
    lines = [line for line in output.strip().splitlines() if line.strip()]
    return "\n".join(lines[-_ERROR_LINES:]) or f"exit code {result.exit_code}"


def _python(root: Path) -> str:
    """The interpreter the tests run with: the project's environment, as run_tests finds it."""
    return detect_environment(root).python
