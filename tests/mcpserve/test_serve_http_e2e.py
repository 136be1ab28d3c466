"""`asi-agent mcp serve --http PORT`: streamable HTTP on loopback behind a bearer token, driven by the
official MCP Python client: refused without the token, a read and an edit with it (undone afterwards), and a
proxied MCP server's changed tool list announced to the HTTP client as over stdio."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.asi_cli import asi, model_free_env
from tests.mcp_helpers import free_port, listening

mcp = pytest.importorskip("mcp")
from mcp.client.streamable_http import streamable_http_client  # noqa: E402 - after the skip
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402

TOKEN = "serve-test-token"
MARKERS = Path(__file__).resolve().parents[1] / "servers" / "mcp_markers.py"


def _serve(tmp_path: Path, *options: str) -> Iterator[tuple[Path, str]]:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    port = free_port()
    env = {**model_free_env(), "ASI_CONFIG_DIR": str(tmp_path / "config"), "ASI_MCP_TOKEN": TOKEN}
    argv = [sys.executable, "-m", "asi_agent", "mcp", "serve", "--http", str(port), "--cwd", str(root)]
    with listening([*argv, "--approval", "auto-edit", *options], port, env=env, seconds=60):
        yield root, f"http://127.0.0.1:{port}/mcp"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    yield from _serve(tmp_path)


@pytest.fixture
def proxying(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """Serving every tool, with the user's `mcp.json` naming a server whose tool list grows."""
    (tmp_path / "config").mkdir()
    servers = {"markers": {"command": sys.executable, "args": [str(MARKERS)]}}
    (tmp_path / "config" / "mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    yield from _serve(tmp_path, "--tools", "all")


def _client(url: str, heard: list[Any] | None = None) -> Any:
    """An initialised MCP client session over streamable HTTP with the token (an async context)."""

    @asynccontextmanager
    async def opened() -> AsyncIterator[Any]:
        async def handler(message: Any) -> None:
            if heard is not None:
                heard.append(message)

        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with (
            create_mcp_http_client(headers=headers) as client,
            streamable_http_client(url, http_client=client) as (read, write),
            mcp.ClientSession(read, write, message_handler=handler) as session,
        ):
            yield session, await session.initialize()

    return opened()


def test_without_the_token_is_refused(served: tuple[Path, str]) -> None:
    _, url = served
    response = httpx2.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert response.status_code == 401


def test_read_and_edit_over_http_then_undo(served: tuple[Path, str]) -> None:
    root, url = served

    async def session() -> tuple[list[str], str, bool]:
        async with _client(url) as (session, _):
            names = [tool.name for tool in (await session.list_tools()).tools]
            read_result = await session.call_tool("read_file", {"path": "notes.txt"})
            edit = await session.call_tool(
                "replace_text", {"path": "notes.txt", "oldText": "beta", "newText": "gamma"}
            )
            return names, read_result.content[0].text, edit.is_error

    names, text, failed = asyncio.run(session())
    assert "read_file" in names and "beta" in text and not failed
    assert (root / "notes.txt").read_text(encoding="utf-8") == "alpha\ngamma\n"
    undone = asi("undo", "--cwd", str(root), cwd=root)
    assert undone.returncode == 0, undone.stderr
    assert (root / "notes.txt").read_text(encoding="utf-8") == "alpha\nbeta\n"


def test_a_proxied_servers_changed_tools_are_announced_over_http(proxying: tuple[Path, str]) -> None:
    """The capability says the tool list may change, and after the proxied server grows a tool the HTTP
    client hears `tools/list_changed` and its next list offers the new tool."""
    _, url = proxying
    heard: list[Any] = []

    async def session() -> tuple[bool | None, bool, set[str]]:
        async with _client(url, heard) as (session, initialized):
            grown = await session.call_tool("markers__grow", {})
            for _ in range(100):
                if any(getattr(m, "method", None) == "notifications/tools/list_changed" for m in heard):
                    break
                await asyncio.sleep(0.1)
            names = {tool.name for tool in (await session.list_tools()).tools}
            return initialized.capabilities.tools.list_changed, grown.is_error, names

    declared, failed, names = asyncio.run(session())
    assert declared is True and not failed
    assert any(getattr(m, "method", None) == "notifications/tools/list_changed" for m in heard)
    assert "markers__late" in names
