"""Choosing the provider and the model when none is configured, against the real local test servers."""

from __future__ import annotations

import pytest
from servers.ollama_server import OllamaServer
from servers.openai_server import OpenAIServer

from asi_agent.config import AsiConfig
from asi_agent.exceptions import BackendError, ConfigError
from asi_agent.providers import create_backend, detect_provider


async def test_without_a_model_the_servers_only_model_is_used():
    with OpenAIServer(models=["the-only-one"]) as server:
        backend = create_backend(AsiConfig(provider="openai", base_url=server.base_url))
        try:
            assert backend.model_name == "the-only-one"
        finally:
            await backend.aclose()


def test_without_a_model_a_server_offering_several_asks_for_one():
    with OpenAIServer(models=["a", "b"]) as server, pytest.raises(ConfigError) as caught:
        create_backend(AsiConfig(provider="openai", base_url=server.base_url))
    assert "pass --model NAME" in str(caught.value) and "a, b" in str(caught.value)


def test_an_unreachable_server_is_a_one_line_error_naming_it():
    with pytest.raises(BackendError) as caught:
        create_backend(AsiConfig(provider="openai", base_url="http://127.0.0.1:9/v1"))
    assert "cannot reach the model server at http://127.0.0.1:9/v1" in str(caught.value)
    assert "\n" not in str(caught.value)


async def test_an_answering_ollama_is_detected_and_its_first_model_used(monkeypatch: pytest.MonkeyPatch):
    with OllamaServer(models=["first:7b", "second:1b"]) as server:
        monkeypatch.setenv("OLLAMA_HOST", server.host)
        config = AsiConfig()

        assert detect_provider(config) == "ollama"
        backend = create_backend(config)
        assert backend.model_name == "first:7b"
        await backend.aclose()

    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")
    assert detect_provider(AsiConfig()) == "local"
