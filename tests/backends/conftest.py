"""The HTTP backends' tests: a test server of each protocol with a factory of backends on it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from servers.ollama_server import OllamaServer
from servers.openai_server import OpenAIServer
from servers.scripted_http import ScriptedServer

from asi_agent.backends.ollama import OllamaBackend, OllamaBackendConfig
from asi_agent.backends.openai import OpenAIBackend, OpenAIBackendConfig

Backend = OpenAIBackend | OllamaBackend
Setup = tuple[ScriptedServer, Callable[..., Backend]]


@pytest.fixture(params=["openai", "ollama"])
async def setup(request: pytest.FixtureRequest) -> AsyncIterator[Setup]:
    """A started test server of one protocol, and a factory of backends on it (fast retries;
    options override the settings)."""
    made: list[Backend] = []
    server: ScriptedServer = OpenAIServer() if request.param == "openai" else OllamaServer()
    with server:

        def make(**options: Any) -> Backend:
            settings: dict[str, Any] = {"model": "test-model", "retry_backoff": 0.01, "idle_timeout": 5.0}
            settings |= options
            if isinstance(server, OpenAIServer):
                made.append(OpenAIBackend(OpenAIBackendConfig(base_url=server.base_url, **settings)))
            else:
                assert isinstance(server, OllamaServer)
                made.append(OllamaBackend(OllamaBackendConfig(host=server.host, **settings)))
            return made[-1]

        yield server, make
        for backend in made:
            await backend.aclose()
