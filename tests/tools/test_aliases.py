"""Every parameter alias the spec lists is normalised onto its real name before validation."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from asi_agent.tools.catalog import builtin_specs
from asi_agent.tools.registry import default_registry, normalise_arguments
from asi_agent.tools.schema import parameters_schema

SPEC = Path(__file__).resolve().parents[2] / "docs" / "spec" / "asi-model-adaptation-spec-v1.0.md"
SPECS = {spec.name: spec for spec in builtin_specs()}
REGISTRY = default_registry()
SAMPLES: dict[str, Any] = {
    "string": "sample.txt",
    "number": 3,
    "boolean": True,
    "object": {},
    "array": ["unit"],
}


def _aliases_in_spec() -> set[tuple[str, str, str]]:
    """(tool, alias, parameter) for every "(别名:a, b)" in §3.4, with `path`'s applied to every `path`."""
    text = SPEC.read_text(encoding="utf-8").split("### 3.4", 1)[1]
    found: set[tuple[str, str, str]] = set()
    path_aliases: set[str] = set()
    for name, block in re.findall(r"^#### `(\w+)`\s*```json\n(.*?)\n```", text, flags=re.S | re.M):
        for param, prop in json.loads(block)["properties"].items():
            listed = re.search(r"别名:([^)]+)\)", prop.get("description", ""))
            for alias in listed.group(1).split(", ") if listed else []:
                found.add((name, alias, param))
                if param == "path":
                    path_aliases.add(alias)
    for spec in SPECS.values():
        if "path" in spec.args.model_fields:
            found.update((spec.name, alias, "path") for alias in path_aliases)
    return found


ALL_ALIASES = sorted(
    (spec.name, alias, target) for spec in SPECS.values() for alias, target in spec.aliases.items()
)


def test_catalog_aliases_are_exactly_the_spec_aliases() -> None:
    assert set(ALL_ALIASES) == _aliases_in_spec()
    assert len(ALL_ALIASES) > 40


def _valid_arguments(tool: str) -> dict[str, Any]:
    """Arguments for every required parameter of a tool, one plausible value per JSON type."""
    schema = parameters_schema(SPECS[tool])
    return {name: SAMPLES[schema["properties"][name]["type"]] for name in schema.get("required", [])}


@pytest.mark.parametrize(("tool", "alias", "target"), ALL_ALIASES)
def test_alias_is_normalised(tool: str, alias: str, target: str) -> None:
    arguments = _valid_arguments(tool)
    arguments.pop(target, None)
    kind = parameters_schema(SPECS[tool])["properties"][target]["type"]
    value = {"string": f"given as {alias}", "boolean": True}[kind]
    arguments[alias] = value
    validated = REGISTRY.validate(tool, arguments)
    assert getattr(validated, target) == value


def test_canonical_name_wins_over_an_alias() -> None:
    validated = REGISTRY.validate(
        "replace_lines",
        {"path": "a.py", "file": "b.py", "startLine": 1, "endLine": 1, "content": "x", "newText": "y"},
    )
    assert (validated.path, validated.newText) == ("a.py", "y")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("tool", "given", "expected"),
    [
        ("read_file", {"path": "a", "start_line": "2", "end_line": 4}, {"startLine": 2, "endLine": 4}),
        ("replace_lines", {"path": "a", "start_line": 1, "end_line": 2, "new_text": "x"}, {"newText": "x"}),
        ("list_directory", {"path": ".", "sort_by": "size", "sort_order": "desc"}, {"sortBy": "size"}),
        ("get_cursor_context", {"lines_before": 3, "include_callers": True}, {"linesBefore": 3}),
        ("read_file", {"Path": "a", "StartLine": 2}, {"path": "a", "startLine": 2}),
    ],
)
def test_snake_case_names_fall_back_to_camel_case(
    tool: str, given: dict[str, Any], expected: dict[str, Any]
) -> None:
    validated = REGISTRY.validate(tool, given)
    assert {key: getattr(validated, key) for key in expected} == expected


def test_null_for_a_defaulted_parameter_means_not_given() -> None:
    assert normalise_arguments(SPECS["codebase_search"], {"query": "q", "limit": None}) == {"query": "q"}
    assert REGISTRY.validate("codebase_search", {"query": "q", "limit": None}).limit == 10  # type: ignore[attr-defined]


def test_unknown_keys_are_left_for_validation_to_report() -> None:
    assert normalise_arguments(SPECS["read_file"], {"path": "a", "colour": "red"}) == {
        "path": "a",
        "colour": "red",
    }
