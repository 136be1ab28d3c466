"""Model-facing tool schemas, derived from the arguments models plus a locale's descriptions.

The arguments models in `asi_agent.tools.args` are the single source of truth for names, types,
`required` and defaults; the locale files (`locales/<locale>.json`) add the natural-language texts.
The result has the `{"type": "function", "function": {name, description, parameters}}` shape of
spec §3.2, and for the built-in tools it equals spec §3.4 key for key.
"""

from __future__ import annotations

import copy
import json
import types
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from asi_agent.exceptions import ConfigError
from asi_agent.tools.base import ToolSpec

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "literal_choices",
    "load_locale",
    "parameters_schema",
    "render_schema_files",
    "tool_schema",
]

LOCALES: tuple[str, ...] = ("zh", "en")
"""The locales whose tool texts ship with the package."""

DEFAULT_LOCALE = "zh"
"""The spec's own language, used when no locale is chosen."""

_SCALARS: dict[object, str] = {bool: "boolean", int: "number", float: "number", str: "string"}


@cache
def load_locale(locale: str) -> Mapping[str, Any]:
    """The texts of one locale: `{tool: {"description": str, "parameters": {field: str}}}`."""
    if locale not in LOCALES:
        allowed = ", ".join(LOCALES)
        raise ConfigError(f"unknown tool locale {locale!r}: allowed locales are {allowed}")
    text = resources.files("asi_agent.tools").joinpath("locales", f"{locale}.json").read_text("utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise TypeError(f"locale file {locale}.json must hold a JSON object")
    return data


def _strip_optional(annotation: object) -> object:
    """`X | None` → `X`: the spec publishes optional parameters with their plain type."""
    if get_origin(annotation) not in (Union, types.UnionType):
        return annotation
    rest = [arg for arg in get_args(annotation) if arg is not type(None)]
    if len(rest) != 1:
        raise TypeError(f"no JSON-Schema type for the union {annotation!r}")
    return rest[0]


def literal_choices(annotation: object) -> tuple[object, ...] | None:
    """The allowed values of a `Literal[...]` annotation (optional or not), else None."""
    inner = _strip_optional(annotation)
    return get_args(inner) if get_origin(inner) is Literal else None


def _json_type(annotation: object) -> dict[str, Any]:
    """The JSON-Schema `type` (and `items`) of one annotation, in the spec's vocabulary."""
    inner = _strip_optional(annotation)
    origin = get_origin(inner)
    if inner in _SCALARS:
        return {"type": _SCALARS[inner]}
    if origin is Literal:
        # The spec publishes choices as a plain string and names them in the description.
        kinds = {_SCALARS.get(type(choice)) for choice in get_args(inner)}
        if len(kinds) != 1 or None in kinds:
            raise TypeError(f"no JSON-Schema type for {inner!r}")
        return {"type": kinds.pop()}
    if inner is list or origin is list:
        item_args = get_args(inner)
        return {"type": "array", "items": _json_type(item_args[0])} if item_args else {"type": "array"}
    if inner is dict or origin is dict:
        return {"type": "object"}
    if isinstance(inner, type) and issubclass(inner, BaseModel):
        return _object_schema(inner)
    raise TypeError(f"no JSON-Schema type for {inner!r}")


def _object_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A nested object (the items of `todo_write`'s list): its fields with their own descriptions and
    choices, all required ones listed, nothing else allowed."""
    fields = model.model_fields
    properties = {name: _property(field, field.description, enums=True) for name, field in fields.items()}
    required = [name for name, field in fields.items() if field.is_required()]
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _property(field: FieldInfo, description: str | None, *, enums: bool = False) -> dict[str, Any]:
    """One property, keys in the spec's order: type, items, description, default (then enum, if asked)."""
    prop = _json_type(field.annotation)
    choices = literal_choices(field.annotation) if enums else None
    if description:
        prop["description"] = description
    if not field.is_required():
        default = field.get_default(call_default_factory=True)
        if default is not None:
            prop["default"] = copy.deepcopy(default)
    if choices:
        prop["enum"] = list(choices)
    return prop


def _texts(spec: ToolSpec, locale: str) -> Mapping[str, Any]:
    """The locale's texts for a tool; tools it does not know (plugins) fall back to the model's own."""
    known = load_locale(locale).get(spec.name)
    if isinstance(known, dict):
        return known
    fields = spec.args.model_fields
    own = {name: field.description for name, field in fields.items() if field.description}
    return {"description": spec.description or (spec.args.__doc__ or "").strip(), "parameters": own}


def parameters_schema(spec: ToolSpec, locale: str = DEFAULT_LOCALE, *, enums: bool = False) -> dict[str, Any]:
    """The `parameters` object of a tool (JSON Schema, spec §3.4 layout); a plugin's own schema as given.

    The published registry is exactly the spec's, which lists closed choices (`sortOrder`: asc, desc) only in
    descriptions; `enums=True` also states them as `enum`, for what is sent to models (a constrained decoder
    can then only produce valid values).
    """
    if spec.parameters is not None:
        return copy.deepcopy(dict(spec.parameters))
    fields = spec.args.model_fields
    if not fields:
        return {"type": "object", "properties": {}, "additionalProperties": False}
    descriptions: Mapping[str, str] = _texts(spec, locale).get("parameters", {})
    properties = {
        name: _property(field, descriptions.get(name), enums=enums) for name, field in fields.items()
    }
    required = [name for name, field in fields.items() if field.is_required()]
    return {"type": "object", "properties": properties, "required": required}


def tool_schema(spec: ToolSpec, locale: str = DEFAULT_LOCALE, *, enums: bool = False) -> dict[str, Any]:
    """The model-facing definition of a tool: `{"type": "function", "function": {...}}`."""
    description = str(_texts(spec, locale).get("description", ""))
    return {
        "type": "function",
        "function": {
            "name": spec.name,
            "description": description,
            "parameters": parameters_schema(spec, locale, enums=enums),
        },
    }


def render_schema_files(specs: Iterable[ToolSpec]) -> dict[str, str]:
    """The published `tools/` folder as `{relative path: text}`: zh at the top, other locales below."""
    files: dict[str, str] = {}
    for spec in specs:
        for locale in LOCALES:
            folder = "" if locale == DEFAULT_LOCALE else f"{locale}/"
            text = json.dumps(tool_schema(spec, locale), indent=2, ensure_ascii=False)
            files[f"{folder}{spec.name}.json"] = text + "\n"
    return files
