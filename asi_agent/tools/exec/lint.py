"""lint_check: syntax and style problems of one file, a folder, or the whole project.

Syntax checks that need nothing installed always run (Python with `ast`, JSON, TOML, and YAML when
PyYAML is importable). Style comes from real linters: ruff for Python when it is installed, and the
project's own ESLint for JavaScript/TypeScript when the project configures and installs it. What cannot
be checked is said in a note, never an error.
"""

from __future__ import annotations

import ast
import asyncio
import importlib
import itertools
import json
import re
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools import ignore
from asi_agent.tools.args import LintCheckArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.exec.environment import detect_environment, ruff_command
from asi_agent.tools.exec.terminal import run_command, work_folder
from asi_agent.tools.paths import display_path

__all__ = ["LintProblem", "iter_project_files", "lint_check", "lint_paths"]

_WHOLE_PROJECT = ("project", ".", "*")
_MAX_FILES = 50_000
_SHOWN_PROBLEMS = 200
_PY = {".py", ".pyi"}
_JS = {".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"}
_YAML = {".yaml", ".yml"}
_ESLINT_CONFIGS = (
    *(f"eslint.config.{ext}" for ext in ("js", "mjs", "cjs", "ts", "mts", "cts")),
    *(f".eslintrc{ext}" for ext in ("", ".js", ".cjs", ".json", ".yaml", ".yml")),
)
_TOML_WHERE = re.compile(r"\(at line (\d+), column (\d+)\)")


@dataclass(frozen=True, slots=True, order=True)
class LintProblem:
    """One problem, ordered by place; prints as `path:line:col code message`."""

    path: str
    line: int
    col: int
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col} {self.code} {self.message}"


def iter_project_files(root: Path, start: Path, *, limit: int = _MAX_FILES) -> Iterator[Path]:
    """Files under `start` (a file yields itself) by the project's ignore rules; at most `limit`."""
    if start.is_file():
        yield start
        return
    yield from itertools.islice(ignore.iter_project_files(root, start=start), limit)


async def lint_check(args: LintCheckArgs, ctx: ToolContext) -> str:
    """Check a file, a folder, or the whole project (`project`, `.` or `*`)."""
    raw = args.path.strip()
    whole = raw in _WHOLE_PROJECT
    target = ctx.root if whole else ctx.resolve(raw, write=False)
    if not target.exists():
        raise ToolError(f"{raw} does not exist; give a file or folder path relative to the project root")
    files = list(iter_project_files(ctx.root, target))
    problems, notes, checked = await lint_paths(ctx, target, files)
    if not whole and target.is_file() and not checked and not notes:
        notes.append(
            f"no checker for {target.suffix or 'extensionless'} files (Python, JSON, TOML, YAML, JS/TS)"
        )
    return _render(problems, notes, checked)


async def lint_paths(
    ctx: ToolContext, target: Path, files: list[Path]
) -> tuple[list[LintProblem], list[str], int]:
    """Problems (sorted), notes about what was not checked, and how many files were checked."""
    by_kind: dict[str, list[Path]] = {"py": [], "js": [], "data": []}
    for path in files:
        suffix = path.suffix.lower()
        kind = "py" if suffix in _PY else "js" if suffix in _JS else "data" if _data_checker(suffix) else None
        if kind:
            by_kind[kind].append(path)
    problems = await asyncio.to_thread(_syntax_problems, ctx.root, by_kind["py"] + by_kind["data"])
    notes: list[str] = []
    checked = len(by_kind["py"]) + len(by_kind["data"])
    yaml_files = [p for p in by_kind["data"] if p.suffix.lower() in _YAML]
    if yaml_files and not _yaml_available():
        notes.append(f"{len(yaml_files)} YAML file(s) not checked: PyYAML is not installed")
        checked -= len(yaml_files)
    if by_kind["py"]:
        problems += await _ruff(ctx, target, notes)
    if by_kind["js"]:
        found = await _eslint(ctx, target, notes)
        if found is not None:
            problems += found
            checked += len(by_kind["js"])
    return sorted(set(problems)), notes, checked


def _render(problems: list[LintProblem], notes: list[str], checked: int) -> str:
    """`path:line:col code message` lines under a count, or the clean message; then the notes."""
    if not problems:
        lines = [f"no problems found in {checked} file{'s' if checked != 1 else ''}"]
    else:
        files = len({p.path for p in problems})
        lines = [f"{len(problems)} problem(s) in {files} file(s) ({checked} checked):"]
        lines += [str(p) for p in problems[:_SHOWN_PROBLEMS]]
        if len(problems) > _SHOWN_PROBLEMS:
            lines.append(f"… {len(problems) - _SHOWN_PROBLEMS} more; lint a single file to see them all")
    lines += [f"note: {note}" for note in notes]
    return "\n".join(lines)


def _syntax_problems(root: Path, files: list[Path]) -> list[LintProblem]:
    """Syntax errors of Python and data files (runs in a worker thread)."""
    problems: list[LintProblem] = []
    for path in files:
        suffix = path.suffix.lower()
        check = _check_python if suffix in _PY else _data_checker(suffix)
        if check is None:
            continue
        shown = display_path(root, path)
        try:
            problems += [LintProblem(shown, *found) for found in check(path.read_bytes())]
        except OSError as exc:
            problems.append(
                LintProblem(shown, 1, 1, "read-error", f"cannot read the file: {exc.strerror or exc}")
            )
    return problems


