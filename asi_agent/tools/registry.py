"""The tool registry: names → specs, tolerant name resolution, and argument validation.

Built-in and plugin tools go through the same `register` path; plugin arguments are checked against
their own JSON Schema (with `jsonschema`, imported on first use). Everything a model gets wrong here
(an unknown tool, arguments that are not an object, a bad or missing parameter) raises a
`ModelFixableError` whose message tells the model exactly what to change.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from asi_agent.exceptions import CallFormatError, ToolArgumentsError
from asi_agent.tools.base import PluginArgs, ToolArgs, ToolSpec
from asi_agent.tools.catalog import builtin_specs, extension_specs
from asi_agent.tools.schema import (
    DEFAULT_LOCALE,
    literal_choices,
    load_locale,
    parameters_schema,
    tool_schema,
)

__all__ = ["REGISTRY_KEY", "ToolRegistry", "default_registry", "normalise_arguments", "snake_case"]

REGISTRY_KEY = "asi_agent.tools.registry"
"""The `ctx.state` key under which a session puts its live registry (tools registered mid-run land there)."""

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATORS = re.compile(r"[\s\-.]+")
_JSON_TYPES: tuple[tuple[type, str], ...] = (
    (bool, "a boolean"),
    (int, "a number"),
    (float, "a number"),
    (str, "a string"),
    (list, "an array"),
    (dict, "an object"),
)
_PREVIEW_CHARS = 80


def snake_case(name: str) -> str:
    """`ReadFile`, `readFile`, `read-file`, `READ_FILE` → `read_file`."""
    spaced = _SEPARATORS.sub("_", _CAMEL_BOUNDARY.sub("_", name.strip()))
    return re.sub(r"_+", "_", spaced).strip("_").lower()


def _loose(key: str) -> str:
    """A parameter name with case and separators ignored: `start_line` ~ `startLine` ~ `StartLine`."""
    return re.sub(r"[_\-\s]", "", key).lower()


def normalise_arguments(spec: ToolSpec, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Map aliases and near-miss names onto the real parameters; canonical names win over aliases.

    A `null` for a parameter that has a default means "not given", as small models often send it.
    """
    fields = spec.args.model_fields
    by_loose = {_loose(name): name for name in fields}
    out = {key: value for key, value in raw.items() if key in fields}
    for key, value in raw.items():
        if key in fields:
            continue
        target = spec.aliases.get(key) or by_loose.get(_loose(key))
        if target is None:
            out[key] = value  # left for pydantic to report as unknown
        elif target not in out:
            out[target] = value
    return {
        key: value
        for key, value in out.items()
        if not (value is None and key in fields and not fields[key].is_required())
    }


def _preview(value: object) -> str:
    """A short JSON rendering of what the model sent, with its JSON type."""
    text = json.dumps(value, ensure_ascii=False, default=repr)
    if len(text) > _PREVIEW_CHARS:
        text = text[: _PREVIEW_CHARS - 3] + "..."
    kind = next((label for cls, label in _JSON_TYPES if isinstance(value, cls)), None)
    return f"{text} ({kind})" if kind else text


