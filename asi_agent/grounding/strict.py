"""Schemas that constrain a small model's decoding: exactly the arguments models, narrowed further.

The published `tools/` follow the spec (integers as `number`, choices only in descriptions, every
optional parameter). What a local model is constrained by is generated here from the same arguments
models: `integer` where the model says `int`, `enum` for `Literal`, the models' bounds as
`minimum`/`maximum`, strings with length bounds, and only the parameters that matter to a small model.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping
from typing import Any

from asi_agent.tools.base import ToolSpec
from asi_agent.tools.schema import tool_schema

__all__ = ["KEPT_PARAMETERS", "STRING_BOUNDS", "strict_schema"]

KEPT_PARAMETERS: Mapping[str, tuple[str, ...]] = {
    "read_file": ("path",),
    "list_directory": ("path",),
    "grep_search": ("pattern",),
    "file_search": ("pattern",),
    "find_code_location": ("search",),
    "codebase_search": ("query",),
    "replace_text": ("path", "oldText", "newText"),
    "create_file": ("path", "content"),
    "run_tests": (),
}
"""Per tool, the parameters a small model is asked for; the others keep their defaults."""

STRING_BOUNDS: Mapping[str, tuple[int, int]] = {
    "path": (1, 255),
    "testFile": (1, 255),
    "pattern": (1, 200),
    "search": (1, 200),
    "query": (1, 300),
    "oldText": (1, 4000),
    "newText": (0, 4000),
    "content": (0, 8000),
}
"""(minLength, maxLength) of string parameters: a looping small model stops at the bound."""
_DEFAULT_STRING = (0, 2000)
_DESCRIPTION_CHARS = 160


def _plain(schema: Mapping[str, Any]) -> dict[str, Any]:
    """One property of pydantic's schema, as a constraint: `X | None` is X, titles and defaults dropped."""
    options = schema.get("anyOf")
    if options:
        kept = [option for option in options if option.get("type") != "null"]
        base = dict(kept[0]) if len(kept) == 1 else {"anyOf": kept}
        base.update({k: v for k, v in schema.items() if k not in ("anyOf", "default", "title")})
        schema = base
    return {key: copy.deepcopy(value) for key, value in schema.items() if key not in ("title", "default")}


def _bounded(name: str, prop: dict[str, Any]) -> dict[str, Any]:
    if prop.get("type") == "string" and "enum" not in prop and "const" not in prop:
        low, high = STRING_BOUNDS.get(name, _DEFAULT_STRING)
        prop.setdefault("minLength", low)
        prop.setdefault("maxLength", high)
    return prop


def strict_schema(
    spec: ToolSpec, locale: str, *, keep: Collection[str] | None = None, all_parameters: bool = False
) -> dict[str, Any]:
    """The `{"type": "function", ...}` schema a local model is constrained by.

    `keep` names the parameters to offer (default: `KEPT_PARAMETERS`, else the required ones); every
    required parameter is always offered. `all_parameters` offers every parameter (a bigger model).
    """
    published = tool_schema(spec, locale)["function"]
    texts = published["parameters"].get("properties", {})
    if spec.parameters is not None:  # a plugin's own JSON Schema: used as given, closed
        parameters: dict[str, Any] = copy.deepcopy(dict(spec.parameters))
        parameters.setdefault("additionalProperties", False)
    else:
        model = spec.args.model_json_schema()
        required = list(model.get("required", []))
        chosen = set(required) | set(KEPT_PARAMETERS.get(spec.name, ()) if keep is None else keep)
        properties: dict[str, Any] = {}
        for name, raw in model.get("properties", {}).items():
            if all_parameters or name in chosen:
                prop = _bounded(name, _plain(raw))
                description = texts.get(name, {}).get("description")
                if description:
                    prop["description"] = _short(str(description))
                properties[name] = prop
        parameters = {
            "type": "object",
            "properties": properties,
            "required": [name for name in properties if name in required or not all_parameters],
            "additionalProperties": False,
        }
    return {
        "type": "function",
        "function": {
            "name": spec.name,
            "description": _short(str(published.get("description", ""))),
            "parameters": parameters,
        },
    }


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _DESCRIPTION_CHARS else flat[:_DESCRIPTION_CHARS].rsplit(" ", 1)[0] + "…"
