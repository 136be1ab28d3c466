"""How asi-agent reaches one MCP server: a contained process over stdio, or a remote one over streamable
HTTP or the older SSE transport; with `${VAR}` / `${VAR:-default}` replaced from the environment first,
as Claude Code does for `.mcp.json`."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from asi_agent.exceptions import ToolError
from asi_agent.plugins.runners import command_argv
from asi_agent.sandbox import Sandbox

if TYPE_CHECKING:
    from asi_agent.plugins.manifest import McpServerDef

__all__ = ["expand_definition", "open_transport"]

_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def _expand(text: str, env: Mapping[str, str], where: str) -> str:
    def one(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        if name in env:
            return env[name]
        if default is not None:
            return default
        raise ToolError(f"{where}: the environment variable {name} is not set (write ${{{name}:-default}})")

    return _VARIABLE.sub(one, text)


def expand_definition(definition: McpServerDef, env: Mapping[str, str] | None = None) -> McpServerDef:
    """The definition with `${VAR}` replaced in command, args, env, url and headers; ToolError names a
    variable that is not set and has no default."""
    env = os.environ if env is None else env
    return definition.model_copy(
        update={
            "command": _expand(definition.command, env, "command") if definition.command else None,
            "args": [_expand(arg, env, "args") for arg in definition.args],
            "env": {key: _expand(value, env, f"env.{key}") for key, value in definition.env.items()},
            "url": _expand(definition.url, env, "url") if definition.url else None,
            "headers": {
                key: _expand(value, env, f"headers.{key}") for key, value in definition.headers.items()
            },
        }
    )


@contextlib.asynccontextmanager
async def open_transport(
    definition: McpServerDef,
    *,
    cwd: Path,
    plugin_dir: Path,
    sandbox: Sandbox | None,
    errlog: IO[str] | None,
    auth: Any = None,
) -> AsyncIterator[tuple[Any, Any]]:
    """The (read, write) streams of the server's transport, open for the block; `auth` is an httpx Auth
    (OAuth) for remote servers."""
    kind = definition.transport
    if kind == "stdio":
        async with _stdio(
            definition, cwd=cwd, plugin_dir=plugin_dir, sandbox=sandbox, errlog=errlog
        ) as streams:
            yield streams
        return
    assert definition.url is not None  # the model's validator: a remote server has one
    headers = dict(definition.headers)
    if kind == "sse":
        from mcp.client.sse import sse_client  # noqa: PLC0415 - heavy

        async with sse_client(
            definition.url, headers=headers, timeout=definition.timeout, auth=auth
        ) as streams:
            yield streams[0], streams[1]
        return
    from mcp.client.streamable_http import streamable_http_client  # noqa: PLC0415 - heavy
    from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: PLC0415

    async with (
        create_mcp_http_client(headers=headers, auth=auth) as client,
        streamable_http_client(definition.url, http_client=client) as streams,
    ):
        yield streams[0], streams[1]


@contextlib.asynccontextmanager
async def _stdio(
    definition: McpServerDef, *, cwd: Path, plugin_dir: Path, sandbox: Sandbox | None, errlog: IO[str] | None
) -> AsyncIterator[tuple[Any, Any]]:
    from mcp import StdioServerParameters, stdio_client  # noqa: PLC0415 - heavy

    assert definition.command is not None  # the model's validator: a stdio server has one
    argv = command_argv([definition.command, *definition.args], root=cwd, plugin_dir=plugin_dir)
    if sandbox is not None:  # contained like every command, with what the manifest says it needs
        network = True if definition.network else None
        argv = sandbox.wrap(
            argv, cwd=cwd, network=network, writable=definition.writable, extra_env=definition.env
        )
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=definition.env or None, cwd=cwd)
    async with stdio_client(params, errlog=errlog) as streams:  # type: ignore[arg-type]
        yield streams[0], streams[1]
