"""Definitions and references of one source file: Python through `ast`, other languages through tree-sitter.

Everything here is plain tuples so that results cross process boundaries cheaply when files are
parsed in a worker pool. Lines and columns are 1-based. tree-sitter is imported only when a file of
one of its languages is parsed, so that starting asi-agent never loads it.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

__all__ = ["LANGUAGES", "Extracted", "Ref", "Symbol", "extract", "language_of", "signature_of", "value_kind"]

LANGUAGES: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
}
"""File suffix → language whose symbols are extracted; other text files are only chunked for search."""


class Symbol(NamedTuple):
    """A definition: class, function, method, variable, constant, interface or type."""

    name: str
    qualname: str
    kind: str
    start: int
    end: int
    signature: str


class Ref(NamedTuple):
    """A use of a name; `call` tells whether it is the callee of a call expression."""

    name: str
    line: int
    column: int
    call: bool


class Extracted(NamedTuple):
    """What one file defines and uses."""

    symbols: list[Symbol]
    refs: list[Ref]


def language_of(path: str) -> str:
    """The language of a file by its suffix: a key of `LANGUAGES`' values, or "text"."""
    dot = path.rfind(".")
    return LANGUAGES.get(path[dot:].lower(), "text") if dot > path.rfind("/") else "text"


def extract(text: str, language: str) -> Extracted:
    """Symbols and references of `text`; an empty result for languages without a parser."""
    lines = text.splitlines()
    if language == "python":
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return _tree_sitter(text, lines, "python")  # tolerant of syntax errors and of Python 2
        walker = _PythonWalker(lines)
        walker.visit_body(tree.body, "", in_class=False)
        walker.collect_refs(tree)
        return Extracted(walker.symbols, walker.refs)
    if language in LANGUAGES.values():
        return _tree_sitter(text, lines, language)
    return Extracted([], [])


def _tree_sitter(text: str, lines: list[str], language: str) -> Extracted:
    """Parse with tree-sitter, imported only now so that start-up never loads it."""
    from asi_agent.tools.code.index.treesitter import extract_with_tree_sitter  # noqa: PLC0415

    symbols, refs = extract_with_tree_sitter(text, lines, language)
    return Extracted(symbols, refs)


def signature_of(lines: list[str], line: int) -> str:
    """The stripped text of a 1-based line, shortened for one-line previews."""
    return lines[line - 1].strip()[:200] if 0 < line <= len(lines) else ""


def value_kind(name: str) -> str:
    """Module- or class-level names in UPPER_CASE are constants by convention."""
    return "constant" if name.isupper() and any(c.isalpha() for c in name) else "variable"


_RECEIVERS = frozenset({"self", "cls"})


class _PythonWalker:
    """Collects definitions by walking statement bodies, and references from the whole tree."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.symbols: list[Symbol] = []
        self.refs: list[Ref] = []
        self.function_scopes: set[str] = set()

    def visit_body(self, body: list[ast.stmt], scope: str, *, in_class: bool) -> None:
        """Definitions in one block; nested blocks of compound statements are visited too."""
        for node in body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                self._definition(node, scope, in_class=in_class)
            elif isinstance(node, ast.Assign | ast.AnnAssign) and scope not in self.function_scopes:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name_node in _target_names(target):
                        self._add(name_node.id, scope, value_kind(name_node.id), node)
            else:
                # if/try/with blocks at module or class level still define module or class names.
                for field in ("body", "orelse", "finalbody"):
                    block = getattr(node, field, None)
                    if isinstance(block, list):
                        self.visit_body(
                            [s for s in block if isinstance(s, ast.stmt)], scope, in_class=in_class
                        )
                for handler in getattr(node, "handlers", None) or []:
                    self.visit_body(handler.body, scope, in_class=in_class)

    def _definition(
        self, node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef, scope: str, *, in_class: bool
    ) -> None:
        """A class or function: recorded, then its body is visited as a new scope."""
        kind = "class" if isinstance(node, ast.ClassDef) else "method" if in_class else "function"
        qualname = self._add(node.name, scope, kind, node)
        if kind != "class":
            self.function_scopes.add(qualname)
        self.visit_body(node.body, qualname, in_class=kind == "class")

    def _add(self, name: str, scope: str, kind: str, node: ast.stmt) -> str:
        """Record one definition (decorators included in its range); returns its qualified name."""
        qualname = f"{scope}.{name}" if scope else name
        decorators = getattr(node, "decorator_list", [])
        start = min([node.lineno, *(d.lineno for d in decorators)])
        end = node.end_lineno or node.lineno
        self.symbols.append(Symbol(name, qualname, kind, start, end, signature_of(self.lines, node.lineno)))
        return qualname

    def collect_refs(self, tree: ast.Module) -> None:
        """Every loaded name, attribute and imported name, marking the callees of calls."""
        refs = self.refs
        load = ast.Load
        # An explicit stack with per-type child fields: `ast.walk` is several times slower here.
        stack: list[tuple[ast.AST, bool]] = [(tree, False)]
        while stack:
            node, called = stack.pop()
            kind = type(node)
            if kind is ast.Name:
                # `self` and `cls` are everywhere and never what anyone looks up: not worth a row each.
                if type(node.ctx) is load and node.id not in _RECEIVERS:  # type: ignore[attr-defined]
                    refs.append(Ref(node.id, node.lineno, node.col_offset + 1, called))  # type: ignore[attr-defined]
                continue
            if kind is ast.Attribute and type(node.ctx) is load:  # type: ignore[attr-defined]
                end_line, end_col, attr = node.end_lineno, node.end_col_offset, node.attr  # type: ignore[attr-defined]
                refs.append(Ref(attr, end_line, end_col - len(attr) + 1, called))
            elif kind is ast.ImportFrom:
                for alias in node.names:  # type: ignore[attr-defined]
                    refs.append(Ref(alias.name, node.lineno, node.col_offset + 1, False))  # type: ignore[attr-defined]
            elif kind is ast.Call:
                stack.append((node.func, True))  # type: ignore[attr-defined]
            for field in _child_fields(kind):
                value = getattr(node, field)
                if isinstance(value, list):
                    stack.extend((item, False) for item in value if isinstance(item, ast.AST))
                elif isinstance(value, ast.AST):
                    stack.append((value, False))


_LEAF_FIELDS = frozenset({"ctx", "func"})
"""Not walked generically: contexts hold no names, and a call's `func` is pushed as called."""


_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(kind: type) -> tuple[str, ...]:
    """The fields of an AST node type that may hold child nodes (computed once per type)."""
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = tuple(
            name for name in getattr(kind, "_fields", ()) if name not in _LEAF_FIELDS
        )
    return fields


def _target_names(target: ast.expr) -> list[ast.Name]:
    """The plain names bound by an assignment target (tuples unpacked, attributes skipped)."""
    if isinstance(target, ast.Name):
        return [target]
    if isinstance(target, ast.Tuple | ast.List):
        return [name for element in target.elts for name in _target_names(element)]
    return []
