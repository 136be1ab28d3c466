"""Shared fixtures: real local model servers for end-to-end tests of backends and the agent."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from servers.ollama_server import OllamaServer
from servers.openai_server import OpenAIServer


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    """A started OpenAI-compatible server on 127.0.0.1 knowing model "test-model"; stopped afterwards."""
    with OpenAIServer(models=["test-model"]) as server:
        yield server


@pytest.fixture
def ollama_server() -> Iterator[OllamaServer]:
    """A started Ollama server on 127.0.0.1 knowing model "test-model"; stopped afterwards."""
    with OllamaServer(models=["test-model"]) as server:
        yield server
