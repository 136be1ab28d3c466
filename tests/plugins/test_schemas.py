"""Plugin schemas are offered self-contained: local `$ref` inlined; a bad one costs only that tool."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from asi_cli import run_cli
from servers.openai_server import OpenAIServer

from asi_agent.plugins import attach_mcp_servers, build_registry
from asi_agent.plugins.schemas import inline_refs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal

OPTIONS = {"type": "object", "properties": {"lines": {"type": "boolean"}}}


def params(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, **extra}


def tool(name: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "description": f"The {name} plugin",
        "parameters": parameters,
        "risk": "read",
        "run": {"type": "command", "command": ["python3", "-c", "print('ok')"]},
    }


DANGLING = tool(
    "word_count", params({"options": {"$ref": "#/$defs/Missing"}}, **{"$defs": {"Options": OPTIONS}})
)
GOOD = tool("line_count", params({"options": {"$ref": "#/$defs/Options"}}, **{"$defs": {"Options": OPTIONS}}))


def write_manifest(root: Path, *tools: dict[str, Any]) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "moss-tools.json").write_text(json.dumps({"version": 1, "tools": list(tools)}), encoding="utf-8")


def test_local_refs_are_inlined_and_definitions_dropped():
    schema = params(
        {
            "options": {"$ref": "#/$defs/Options", "description": "how to count"},
            "paths": {"type": "array", "items": {"$ref": "#/definitions/Path"}},
            "again": {"$ref": "#/properties/paths"},
        },
        **{"$defs": {"Options": OPTIONS}, "definitions": {"Path": {"type": "string", "minLength": 1}}},
    )

    inlined, field, reason = inline_refs(schema)

    assert (field, reason) == ("", "")
    assert inlined == params(
        {
            "options": {**OPTIONS, "description": "how to count"},
            "paths": {"type": "array", "items": {"type": "string", "minLength": 1}},
            "again": {"type": "array", "items": {"type": "string", "minLength": 1}},
        }
    )
    assert "$ref" not in json.dumps(inlined)


def test_a_property_named_like_a_keyword_is_kept():
    schema = params({"definitions": {"type": "string"}, "$ref": {"type": "string"}})

    assert inline_refs(schema)[0] == schema


@pytest.mark.parametrize(
    ("schema", "field", "words"),
    [
        (params({"a": {"$ref": "#/$defs/Nope"}}), "parameters.properties.a.$ref", "points to nothing"),
        (
            params({"a": {"$ref": "other.json#/x"}}),
            "parameters.properties.a.$ref",
            "points outside the schema",
        ),
        (
            params(
                {"node": {"$ref": "#/$defs/Node"}},
                **{"$defs": {"Node": params({"next": {"$ref": "#/$defs/Node"}})}},
            ),
            "parameters.properties.node.properties.next.$ref",
            "refers to itself",
        ),
        (
            params({"a": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/X"}]}}),
            "parameters.properties.a.anyOf.1.$ref",
            "nothing",
        ),
    ],
)
def test_unresolvable_refs_name_the_field(schema: dict[str, Any], field: str, words: str):
    inlined, where, reason = inline_refs(schema)

    assert inlined is None and where == field and words in reason


def test_a_dangling_ref_makes_only_that_tool_unavailable(tmp_path: Path):
    root = tmp_path / "project"
    write_manifest(root, DANGLING, GOOD)

    registry, problems = build_registry(root, tmp_path / "user", locale="en", trusted=True)

    assert "word_count" not in registry.names()
    assert [str(p) for p in problems] == [
        "moss-tools.json: tool 'word_count': field 'parameters.properties.options.$ref': "
        "$ref '#/$defs/Missing' points to nothing in the schema"
    ]
    offered = next(s for s in registry.schemas() if s["function"]["name"] == "line_count")
    assert offered["function"]["parameters"] == params({"options": OPTIONS})


def test_tools_check_reports_the_dangling_ref(tmp_path: Path):
    root = tmp_path / "project"
    write_manifest(root, DANGLING, GOOD)

    checked = run_cli("tools", "--check", "--trust", cwd=root)

    assert checked.returncode == 1
    assert (
        "asi-agent: error: moss-tools.json: tool 'word_count': field 'parameters.properties.options.$ref': "
        "$ref '#/$defs/Missing' points to nothing in the schema" in checked.stderr
    )
    assert "line_count" in checked.stdout and "word_count" not in checked.stdout


def test_a_run_with_a_dangling_ref_plugin_still_works(tmp_path: Path, openai_server: OpenAIServer):
    root = tmp_path / "project"
    write_manifest(root, DANGLING, GOOD)
    openai_server.reply("Nothing to change.\nAGENT_STATUS: DONE")

    ran = run_cli(
        "run",
        "--provider",
        "openai",
        "--base-url",
        openai_server.base_url,
        "--model",
        "test-model",
        "--tool-mode",
        "native",
        "--output-format",
        "json",
        "--trust",  # the project's own manifest is the one under test
        "say hello",
        cwd=root,
    )

    assert ran.returncode == 0, ran.stderr
    assert "tool 'word_count': field 'parameters.properties.options.$ref'" in ran.stderr
    sent = openai_server.chat_bodies[0]["tools"]
    names = [t["function"]["name"] for t in sent]
    assert "line_count" in names and "word_count" not in names
    assert "$ref" not in json.dumps(sent)


MCP_SERVER = """
from pydantic import BaseModel
from mcp.server.mcpserver import MCPServer

server = MCPServer("shapes")


class Point(BaseModel):
    x: int
    y: int


@server.tool(description="Distance between two points")
def distance(a: Point, b: Point) -> str:
    return str(abs(a.x - b.x) + abs(a.y - b.y))


if __name__ == "__main__":
    server.run("stdio")
"""


async def test_mcp_tool_schemas_are_inlined_too(tmp_path: Path):
    root = tmp_path / "project"
    root.mkdir()
    (root / "shapes.py").write_text(MCP_SERVER, encoding="utf-8")
    manifest = {
        "version": 1,
        "mcpServers": {"shapes": {"command": "{python}", "args": ["shapes.py"], "risk": "read"}},
    }
    (root / "moss-tools.json").write_text(json.dumps(manifest), encoding="utf-8")
    registry, problems = build_registry(root, tmp_path / "user", trusted=True)
    ctx = ToolContext(root, Journal(root / ".asi"))

    try:
        problems += await attach_mcp_servers(registry, ctx, user_dir=tmp_path / "user", trusted=True)
        parameters = registry.get("shapes__distance").parameters
    finally:
        await ctx.aclose()

    assert problems == []
    assert parameters is not None and "$ref" not in json.dumps(parameters) and "$defs" not in parameters
    point = parameters["properties"]["a"]
    assert point["type"] == "object" and set(point["properties"]) == {"x", "y"}