class ToolRegistry:
    """The tools a session can call, by name; also derives their schemas and validates their calls."""

    def __init__(self, specs: Iterable[ToolSpec] = (), *, locale: str = DEFAULT_LOCALE) -> None:
        load_locale(locale)  # an unknown locale is a ConfigError now rather than at the first call
        self.locale = locale
        self._specs: dict[str, ToolSpec] = {}
        self._snake: dict[str, str] = {}
        for spec in specs:
            self.register(spec)

    def register(self, spec: ToolSpec) -> None:
        """Add a tool; a second tool with the same name is a ValueError."""
        if spec.name in self._specs:
            raise ValueError(
                f"a tool named {spec.name!r} is already registered ({self._specs[spec.name].source})"
            )
        self._specs[spec.name] = spec
        self._snake.setdefault(snake_case(spec.name), spec.name)

    def unregister(self, name: str) -> None:
        """Remove a tool (an MCP server's whose tool list changed); no error when it is not there."""
        self._specs.pop(name, None)
        self._snake = {k: v for k, v in self._snake.items() if v != name}

    def get(self, name: str) -> ToolSpec:
        """The spec registered under exactly `name` (KeyError otherwise; see `resolve_name`)."""
        return self._specs[name]

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __len__(self) -> int:
        return len(self._specs)

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(self._specs.values())

    def names(self) -> tuple[str, ...]:
        """Every registered name, in registration order."""
        return tuple(self._specs)

    def specs(self) -> tuple[ToolSpec, ...]:
        """Every registered spec, in registration order."""
        return tuple(self._specs.values())

    def is_implemented(self, name: str) -> bool:
        """Whether the tool has a function to run (some built-ins are declared before they exist)."""
        return self._specs[name].run is not None

    def schemas(self, locale: str | None = None, *, only_implemented: bool = True) -> list[dict[str, Any]]:
        """The model-facing definitions, in registration order (by default only tools that can run)."""
        chosen = locale or self.locale
        return [
            tool_schema(spec, chosen)
            for spec in self._specs.values()
            if spec.run is not None or not only_implemented
        ]

    def resolve_name(self, name: str) -> str:
        """The registered name a model meant: exact, else ignoring case and camelCase/kebab-case."""
        if name in self._specs:
            return name
        guess = snake_case(name)
        if guess in self._snake:
            return self._snake[guess]
        close = difflib.get_close_matches(guess, list(self._specs), n=3)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        raise CallFormatError(f"unknown tool {name!r}.{hint} Available tools: {', '.join(self._specs)}")

    def validate(self, name: str, raw_args: object) -> ToolArgs:
        """Turn a model's raw arguments into the tool's arguments model, or explain what to fix."""
        spec = self._specs[self.resolve_name(name)]
        if not isinstance(raw_args, Mapping):
            valid = ", ".join(spec.args.model_fields) or "none: send {}"
            raise ToolArgumentsError(
                f"{spec.name}: arguments must be a JSON object of parameter names and values, "
                f"received {_preview(raw_args)}. Valid parameters: {valid}."
            )
        if spec.parameters is not None:
            return _validate_plugin(spec, {str(key): value for key, value in raw_args.items()})
        arguments = normalise_arguments(spec, {str(key): value for key, value in raw_args.items()})
        try:
            return spec.args.model_validate(arguments)
        except ValidationError as exc:
            raise ToolArgumentsError(self._explain(spec, exc, arguments)) from None

    def _explain(self, spec: ToolSpec, exc: ValidationError, arguments: Mapping[str, Any]) -> str:
        """One line per problem, each starting with the tool name."""
        properties: Mapping[str, Mapping[str, Any]] = parameters_schema(spec, self.locale)["properties"]
        lines: list[str] = []
        seen: set[str] = set()
        for error in exc.errors():
            field = str(error["loc"][0]) if error["loc"] else ""
            if field in seen:
                continue  # one line per field, even when several items of a list are wrong
            seen.add(field)
            if error["type"] == "extra_forbidden":
                lines.append(_unknown_line(spec, field, arguments.get(field)))
            elif field in properties:
                lines.append(_field_line(spec, field, properties[field], error, arguments))
            else:
                lines.append(f"{spec.name}: {error['msg']}.")
        return "\n".join(lines)


def _expected(spec: ToolSpec, field: str, prop: Mapping[str, Any]) -> str:
    """What a parameter accepts, in the schema's words."""
    choices = literal_choices(spec.args.model_fields[field].annotation)
    if choices:
        return "one of " + ", ".join(json.dumps(choice, ensure_ascii=False) for choice in choices)
    kind = str(prop.get("type", "a value"))
    if kind == "array" and "items" in prop:
        return f"array of {prop['items'].get('type', 'values')}"
    if spec.args.model_fields[field].annotation in (int, int | None):
        return "whole number"
    return kind


def _field_line(
    spec: ToolSpec, field: str, prop: Mapping[str, Any], error: ErrorDetails, arguments: Mapping[str, Any]
) -> str:
    """The message for a missing or badly typed parameter."""
    expected = _expected(spec, field, prop)
    about = f" ({prop['description']})" if prop.get("description") else ""
    if error["type"] == "missing":
        return f"{spec.name}: missing required parameter '{field}': expected {expected}{about}."
    received = _preview(arguments.get(field))
    return f"{spec.name}: invalid parameter '{field}': expected {expected}{about}, received {received}."


