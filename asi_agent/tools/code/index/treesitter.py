"""Symbols and references of JavaScript, TypeScript/TSX and Go (and broken Python) through tree-sitter.

One generic walker reads every grammar through a small table per language: which node types define
what, which are identifiers, which are calls and member accesses. Only imported when such a file is
parsed: tree-sitter must not load at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import tree_sitter

from asi_agent.tools.code.index.symbols import Ref, Symbol, signature_of, value_kind

__all__ = ["extract_with_tree_sitter"]


class _Grammar(NamedTuple):
    """How to read one grammar: node types that define, hold, refer, call and access members."""

    definitions: dict[str, str]
    holders: frozenset[str]
    """Statements around a definition whose first line is the definition's first line."""
    identifiers: frozenset[str]
    callee_fields: dict[str, str]
    """Call node type → field holding the called expression."""
    members: dict[str, str]
    """Member-access node type → field holding the member name (`a.b()` calls `b`)."""


_JS = _Grammar(
    {
        "class_declaration": "class",
        "abstract_class_declaration": "class",
        "function_declaration": "function",
        "generator_function_declaration": "function",
        "method_definition": "method",
        "interface_declaration": "interface",
        "type_alias_declaration": "type",
        "enum_declaration": "type",
        "variable_declarator": "variable",
        "public_field_definition": "variable",
        "field_definition": "variable",
    },
    frozenset({"export_statement", "lexical_declaration", "variable_declaration"}),
    frozenset({"identifier", "property_identifier", "type_identifier", "shorthand_property_identifier"}),
    {"call_expression": "function", "new_expression": "constructor"},
    {"member_expression": "property"},
)
_GRAMMARS: dict[str, _Grammar] = {
    "javascript": _JS,
    "typescript": _JS,
    "tsx": _JS,
    "go": _Grammar(
        {
            "function_declaration": "function",
            "method_declaration": "method",
            "type_spec": "type",
            "type_alias": "type",
            "var_spec": "variable",
            "const_spec": "constant",
        },
        frozenset({"type_declaration", "var_declaration", "const_declaration"}),
        frozenset({"identifier", "field_identifier", "type_identifier"}),
        {"call_expression": "function"},
        {"selector_expression": "field"},
    ),
    "python": _Grammar(
        {"class_definition": "class", "function_definition": "function"},
        frozenset({"decorated_definition"}),
        frozenset({"identifier"}),
        {"call": "function"},
        {"attribute": "attribute"},
    ),
}
_SCOPE_KINDS = frozenset({"class", "interface", "function", "method"})
_FUNCTION_VALUES = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function", "func_literal"}
)
_NAME_FIELDS = ("name", "property")
_PARSERS: dict[str, tree_sitter.Parser] = {}


def extract_with_tree_sitter(text: str, lines: list[str], language: str) -> tuple[list[Symbol], list[Ref]]:
    """Definitions and references of `text` in `language` (a key of the grammar table)."""
    tree = _parser(language).parse(text.encode("utf-8", "surrogatepass"))
    walker = _Walker(lines, _GRAMMARS[language])
    walker.walk(tree.root_node)
    return walker.symbols, walker.refs


def _parser(language: str) -> tree_sitter.Parser:
    """One parser per language and process."""
    if language not in _PARSERS:
        _PARSERS[language] = tree_sitter.Parser(tree_sitter.Language(_loader(language)()))
    return _PARSERS[language]


def _loader(language: str) -> Callable[[], Any]:
    """The grammar wheel's language function."""
    if language == "python":
        import tree_sitter_python  # noqa: PLC0415

        return tree_sitter_python.language
    if language == "go":
        import tree_sitter_go  # noqa: PLC0415

        return tree_sitter_go.language
    if language == "javascript":
        import tree_sitter_javascript  # noqa: PLC0415

        return tree_sitter_javascript.language
    import tree_sitter_typescript  # noqa: PLC0415

    if language == "tsx":
        return tree_sitter_typescript.language_tsx
    return tree_sitter_typescript.language_typescript


def _text(node: tree_sitter.Node) -> str:
    """The source text of a node."""
    return (node.text or b"").decode("utf-8", "replace")


