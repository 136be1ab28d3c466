"""Narrowing one tool's schema to the project: real paths, text that occurs, symbols that exist.

Every function takes a strict schema (`grounding.strict`) and returns it with some parameters closed
to `enum`s, or None when nothing sensible is left to offer (the tool is then not offered this turn).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["close_parameter", "exclude_repeat", "quote_lines", "ranked_lines"]

_NUMBERED = re.compile(r"^\s*\d+\| ?")


def close_parameter(schema: dict[str, Any], name: str, choices: Sequence[str]) -> dict[str, Any] | None:
    """`schema` with parameter `name` limited to `choices` (in order, once each); None if there are none."""
    unique = list(dict.fromkeys(c for c in choices if c))
    if not unique:
        return None
    result = copy.deepcopy(schema)
    prop = result["function"]["parameters"]["properties"][name]
    for key in ("minLength", "maxLength", "pattern"):
        prop.pop(key, None)
    prop["enum"] = unique
    return result


def _parameters(schema: Mapping[str, Any]) -> dict[str, Any]:
    parameters: dict[str, Any] = schema["function"]["parameters"]
    return parameters


def exclude_repeat(schema: dict[str, Any], previous: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """`schema` without the call `previous` made (its arguments), or None when no other call is left.

    The grammar has no "not equal": the closed (`enum`) parameters are varied instead — variant i keeps
    the first i-1 closed parameters at their previous value and excludes it from parameter i. A tool
    with no closed parameter that could change is dropped for this turn. A schema already made of
    variants (`anyOf`, an earlier exclusion) has each variant narrowed the same way, so several earlier
    calls can be excluded one after the other.
    """
    if previous is None:
        return schema
    variants = _without(_parameters(schema), previous)
    if not variants:
        return None
    result = copy.deepcopy(schema)
    result["function"]["parameters"] = variants[0] if len(variants) == 1 else {"anyOf": variants}
    return result


def _without(parameters: dict[str, Any], previous: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The variants of `parameters` that admit every call it admits but `previous`."""
    if "anyOf" in parameters:
        return [kept for variant in parameters["anyOf"] for kept in _without(variant, previous)]
    properties: dict[str, Any] = parameters.get("properties", {})
    if any("enum" in p and n in previous and previous[n] not in p["enum"] for n, p in properties.items()):
        return [parameters]  # this variant cannot make the call again as it is
    closed = [n for n, p in properties.items() if "enum" in p and previous.get(n) in p["enum"]]
    variants: list[dict[str, Any]] = []
    for index, name in enumerate(closed):
        others = [c for c in properties[name]["enum"] if c != previous[name]]
        if not others:
            continue
        variant = copy.deepcopy(parameters)
        for fixed in closed[:index]:
            variant["properties"][fixed]["enum"] = [previous[fixed]]
        variant["properties"][name]["enum"] = others
        variants.append(variant)
    return variants


def ranked_lines(text: str, words: Sequence[str], quoted: Sequence[str], limit: int) -> list[str]:
    """Lines of `text` (stripped, non-empty) that hold a quoted value or a task word, best first."""
    lowered = [w.lower() for w in words]
    scored: list[tuple[int, int, str]] = []
    for number, line in enumerate(text.splitlines()):
        stripped = line.strip()
        if not stripped:
            continue
        low = stripped.lower()
        whole = sum(re.search(rf"\b{re.escape(w)}\b", low) is not None for w in lowered)
        score = 10 * sum(q in stripped for q in quoted) + 2 * whole + sum(w in low for w in lowered)
        if score:
            scored.append((-score, number, stripped))
    return [line for _, _, line in sorted(scored)[:limit]]


def quote_lines(output: str) -> str:
    """A tool output without `read_file`'s header and line numbers: the file's own text."""
    lines = output.splitlines()
    if len(lines) > 1 and all(
        _NUMBERED.match(line) for line in lines[1:] if line and not line.startswith("[")
    ):
        return "\n".join(_NUMBERED.sub("", line) for line in lines[1:] if not line.startswith("["))
    return output
