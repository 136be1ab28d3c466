"""An MCP server's resources as two read-class tools: `<server>__list_resources` (resources and resource
templates) and `<server>__read_resource` (one by URI), registered when the server offers resources."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from asi_agent.exceptions import ToolError
from asi_agent.plugins.runners import MAX_OUTPUT_CHARS
from asi_agent.tools.base import PluginArgs, ToolArgs, ToolContext, ToolSpec

if TYPE_CHECKING:
    from asi_agent.plugins.mcp import McpConnection

__all__ = ["read_resource_text", "resource_specs"]

_URI_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "uri": {"type": "string", "description": "The resource's URI, as list_resources gives it"}
    },
    "required": ["uri"],
}


def resource_specs(server: str, connection: McpConnection) -> list[ToolSpec]:
    """The two resource tools of one server (none when it offers no resources)."""
    if not connection.has_resources:
        return []
    from asi_agent.plugins.mcp import mcp_tool_name  # noqa: PLC0415 - a cycle otherwise

    async def listing(args: ToolArgs, ctx: ToolContext) -> str:
        return await list_resources_text(connection)

    async def reading(args: ToolArgs, ctx: ToolContext) -> str:
        uri = args.model_dump(mode="json").get("uri")
        if not isinstance(uri, str) or not uri:
            raise ToolError("read_resource needs a `uri` (list_resources names them)")
        return await read_resource_text(connection, uri)

    list_name, read_name = mcp_tool_name(server, "list_resources"), mcp_tool_name(server, "read_resource")
    return [
        ToolSpec(
            name=list_name,
            args=PluginArgs,
            run=listing,
            risk="read",
            source=f"mcp:{server}",
            description=f"List the resources (and resource templates) of the MCP server {server}",
            parameters={"type": "object", "properties": {}},
        ),
        ToolSpec(
            name=read_name,
            args=PluginArgs,
            run=reading,
            risk="read",
            source=f"mcp:{server}",
            description=f"Read one resource of the MCP server {server} by its URI",
            parameters=_URI_SCHEMA,
        ),
    ]


async def list_resources_text(connection: McpConnection) -> str:
    """One line per resource (URI, name, description), then the templates."""
    try:
        resources = (await connection.session.list_resources()).resources
        templates = (await connection.session.list_resource_templates()).resource_templates
    except ToolError:
        raise
    except Exception as exc:  # a protocol error: the model must hear it
        raise ToolError(f"listing the resources failed: {exc}") from exc
    lines = [f"{r.uri}  {r.name}" + (f" — {r.description}" if r.description else "") for r in resources]
    lines += [f"{t.uri_template}  (template) {t.name}" for t in templates]
    return "\n".join(lines) or "the server lists no resources"


async def read_resource_text(connection: McpConnection, uri: str) -> str:
    """A resource's text (binary contents are named, not shown)."""
    try:
        result = await connection.session.read_resource(uri)
    except ToolError:
        raise
    except Exception as exc:  # no such resource, or a protocol error
        raise ToolError(f"reading {uri} failed: {exc}") from exc
    parts = [
        str(item.text) if hasattr(item, "text") else f"[binary {getattr(item, 'mime_type', None) or 'data'}]"
        for item in result.contents
    ]
    return "\n".join(parts)[:MAX_OUTPUT_CHARS] if parts else json.dumps({"uri": uri, "contents": []})
