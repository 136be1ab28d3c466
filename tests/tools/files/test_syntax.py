"""Whether a text parses, per language: the check the edit guard and the model-driven tools share."""

from __future__ import annotations

import pytest

from asi_agent.tools.files.syntax import ParseProblem, checked_language, parse_problem, syntax_error

INDENT = "expected an indented block after function definition on line 1"


def test_syntax_errors_by_language() -> None:
    assert syntax_error("x = (1,\n", "python") is not None
    assert syntax_error("x = 1\n", "python") is None
    assert (syntax_error("package main\n\nfunc main() {\n", "go") or "").startswith("line ")
    assert syntax_error("package main\n\nfunc main() {}\n", "go") is None
    assert syntax_error("const a = ;\n", "typescript") is not None
    assert syntax_error("anything at all", "text") is None


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("python", "def greet(name)\n    return name\n", ParseProblem("expected ':'", 1)),
        ("python", "def f():\nreturn 1\n", ParseProblem(INDENT, 2)),
        ("json", '{"a": 1,\n "b" 2}\n', ParseProblem("Expecting ':' delimiter", 2, 6)),
        ("toml", "a = 1\nb = \n", ParseProblem("Invalid value", 2, 5)),
        ("yaml", "a: 1\n b: 2\n", ParseProblem("mapping values are not allowed here", 2, 3)),
        ("javascript", "function f( {\n  return 1;\n}\n", None),  # only where: tree-sitter has no words
    ],
)
def test_the_parsers_message_and_place(language: str, text: str, expected: ParseProblem | None) -> None:
    problem = parse_problem(text, language)
    assert problem is not None
    if expected is not None:
        assert problem == expected
    else:
        assert problem.line == 1 and problem.column is not None


def test_what_is_not_a_syntax_slip() -> None:
    # Newer Python than this interpreter knows (3.12's type statement) is read by tree-sitter.
    assert parse_problem("type Pair = tuple[int, int]\n", "python") is None
    # An empty JSON file is a placeholder; unknown YAML tags and templated YAML are not YAML's business.
    assert parse_problem("  \n", "json") is None
    assert parse_problem("Value: !Ref Bucket\n", "yaml") is None
    assert parse_problem("{{- if .Values.on }}\nkey: value\n{{- end }}\n", "yaml") is None
    assert parse_problem("a: 1\n---\nb: 2\n", "yaml") is None


def test_which_files_are_checked_as_what() -> None:
    names = ["a/b.py", "x.JSON", "pyproject.toml", "ci.yml", "k.yaml", "app.tsx", "main.go", "notes.md"]
    assert [checked_language(name) for name in names] == [
        "python", "json", "toml", "yaml", "yaml", "tsx", "go", "text",
    ]
    # JSON files that editors read with comments are not held to strict JSON.
    commented = ("tsconfig.json", "web/jsconfig.base.json", ".vscode/settings.json")
    assert {checked_language(name) for name in commented} == {"text"}