_Found = tuple[int, int, str, str]
"""(line, column, code, message) of one problem in one file."""


def _check_python(data: bytes) -> list[_Found]:
    """A Python syntax error, as the running interpreter sees it."""
    try:
        ast.parse(data)
    except SyntaxError as exc:
        return [(exc.lineno or 1, exc.offset or 1, "E999", f"{type(exc).__name__}: {exc.msg}")]
    except ValueError as exc:  # NUL bytes in the source
        return [(1, 1, "E999", f"SyntaxError: {exc}")]
    return []


def _check_json(data: bytes) -> list[_Found]:
    """A JSON syntax error."""
    try:
        json.loads(data)
    except json.JSONDecodeError as exc:
        return [(exc.lineno, exc.colno, "json", exc.msg)]
    except UnicodeDecodeError as exc:
        return [(1, 1, "json", f"not UTF-8 text: {exc.reason}")]
    return []


def _check_toml(data: bytes) -> list[_Found]:
    """A TOML syntax error."""
    try:
        tomllib.loads(data.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        where = _TOML_WHERE.search(str(exc))
        line, col = (int(where.group(1)), int(where.group(2))) if where else (1, 1)
        return [(line, col, "toml", _TOML_WHERE.sub("", str(exc)).strip())]
    except UnicodeDecodeError as exc:
        return [(1, 1, "toml", f"not UTF-8 text: {exc.reason}")]
    return []


def _check_yaml(data: bytes) -> list[_Found]:
    """A YAML syntax error (PyYAML is optional: nothing is checked without it)."""
    if not _yaml_available():
        return []
    yaml = importlib.import_module("yaml")
    try:
        for _document in yaml.safe_load_all(data):
            pass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        return [(line, col, "yaml", str(exc.problem or exc).strip())]
    except yaml.YAMLError as exc:
        return [(1, 1, "yaml", str(exc))]
    return []


def _data_checker(suffix: str) -> Callable[[bytes], list[_Found]] | None:
    """The syntax check of a data file type, if there is one."""
    if suffix in _YAML:
        return _check_yaml
    return {".json": _check_json, ".toml": _check_toml}.get(suffix)


def _yaml_available() -> bool:
    """Whether PyYAML can be imported."""
    import importlib.util  # noqa: PLC0415 - only this check needs it

    return importlib.util.find_spec("yaml") is not None


async def _ruff(ctx: ToolContext, target: Path, notes: list[str]) -> list[LintProblem]:
    """Style problems from `ruff check` with the project's own configuration; syntax is checked already."""
    env = detect_environment(ctx.root)
    exe = ruff_command(env)
    if exe is None:
        notes.append(
            f"ruff is not installed: Python files were checked for syntax only (install it with "
            f"{env.install_hint('ruff')})"
        )
        return []
    rel = display_path(ctx.root, target)
    with tempfile.TemporaryDirectory(prefix="asi-lint-", dir=work_folder(ctx.sandbox)) as work:
        out, log = Path(work) / "ruff.json", Path(work) / "ruff.log"
        argv = [exe, "check", "--output-format", "json", "--output-file", str(out), "--no-cache"]
        result = await run_command(
            [*argv, "--force-exclude", rel],
            cwd=ctx.root,
            timeout=ctx.command_timeout,
            log=log,
            sandbox=ctx.sandbox,
        )
        try:
            found = json.loads(out.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-5:]
            notes.append(f"ruff failed (exit code {result.exit_code}): " + " / ".join(tail))
            return []
    return [
        LintProblem(
            display_path(ctx.root, Path(item["filename"])),
            int(item["location"]["row"]),
            int(item["location"]["column"]),
            str(item["code"]),
            str(item["message"]),
        )
        for item in found
        if item.get("code") not in (None, "E999", "invalid-syntax")
    ]


def _eslint_configured(root: Path) -> bool:
    """An ESLint config file, or an `eslintConfig` key in package.json."""
    if any((root / name).is_file() for name in _ESLINT_CONFIGS):
        return True
    try:
        package = json.loads((root / "package.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return False
    return isinstance(package, dict) and "eslintConfig" in package


async def _eslint(ctx: ToolContext, target: Path, notes: list[str]) -> list[LintProblem] | None:
    """Problems from the project's own ESLint, or None (with a note) when it has none."""
    exe = ctx.root / "node_modules" / ".bin" / "eslint"
    if not _eslint_configured(ctx.root) or not exe.exists():
        notes.append(
            "JavaScript/TypeScript files not checked: the project has no ESLint configured and installed"
        )
        return None
    with tempfile.TemporaryDirectory(prefix="asi-lint-", dir=work_folder(ctx.sandbox)) as work:
        out, log = Path(work) / "eslint.json", Path(work) / "eslint.log"
        argv = [str(exe), "-f", "json", "-o", str(out), display_path(ctx.root, target)]
        result = await run_command(
            argv, cwd=ctx.root, timeout=ctx.command_timeout, log=log, sandbox=ctx.sandbox
        )
        try:
            reports = json.loads(out.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-5:]
            notes.append(f"eslint failed (exit code {result.exit_code}): " + " / ".join(tail))
            return None
    return [
        LintProblem(
            display_path(ctx.root, Path(report["filePath"])),
            int(message.get("line") or 1),
            int(message.get("column") or 1),
            str(message.get("ruleId") or ("syntax" if message.get("fatal") else "eslint")),
            str(message.get("message", "")),
        )
        for report in reports
        for message in report.get("messages", [])
    ]
