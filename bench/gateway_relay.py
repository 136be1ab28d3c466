"""A pass-through relay: what one more process between a client and the upstream costs, and nothing else.

It forwards bytes both ways (one upstream connection per client connection), on the gateway's event loop
(uvloop), parsing nothing. In `gateway_bench.py --relay` its added latency is the floor under any proxy's:
the hops and the wake-ups of one more process, which the gateway and claude-code-router pay too.

Run alone: `python bench/gateway_relay.py HOST PORT` prints the loopback port it listens on.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import cast
from urllib.parse import urlsplit

import uvloop


class _Back(asyncio.Protocol):
    """The upstream side of one relayed connection: what comes back goes to the client."""

    def __init__(self, client: asyncio.Transport) -> None:
        self.client = client

    def data_received(self, data: bytes) -> None:
        self.client.write(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.client.close()


class _Relayed(asyncio.Protocol):
    """The client side: bytes go upstream once its connection is open (those before it, held)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.upstream: asyncio.Transport | None = None
        self.held: list[bytes] = []
        self.task: asyncio.Task[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        client = cast(asyncio.Transport, transport)  # uvloop's transports are not asyncio's classes
        self.task = asyncio.get_running_loop().create_task(self._open(client))

    async def _open(self, client: asyncio.Transport) -> None:
        loop = asyncio.get_running_loop()
        upstream, _ = await loop.create_connection(lambda: _Back(client), self.host, self.port)
        self.upstream = upstream
        upstream.write(b"".join(self.held))

    def data_received(self, data: bytes) -> None:
        if self.upstream is None:
            self.held.append(data)
        else:
            self.upstream.write(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.upstream is not None:
            self.upstream.close()


async def _serve(host: str, port: int) -> None:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: _Relayed(host, port), "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


def start_relay(upstream: str) -> tuple[str, subprocess.Popen[bytes]]:
    """The relay, a subprocess, in front of `upstream` (a base URL): its base URL and process."""
    parts = urlsplit(upstream)
    command = [sys.executable, __file__, parts.hostname or "127.0.0.1", str(parts.port)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    assert process.stdout is not None
    port = process.stdout.readline().decode().strip()
    if not port.isdigit():
        raise SystemExit("the relay did not start")
    return upstream.replace(f":{parts.port}", f":{port}", 1), process


if __name__ == "__main__":
    uvloop.run(_serve(sys.argv[1], int(sys.argv[2])))
