"""Making a plugin's parameter schema self-contained before a model server sees it.

Many servers (llama.cpp's grammar builder, Ollama, some OpenAI-compatible proxies) reject or ignore
`$ref`, and a dangling one made every request fail with a 400 naming no plugin. `inline_refs` replaces
each local `$ref` (`#/$defs/Name`, `#/definitions/Name`, any `#/...` JSON pointer into the schema) by
a copy of its target and drops the definitions. A reference that points nowhere, outside the
document, or (directly or not) to itself is a problem naming the field, and the tool is not offered.
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["inline_refs"]

_MAX_NODES = 20_000  # inlining can multiply a schema; beyond this it is not worth sending to a model
_DEFINITIONS = ("$defs", "definitions")
# Keywords whose value maps names to schemas: their keys are names, not keywords.
_NAMED = ("properties", "patternProperties", "dependentSchemas", *_DEFINITIONS)


class _Unresolvable(Exception):
    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field, self.reason = field, reason


def inline_refs(schema: dict[str, Any], field: str = "parameters") -> tuple[dict[str, Any] | None, str, str]:
    """`(self-contained schema, "", "")`, or `(None, field, reason)` naming the first unresolvable `$ref`."""
    walker = _Inliner(schema)
    try:
        result = walker.walk(schema, field, ())
    except _Unresolvable as problem:
        return None, problem.field, problem.reason
    assert isinstance(result, dict)
    for key in _DEFINITIONS:
        result.pop(key, None)
    return result, "", ""


class _Inliner:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.nodes = 0

    def walk(self, node: Any, field: str, expanding: tuple[str, ...]) -> Any:
        self.nodes += 1
        if self.nodes > _MAX_NODES:
            raise _Unresolvable(
                field, f"the schema grows beyond {_MAX_NODES} nodes once its $ref are inlined"
            )
        if isinstance(node, list):
            return [self.walk(item, f"{field}.{n}", expanding) for n, item in enumerate(node)]
        if not isinstance(node, dict):
            return node
        if isinstance(node.get("$ref"), str):
            return self._resolved(node, field, expanding)
        result: dict[str, Any] = {}
        for key, value in node.items():
            if key in _NAMED and isinstance(value, dict):
                if key in _DEFINITIONS:
                    continue  # only what is referenced is kept, inlined where it is used
                result[key] = {
                    name: self.walk(sub, f"{field}.{key}.{name}", expanding) for name, sub in value.items()
                }
            else:
                result[key] = self.walk(value, f"{field}.{key}", expanding)
        return result

    def _resolved(self, node: dict[str, Any], field: str, expanding: tuple[str, ...]) -> Any:
        ref: str = node["$ref"]
        where = f"{field}.$ref"
        if not ref.startswith("#"):
            raise _Unresolvable(
                where, f"$ref {ref!r} points outside the schema; only local '#/$defs/...' works"
            )
        if ref in expanding:
            raise _Unresolvable(where, f"$ref {ref!r} refers to itself; a recursive schema cannot be inlined")
        target = _pointer(self.root, ref)
        if target is None:
            raise _Unresolvable(where, f"$ref {ref!r} points to nothing in the schema")
        inlined = self.walk(copy.deepcopy(target), field, (*expanding, ref))
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        if not siblings:
            return inlined
        if not isinstance(inlined, dict):
            raise _Unresolvable(where, f"$ref {ref!r} points to something that is not a schema")
        # Keywords written beside the $ref (a description, a default) win over the target's.
        return {**inlined, **self.walk(siblings, field, expanding)}


def _pointer(root: dict[str, Any], ref: str) -> Any:
    """The JSON-pointer target of a `#/...` reference, or None."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    node: Any = root
    for raw in ref[2:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node
