"""Everything a plugin author needs, in one import.

    from asi_agent.sdk import BaseModel, PluginContext, ToolError, tool

    class CountArgs(BaseModel):
        path: str

    @tool(description="Count the lines of a file", risk="read")
    def count_lines(args: CountArgs, ctx: PluginContext) -> str:
        file = ctx.root / args.path
        if not file.is_file():
            raise ToolError(f"{args.path} does not exist; give a file path relative to the project root")
        return str(len(file.read_text().splitlines()))

Ship it in a plugin package (`asi-agent plugins new NAME` starts one: an entry point in the
`asi_agent.plugins` group naming the module), or register it in the project's `moss-tools.json` with
`asi-agent plugins add plugins/count.py:count_lines` (the entry is `count_lines.manifest_entry(...)`).
`asi_agent.sdk.testing.call_tool` runs it in a test as a session would.
A tool may be sync or async and return a `str` or a `ToolResult`; raising `ToolError` sends its message
to the model so it can correct itself. `BaseModel` and `Field` are pydantic's, re-exported so that this
is the only import a plugin needs. This module stays cheap to import.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_type_hints, overload

from pydantic import BaseModel, Field, ValidationError

from asi_agent.exceptions import ToolArgumentsError, ToolError
from asi_agent.tools.base import ModelAccess, Risk

__all__ = ["BaseModel", "Field", "PluginContext", "Risk", "SdkTool", "ToolError", "ToolResult", "tool"]


@dataclass(frozen=True, slots=True)
class ToolResult:
    """A tool's result: the text the model reads, and optional structured data appended as JSON."""

    output: str
    data: Mapping[str, Any] | None = None

    def render(self) -> str:
        """The text sent to the model."""
        if self.data is None:
            return self.output
        return f"{self.output}\n{json.dumps(self.data, ensure_ascii=False, indent=2, default=str)}"


@dataclass(slots=True)
class PluginContext:
    """What a plugin tool may use: the project root, a logger, and the session's model."""

    root: Path
    logger: logging.Logger = field(default_factory=lambda: logging.getLogger("asi_agent.plugins"))
    model: ModelAccess | None = None

    async def ask_model(self, prompt: str, *, system: str | None = None) -> str:
        """Ask the session's model a plain question; ToolError when the session has no model."""
        if self.model is None:
            raise ToolError("this tool needs the session's model, and none is available here")
        return await self.model.ask(prompt, system=system)


ToolFunc = Callable[[Any, PluginContext], "str | ToolResult | Awaitable[str | ToolResult]"]


class SdkTool:
    """A function turned into a tool by `@tool`: its name, description, risk and JSON schema."""

    def __init__(self, function: ToolFunc, *, name: str | None, description: str | None, risk: Risk) -> None:
        self.function = function
        self.name = name or function.__name__
        self.description = (description or inspect.getdoc(function) or "").strip()
        self.risk: Risk = risk
        self.args_model = _args_model(function)
        self.parameters = _json_schema(self.args_model)
        """The JSON-Schema `parameters` to put in `moss-tools.json`."""

    def manifest_entry(self, entry: str) -> dict[str, Any]:
        """The `moss-tools.json` tool entry for this tool, given its `module:function`."""
        return {
            "name": self.name,
            "description": self.description,
            "parameters": self.parameters,
            "risk": self.risk,
            "run": {"type": "python", "entry": entry},
        }

    async def invoke(self, arguments: Mapping[str, Any], ctx: PluginContext) -> str:
        """Validate the arguments with the tool's model, run it, and return the text for the model."""
        try:
            args = self.args_model.model_validate(dict(arguments))
        except ValidationError as exc:
            problems = "; ".join(
                f"'{'.'.join(str(p) for p in error['loc'])}': {error['msg']}" for error in exc.errors()
            )
            raise ToolArgumentsError(f"{self.name}: invalid arguments: {problems}") from None
        if inspect.iscoroutinefunction(self.function):
            result = await self.function(args, ctx)
        else:
            # A sync tool may block (files, subprocesses): keep the event loop free.
            result = await asyncio.to_thread(self.function, args, ctx)
        if isinstance(result, ToolResult):
            return result.render()
        if isinstance(result, str):
            return result
        raise TypeError(f"plugin tool {self.name} returned {type(result).__name__}; return str or ToolResult")

    def __call__(self, args: Any, ctx: PluginContext) -> Any:
        """Call the function directly (for the author's own tests)."""
        return self.function(args, ctx)


@overload
def tool(function: ToolFunc, /) -> SdkTool: ...


@overload
def tool(
    *, name: str | None = None, description: str | None = None, risk: Risk = "read"
) -> Callable[[ToolFunc], SdkTool]: ...


def tool(
    function: ToolFunc | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    risk: Risk = "read",
) -> SdkTool | Callable[[ToolFunc], SdkTool]:
    """Turn `def f(args: SomeArgs, ctx: PluginContext) -> str | ToolResult` (sync or async) into a tool."""

    def wrap(target: ToolFunc) -> SdkTool:
        return SdkTool(target, name=name, description=description, risk=risk)

    return wrap(function) if function is not None else wrap


def _args_model(function: ToolFunc) -> type[BaseModel]:
    """The pydantic model annotating the function's first parameter."""
    hints = get_type_hints(function)
    params = list(inspect.signature(function).parameters)
    model = hints.get(params[0]) if params else None
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise TypeError(
            f"@tool: the first parameter of {function.__name__} must be annotated with a pydantic model"
        )
    return model


def _json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema without pydantic's `title`s (they only cost the model tokens)."""
    schema = model.model_json_schema()
    return _strip_titles(schema)  # type: ignore[no-any-return]


def _strip_titles(node: Any, *, names: bool = False) -> Any:
    """Drop `title` keywords; `names` marks a `properties` map, whose keys are parameter names."""
    if isinstance(node, dict):
        return {
            key: _strip_titles(value, names=key in ("properties", "$defs") and not names)
            for key, value in node.items()
            if names or key != "title"
        }
    if isinstance(node, list):
        return [_strip_titles(item) for item in node]
    return node
