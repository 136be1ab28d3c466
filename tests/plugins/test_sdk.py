"""The plugin SDK: `@tool` turns typed functions into tools with a JSON schema; errors reach the model."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import asi_agent.sdk as sdk
from asi_agent.exceptions import ToolArgumentsError
from asi_agent.exceptions import ToolError as RuntimeToolError
from asi_agent.sdk import BaseModel, Field, PluginContext, SdkTool, ToolError, ToolResult, tool


class GreetArgs(BaseModel):
    name: str = Field(description="Who to greet")
    title: str = ""
    times: int = Field(1, ge=1, le=3)


@tool
def greet(args: GreetArgs, ctx: PluginContext) -> str:
    """Greet somebody politely."""
    return " ".join([f"hello {args.title}{args.name}"] * args.times)


@tool(name="shout", description="Greet loudly", risk="write")
async def loud(args: GreetArgs, ctx: PluginContext) -> ToolResult:
    return ToolResult(f"HELLO {args.name.upper()}", data={"root": ctx.root.name})


class EchoModel:
    async def ask(self, prompt: str, *, system: str | None = None) -> str:
        return f"model says: {prompt}"


def test_decorator_derives_name_description_risk_and_schema():
    assert isinstance(greet, SdkTool)
    assert (greet.name, greet.description, greet.risk) == ("greet", "Greet somebody politely.", "read")
    assert (loud.name, loud.description, loud.risk) == ("shout", "Greet loudly", "write")
    assert greet.parameters == {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Who to greet"},
            "title": {"type": "string", "default": ""},  # a parameter named "title" survives title stripping
            "times": {"type": "integer", "default": 1, "minimum": 1, "maximum": 3},
        },
        "required": ["name"],
    }


def test_manifest_entry():
    assert loud.manifest_entry("greetings:loud") == {
        "name": "shout",
        "description": "Greet loudly",
        "parameters": loud.parameters,
        "risk": "write",
        "run": {"type": "python", "entry": "greetings:loud"},
    }


async def test_sync_and_async_tools_run_and_render(tmp_path):
    ctx = PluginContext(root=tmp_path)
    assert await greet.invoke({"name": "Ann", "title": "Dr ", "times": 2}, ctx) == "hello Dr Ann hello Dr Ann"
    assert await loud.invoke({"name": "ann"}, ctx) == f'HELLO ANN\n{{\n  "root": "{tmp_path.name}"\n}}'


async def test_invalid_arguments_name_the_field(tmp_path):
    with pytest.raises(ToolArgumentsError, match=r"greet: invalid arguments: 'times': Input should be less"):
        await greet.invoke({"name": "Ann", "times": 9}, PluginContext(root=tmp_path))


async def test_ask_model(tmp_path):
    assert await PluginContext(root=tmp_path, model=EchoModel()).ask_model("hi") == "model says: hi"
    with pytest.raises(ToolError, match="needs the session's model"):
        await PluginContext(root=tmp_path).ask_model("hi")


def test_tool_error_is_the_runtime_one():
    assert ToolError is RuntimeToolError


def test_first_parameter_must_be_a_pydantic_model():
    with pytest.raises(TypeError, match="must be annotated with a pydantic model"):

        @tool
        def bad(args: dict, ctx: PluginContext) -> str:
            return ""


async def test_wrong_return_type_is_a_plugin_bug(tmp_path):
    @tool
    def numbers(args: GreetArgs, ctx: PluginContext) -> str:
        return 42  # type: ignore[return-value]

    with pytest.raises(TypeError, match="returned int; return str or ToolResult"):
        await numbers.invoke({"name": "x"}, PluginContext(root=tmp_path))


def test_explicit_all():
    assert set(sdk.__all__) == {
        "BaseModel",
        "Field",
        "PluginContext",
        "Risk",
        "SdkTool",
        "ToolError",
        "ToolResult",
        "tool",
    }


def test_sdk_import_is_cheap():
    heavy = "('mcp', 'httpx', 'openai', 'jsonschema')"
    code = f"import sys, asi_agent.sdk; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=Path(__file__).parent
    )
    assert out.stdout.strip() == "[]"
