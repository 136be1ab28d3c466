"""`asi-agent mcp serve --http PORT`: streamable HTTP on loopback behind a bearer token, driven by the
official MCP Python client: refused without the token, a read and an edit with it (undone afterwards)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from tests.asi_cli import asi, model_free_env
from tests.mcp_helpers import free_port, listening

mcp = pytest.importorskip("mcp")
from mcp.client.streamable_http import streamable_http_client  # noqa: E402 - after the skip
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402

TOKEN = "serve-test-token"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    port = free_port()
    env = {**model_free_env(), "ASI_CONFIG_DIR": str(tmp_path / "config"), "ASI_MCP_TOKEN": TOKEN}
    argv = [sys.executable, "-m", "asi_agent", "mcp", "serve", "--http", str(port), "--cwd", str(root)]
    with listening([*argv, "--approval", "auto-edit"], port, env=env, seconds=60):
        yield root, f"http://127.0.0.1:{port}/mcp"


def test_without_the_token_is_refused(served: tuple[Path, str]) -> None:
    _, url = served
    response = httpx2.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert response.status_code == 401


def test_read_and_edit_over_http_then_undo(served: tuple[Path, str]) -> None:
    root, url = served

    async def session() -> tuple[list[str], str, bool]:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with (
            create_mcp_http_client(headers=headers) as client,
            streamable_http_client(url, http_client=client) as (read, write),
            mcp.ClientSession(read, write) as session,
        ):
            await session.initialize()
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