def _unknown_line(spec: ToolSpec, field: str, value: object) -> str:
    """The message for a parameter the tool does not have, with the valid names."""
    valid = list(spec.args.model_fields)
    close = difflib.get_close_matches(field, valid, n=1)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    listing = ", ".join(valid) or "none: send {}"
    return (
        f"{spec.name}: unknown parameter '{field}' (received {_preview(value)}).{hint} "
        f"Valid parameters: {listing}."
    )


def _plugin_arguments(properties: Mapping[str, Any], raw: Mapping[str, Any]) -> dict[str, Any]:
    """Near-miss parameter names (case, `_`, `-`) mapped onto the schema's own; exact names win."""
    by_loose = {_loose(name): name for name in properties}
    out = {key: value for key, value in raw.items() if key in properties}
    for key, value in raw.items():
        target = by_loose.get(_loose(key))
        if key not in properties and (target is None or target in out):
            out[key] = value
        elif key not in properties and target is not None:
            out[target] = value
    return out


def _validate_plugin(spec: ToolSpec, raw: Mapping[str, Any]) -> PluginArgs:
    """Check a plugin call against its JSON Schema; the message names each bad field and what it expects."""
    import jsonschema  # type: ignore[import-untyped]  # noqa: PLC0415 - only sessions with plugins pay

    schema = dict(spec.parameters or {})
    properties: Mapping[str, Mapping[str, Any]] = schema.get("properties") or {}
    arguments = _plugin_arguments(properties, raw)
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = sorted(validator.iter_errors(arguments), key=lambda e: [str(part) for part in e.path])
    if not errors:
        return PluginArgs.model_validate(arguments)
    lines: list[str] = []
    for error in errors:
        for line in _plugin_lines(spec, properties, error, arguments):
            if line not in lines:
                lines.append(line)
    raise ToolArgumentsError("\n".join(lines))


def _plugin_lines(
    spec: ToolSpec, properties: Mapping[str, Mapping[str, Any]], error: Any, arguments: Mapping[str, Any]
) -> list[str]:
    """The message lines of one `jsonschema` error (missing, unknown, or badly typed parameters)."""
    if not error.path and error.validator == "required":
        missing = [name for name in error.validator_value if name not in arguments]
        return [
            f"{spec.name}: missing required parameter '{name}': expected "
            f"{_plugin_expected(properties.get(name, {}))}{_about(properties.get(name, {}))}."
            for name in missing
        ]
    if not error.path and error.validator == "additionalProperties":
        valid = ", ".join(properties) or "none: send {}"
        return [
            f"{spec.name}: unknown parameter '{name}' (received {_preview(arguments[name])}). "
            f"Valid parameters: {valid}."
            for name in arguments
            if name not in properties
        ]
    if error.path:
        field = str(error.path[0])
        prop = properties.get(field, {})
        detail = f" ({error.message})" if len(error.path) > 1 else ""
        return [
            f"{spec.name}: invalid parameter '{field}': expected {_plugin_expected(prop)}{_about(prop)}, "
            f"received {_preview(arguments.get(field))}{detail}."
        ]
    return [f"{spec.name}: {error.message}."]


def _plugin_expected(prop: Mapping[str, Any]) -> str:
    """What a plugin parameter accepts, in its schema's words."""
    if "enum" in prop:
        return "one of " + ", ".join(json.dumps(choice, ensure_ascii=False) for choice in prop["enum"])
    kind = prop.get("type", "a value")
    if isinstance(kind, list):
        kind = " or ".join(str(item) for item in kind)
    if kind == "array" and isinstance(prop.get("items"), Mapping) and "type" in prop["items"]:
        return f"array of {prop['items']['type']}"
    return str(kind)


def _about(prop: Mapping[str, Any]) -> str:
    return f" ({prop['description']})" if prop.get("description") else ""


def default_registry(*, locale: str = DEFAULT_LOCALE, extensions: bool = False) -> ToolRegistry:
    """A registry holding every built-in tool (the spec's 22 and the two `moss_*` tools), and with
    `extensions` the extension tools after them (`todo_write`, `save_memory`, `web_fetch`, `web_search`)."""
    specs = (*builtin_specs(), *extension_specs()) if extensions else builtin_specs()
    return ToolRegistry(specs, locale=locale)
