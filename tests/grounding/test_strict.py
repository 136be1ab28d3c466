"""The schemas a local model is constrained by follow the arguments models exactly, not the spec's types."""

from __future__ import annotations

import types
import typing

import pytest

from asi_agent.grounding.strict import KEPT_PARAMETERS, STRING_BOUNDS, strict_schema
from asi_agent.tools.base import ToolSpec
from asi_agent.tools.registry import default_registry
from asi_agent.tools.schema import literal_choices, tool_schema

SPECS = [spec for spec in default_registry().specs() if spec.source == "builtin"]


def _annotation(spec: ToolSpec, name: str) -> object:
    """A field's type with `| None` removed."""
    hint = typing.get_type_hints(spec.args)[name]
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    return args[0] if typing.get_origin(hint) in (typing.Union, types.UnionType) else hint


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_parameter_has_the_models_type_choices_and_bounds(spec: ToolSpec) -> None:
    schema = strict_schema(spec, "en", all_parameters=True)["function"]["parameters"]
    assert schema["additionalProperties"] is False
    for name, field in spec.args.model_fields.items():
        prop = schema["properties"][name]
        annotation = _annotation(spec, name)
        if annotation is int:
            assert prop["type"] == "integer", (spec.name, name)
        elif annotation is float:
            assert prop["type"] == "number"
        elif annotation is bool:
            assert prop["type"] == "boolean"
        choices = literal_choices(field.annotation)
        if choices:
            assert prop["enum"] == list(choices)
        elif annotation is str:
            low, high = STRING_BOUNDS.get(name, (0, 2000))
            assert (prop["minLength"], prop["maxLength"]) == (low, high)
        for meta in field.metadata:
            for attr, key in (("ge", "minimum"), ("le", "maximum")):
                if getattr(meta, attr, None) is not None:
                    assert prop[key] == getattr(meta, attr), (spec.name, name, key)
        assert "default" not in prop and "title" not in prop
    assert set(schema["required"]) == {n for n, f in spec.args.model_fields.items() if f.is_required()}


def test_integers_stay_integers_where_the_published_schema_says_number() -> None:
    spec = default_registry().get("read_file")
    published = tool_schema(spec, "en")
    assert published["function"]["parameters"]["properties"]["startLine"]["type"] == "number"
    strict = strict_schema(spec, "en", all_parameters=True)["function"]["parameters"]["properties"]
    assert strict["startLine"] == {**strict["startLine"], "type": "integer", "minimum": 1}


@pytest.mark.parametrize("name", sorted(KEPT_PARAMETERS))
def test_a_small_model_is_offered_only_the_parameters_that_matter(name: str) -> None:
    spec = default_registry().get(name)
    parameters = strict_schema(spec, "en")["function"]["parameters"]
    required = {n for n, f in spec.args.model_fields.items() if f.is_required()}
    assert set(parameters["properties"]) == required | set(KEPT_PARAMETERS[name])
    assert set(parameters["required"]) == set(parameters["properties"])


def test_descriptions_follow_the_locale() -> None:
    spec = default_registry().get("read_file")
    english = strict_schema(spec, "en")["function"]["description"]
    assert strict_schema(spec, "zh")["function"]["description"] != english
    assert english.startswith("Read")
