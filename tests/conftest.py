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


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests see the same language whoever runs them: the tool texts (and so token counts on screen)
    follow the locale. A test about the locale sets its own."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
