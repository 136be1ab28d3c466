"""Whether a file's text parses: Python (`compile`), JSON, TOML, YAML, and through tree-sitter the other
languages the code index reads (JavaScript, TypeScript/TSX, Go).

The edit guard and the model-driven tools (generate_tests, refactor) check with it. tree-sitter and
PyYAML are imported only when a file of theirs is checked: `asi-agent --help` must stay light.
"""

from __future__ import annotations

import importlib
import json
import re
import tomllib
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from asi_agent.tools.code.index.symbols import language_of

if TYPE_CHECKING:
    import tree_sitter

__all__ = ["ParseProblem", "checked_language", "file_syntax_error", "parse_problem", "syntax_error"]

_GRAMMARS = {
    "python": ("tree_sitter_python", "language"),
    "go": ("tree_sitter_go", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
}
_DATA_SUFFIXES = {".json": "json", ".toml": "toml", ".yaml": "yaml", ".yml": "yaml"}
_JSONC_STEMS = ("tsconfig", "jsconfig")
"""JSON files that editors and tools read with comments (JSONC): not held to strict JSON."""
_JSONC_FOLDERS = frozenset({".vscode", ".devcontainer"})
_TOML_WHERE = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")
_TEMPLATE_LINE = re.compile(r"^\s*(\{\{|\{%)", re.MULTILINE)
_PARSERS: dict[str, tree_sitter.Parser | None] = {}


@dataclass(frozen=True, slots=True)
class ParseProblem:
    """Why a text does not parse: the parser's message and where (1-based; None when not known)."""

    message: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        where = f"line {self.line}" if self.column is None else f"line {self.line}, column {self.column}"
        return f"{where}: {self.message}"


def checked_language(path: str) -> str:
    """What `path` is checked as: "python", "javascript", "typescript", "tsx", "go", "json", "toml",
    "yaml", or "text" (not checked)."""
    pure = PurePosixPath(path.replace("\\", "/"))
    data = _DATA_SUFFIXES.get(pure.suffix.lower())
    if data == "json" and (pure.name.startswith(_JSONC_STEMS) or pure.parent.name in _JSONC_FOLDERS):
        return "text"
    return data or language_of(pure.as_posix())


def parse_problem(text: str, language: str) -> ParseProblem | None:
    """Why `text` does not parse as `language` (a `checked_language` value); None when it does, or when
    the language is not checked here."""
    check = _CHECKS.get(language)
    if check is not None:
        return check(text)
    return _tree_sitter_problem(text, language)


def syntax_error(text: str, language: str) -> str | None:
    """`parse_problem` as one line ("line 3: expected ':'"); None when `text` parses."""
    problem = parse_problem(text, language)
    return None if problem is None else str(problem)


def file_syntax_error(path: str, text: str) -> str | None:
    """Why `text`, the new content of `path`, does not parse in the file's language, or None."""
    return syntax_error(text, checked_language(path))


def _python_problem(text: str) -> ParseProblem | None:
    """compile()'s complaint, unless tree-sitter reads the text: then it is newer syntax than this
    interpreter knows (a project on a later Python), not a slip. Indentation errors always count:
    tree-sitter does not see them."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning and the like would print on the terminal
            compile(text, "<edit>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        problem = ParseProblem(exc.msg, exc.lineno)
        if isinstance(exc, IndentationError):
            return problem
        return None if _tree_sitter_problem(text, "python", missing=problem) is None else problem
    except ValueError as exc:  # null bytes
        return ParseProblem(str(exc))
    except (RecursionError, MemoryError):
        return None  # too deeply nested to check, not necessarily wrong
    return None


def _json_problem(text: str) -> ParseProblem | None:
    if not text.strip():
        return None  # an empty file is a placeholder being filled in, not a slip
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return ParseProblem(exc.msg, exc.lineno, exc.colno)
    except RecursionError:
        return None
    return None


def _toml_problem(text: str) -> ParseProblem | None:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        where = _TOML_WHERE.search(message)
        if where is None:
            return ParseProblem(message)
        line = int(where[1]) if where[1] else max(1, len(text.splitlines()))
        column = int(where[2]) if where[2] else None
        return ParseProblem(message[: where.start()], line, column)
    return None


def _yaml_problem(text: str) -> ParseProblem | None:
    """PyYAML's complaint. Unknown tags (`!Ref`) are valid YAML that only some application reads, and
    templated YAML (Helm, Jinja: `{{ … }}` lines) is not YAML until rendered: neither is refused."""
    if _TEMPLATE_LINE.search(text):
        return None
    import yaml  # noqa: PLC0415 - only loaded when a YAML file is checked

    try:
        for _document in yaml.safe_load_all(text):
            pass
    except (yaml.constructor.ConstructorError, RecursionError):
        return None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(part for part in (exc.problem, exc.context) if part) or "invalid YAML"
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        return ParseProblem(problem, line, column)
    except yaml.YAMLError as exc:
        return ParseProblem(str(exc))
    return None


_CHECKS: dict[str, Callable[[str], ParseProblem | None]] = {
    "python": _python_problem,
    "json": _json_problem,
    "toml": _toml_problem,
    "yaml": _yaml_problem,
}


def _tree_sitter_problem(
    text: str, language: str, *, missing: ParseProblem | None = None
) -> ParseProblem | None:
    """The first error tree-sitter finds; None when it finds none. `missing` is the answer when the
    grammar is not installed (or `language` has none)."""
    parser = _parser(language)
    if parser is None:
        return missing
    root = parser.parse(text.encode("utf-8", "surrogatepass")).root_node
    if not root.has_error:
        return None
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            return ParseProblem(f"missing {node.type!r}", node.start_point[0] + 1, node.start_point[1] + 1)
        if node.type == "ERROR":
            near = (node.text or b"").decode("utf-8", "replace").strip().split("\n")[0][:40]
            message = f"unexpected {near!r}" if near else "syntax error"
            return ParseProblem(message, node.start_point[0] + 1, node.start_point[1] + 1)
        stack.extend(reversed(node.children))
    return ParseProblem("syntax error")


def _parser(language: str) -> tree_sitter.Parser | None:
    """A tree-sitter parser for `language`, made on first use; None when the grammar is not installed."""
    if language not in _PARSERS:
        _PARSERS[language] = _new_parser(language)
    return _PARSERS[language]


def _new_parser(language: str) -> tree_sitter.Parser | None:
    grammar = _GRAMMARS.get(language)
    if grammar is None:
        return None
    module_name, function_name = grammar
    try:
        import tree_sitter  # noqa: PLC0415 - heavy: only loaded for these checks

        module = importlib.import_module(module_name)
    except ImportError:
        return None
    loader: Callable[[], Any] = getattr(module, function_name)
    return tree_sitter.Parser(tree_sitter.Language(loader()))