class _Walker:
    """An iterative depth-first walk (deep trees must not hit the recursion limit)."""

    def __init__(self, lines: list[str], grammar: _Grammar) -> None:
        self.lines = lines
        self.grammar = grammar
        self.symbols: list[Symbol] = []
        self.refs: list[Ref] = []
        self.name_nodes: set[int] = set()

    def walk(self, root: tree_sitter.Node) -> None:
        """Visit every node with its enclosing scope (qualified name, kind, inside a function body)."""
        stack: list[tuple[tree_sitter.Node, str, str, bool]] = [(root, "", "", False)]
        grammar = self.grammar
        while stack:
            node, scope, scope_kind, in_body = stack.pop()
            kind = grammar.definitions.get(node.type)
            if kind is not None:
                defined = self._define(node, kind, scope, scope_kind, in_body)
                if defined is not None and defined.kind in _SCOPE_KINDS:
                    scope, scope_kind = defined.qualname, defined.kind
                    in_body = in_body or defined.kind in ("function", "method")
            elif node.type in _FUNCTION_VALUES:
                in_body = True
            elif node.type in grammar.identifiers and node.start_byte not in self.name_nodes:
                self._reference(node)
            children = node.children
            stack.extend((child, scope, scope_kind, in_body) for child in reversed(children))

    def _define(
        self, node: tree_sitter.Node, kind: str, scope: str, scope_kind: str, in_body: bool
    ) -> Symbol | None:
        """Record the definition at `node` (None for locals and unnamed or destructuring forms)."""
        name_node = _name_node(node)
        if name_node is None or name_node.type.endswith("pattern"):
            return None
        name = _text(name_node)
        kind = self._refine(node, kind, name, scope_kind)
        if kind in ("variable", "constant") and in_body:
            return None  # a function's locals are not project symbols
        self.name_nodes.add(name_node.start_byte)
        if node.type == "method_declaration":
            scope = _go_receiver(node) or scope
        qualname = f"{scope}.{name}" if scope else name
        start = node
        while start.parent is not None and start.parent.type in self.grammar.holders:
            start = start.parent
        line = name_node.start_point.row + 1
        symbol = Symbol(
            name,
            qualname,
            kind,
            start.start_point.row + 1,
            node.end_point.row + 1,
            signature_of(self.lines, line),
        )
        self.symbols.append(symbol)
        return symbol

    def _refine(self, node: tree_sitter.Node, kind: str, name: str, scope_kind: str) -> str:
        """The exact kind: functions held in variables, methods, Go struct/interface types, constants."""
        if kind == "variable":
            value = node.child_by_field_name("value")
            if value is not None and value.type in _FUNCTION_VALUES:
                return "method" if scope_kind == "class" else "function"
            return value_kind(name)
        if kind == "function" and scope_kind == "class":
            return "method"
        if node.type == "type_spec":
            shape = node.child_by_field_name("type")
            if shape is not None and shape.type == "struct_type":
                return "class"
            if shape is not None and shape.type == "interface_type":
                return "interface"
        return kind

    def _reference(self, node: tree_sitter.Node) -> None:
        """Record a use of a name, marking it when it is what a call calls."""
        row, byte_column = node.start_point
        line = self.lines[row] if row < len(self.lines) else ""
        if line.isascii():
            column = byte_column + 1
        else:
            column = len(line.encode("utf-8")[:byte_column].decode("utf-8", "replace")) + 1
        self.refs.append(Ref(_text(node), row + 1, column, self._is_callee(node)))

    def _is_callee(self, node: tree_sitter.Node) -> bool:
        """`f()` and `a.f()` call `f`; `new F()` calls `F`."""
        parent = node.parent
        if parent is None:
            return False
        member_field = self.grammar.members.get(parent.type)
        if member_field is not None:
            member = parent.child_by_field_name(member_field)
            if member is None or member.start_byte != node.start_byte:
                return False
            node, parent = parent, parent.parent
            if parent is None:
                return False
        field = self.grammar.callee_fields.get(parent.type)
        callee = parent.child_by_field_name(field) if field else None
        return (
            callee is not None and callee.start_byte == node.start_byte and callee.end_byte == node.end_byte
        )


def _name_node(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The node naming a definition."""
    for field in _NAME_FIELDS:
        found = node.child_by_field_name(field)
        if found is not None:
            return found
    return None


def _go_receiver(node: tree_sitter.Node) -> str | None:
    """The receiver type of a Go method (`func (s *Server) Run()` → "Server")."""
    receiver = node.child_by_field_name("receiver")
    stack = [receiver] if receiver is not None else []
    while stack:
        current = stack.pop()
        if current.type == "type_identifier":
            return _text(current)
        stack.extend(reversed(current.children))
    return None
