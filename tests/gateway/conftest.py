"""A running `asi-agent serve` (the real command, as a subprocess) in front of a local fake upstream."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anthropic
import httpx2 as httpx  # the project's HTTP client
import openai
import pytest
from asi_cli import model_free_env
from servers.anthropic_server import AnthropicServer
from servers.openai_server import OpenAIServer

_LISTENING = re.compile(r"listening on (http://\S+)")


@dataclass
class Gateway:
    """A started gateway: its address, its upstream, its process and the log it writes."""

    url: str
    upstream: OpenAIServer
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def v1(self) -> str:
        """The base URL the SDKs take."""
        return f"{self.url}/v1"

    def log_lines(self) -> list[str]:
        """What the gateway wrote on standard error so far."""
        return self.log.read_text(encoding="utf-8").splitlines()

    def entries(self) -> list[dict[str, Any]]:
        """The request log lines, once every request answered so far has been logged: a request's line
        is written just after its answer went out, so a client can read the log before it is there.
        `/metrics` counts a request in the same step that logs it."""
        deadline = time.monotonic() + 10
        while True:
            metrics = httpx.get(f"{self.url}/metrics", timeout=10).text
            counted = re.search(r"^asi_gateway_requests_total (\d+)$", metrics, re.M)
            done = int(counted[1]) if counted else 0
            lines = [json.loads(line) for line in self.log_lines() if line.startswith("{")]
            if len(lines) >= done or time.monotonic() > deadline:
                return lines
            time.sleep(0.02)


def openai_client(gateway: Gateway) -> openai.OpenAI:
    """The official OpenAI client pointed at the gateway."""
    return openai.OpenAI(base_url=gateway.v1, api_key="unused", max_retries=0)


def claude_client(url: str) -> anthropic.Anthropic:
    """The official Anthropic client pointed at the gateway."""
    return anthropic.Anthropic(base_url=url, api_key="unused", max_retries=0)


def final_response(sdk: openai.OpenAI, *, stream: bool, **params: Any) -> Any:
    """A Responses API answer to `params`: created whole, or streamed and taken from the stream's end."""
    if stream:
        with sdk.responses.stream(**params) as events:
            return events.get_final_response()
    return sdk.responses.create(**params)


def final_message(client: anthropic.Anthropic, *, stream: bool, **params: Any) -> Any:
    """A Messages API answer to `params`: created whole, or streamed and taken from the stream's end."""
    if stream:
        with client.messages.stream(**params) as events:
            return events.get_final_message()
    return client.messages.create(**params)


def stop(process: subprocess.Popen[bytes], seconds: float = 10) -> None:
    """Stop a gateway process: terminated, killed when it has not ended after `seconds`."""
    process.terminate()
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()


def start_gateway(
    tmp_path: Path, upstream_url: str, *args: str, env: dict[str, str] | None = None
) -> tuple[str, subprocess.Popen[bytes], Path]:
    """`asi-agent serve --port 0 ARGS` in `tmp_path`; returns its address once it listens."""
    environ = model_free_env() | {"ASI_CONFIG_DIR": str(tmp_path / "user-config")} | (env or {})
    log = tmp_path / f"serve-{time.monotonic_ns()}.log"
    command = [sys.executable, "-m", "asi_agent", "serve", "--port", "0", "--provider", "openai"]
    command += ["--base-url", upstream_url, "--model", "test-model", *args]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=tmp_path, stdout=sink, stderr=sink, env=environ)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = _LISTENING.search(log.read_text(encoding="utf-8"))
        if found:
            return found.group(1), process, log
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    raise AssertionError(f"the gateway did not start:\n{log.read_text(encoding='utf-8')}")


@pytest.fixture
def serve(tmp_path: Path, openai_server: OpenAIServer) -> Iterator[Callable[..., Gateway]]:
    """Start gateways in front of the `openai_server` upstream (stopped at the end of the test)."""
    started: list[subprocess.Popen[bytes]] = []

    def start(*args: str, env: dict[str, str] | None = None) -> Gateway:
        url, process, log = start_gateway(tmp_path, openai_server.base_url, *args, env=env)
        started.append(process)
        return Gateway(url, openai_server, process, log)

    yield start
    for process in started:
        stop(process)


@pytest.fixture
def gateway(serve: Callable[..., Gateway]) -> Gateway:
    """A gateway that always emulates tool calling (the upstream gets no tools)."""
    return serve("--emulate", "always")


CLAUDE_KEY = "sk-ant-fake-0000"
"""The key the Messages API upstream of `claude` requires (it answers 401 to any other)."""


@pytest.fixture
def claude(tmp_path: Path) -> Iterator[tuple[str, AnthropicServer]]:
    """A gateway in front of a local Messages API server (`--provider anthropic`, tools native); yields the
    gateway's address and the server."""
    with AnthropicServer() as server:
        server.api_key = CLAUDE_KEY
        args = ("--provider", "anthropic", "--base-url", server.base_url, "--model", "claude-test")
        url, process, _log = start_gateway(
            tmp_path, "http://unused.invalid/v1", *args, env={"ANTHROPIC_API_KEY": CLAUDE_KEY}
        )
        try:
            yield url, server
        finally:
            stop(process)
