"""Helpers of the MCP tests: a test server of `tests/servers` on a free loopback port, and the `mcp.json`
that names one."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SERVERS = Path(__file__).resolve().parent / "servers"


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(port: int, seconds: float = 30) -> None:
    """Wait until something accepts connections on the loopback port (a slow start fails the test later)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)


@contextmanager
def listening(
    argv: Sequence[str], port: int, *, env: dict[str, str] | None = None, seconds: float = 30
) -> Iterator[None]:
    """Run `argv` until the block ends, once it listens on `port`; then stop it."""
    process = subprocess.Popen(list(argv), env=env)
    try:
        wait_for(port, seconds)
        yield
    finally:
        process.terminate()
        process.wait(20)


@contextmanager
def serving(server: str, *args: str) -> Iterator[int]:
    """The script `tests/servers/<server>` on a free port (its first argument), then `args`; the port."""
    port = free_port()
    with listening([sys.executable, str(SERVERS / server), str(port), *args], port):
        yield port


def remote_server(url: str, token: str, transport: str = "http") -> dict[str, Any]:
    """The configuration of a remote server that wants `token` as its bearer."""
    return {"type": transport, "url": url, "headers": {"Authorization": f"Bearer {token}"}}


def write_mcp_json(folder: Path, name: str, server: dict[str, Any], file: str = "mcp.json") -> None:
    """Write `folder/file` naming the one server `name`, in Claude Code's format."""
    (folder / file).write_text(json.dumps({"mcpServers": {name: server}}))
