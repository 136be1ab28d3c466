"""`auto` tool mode decides from what the server says and does: `/props`, `/api/show`, a 400, token counts."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from servers.ollama_server import OllamaServer
from servers.openai_server import Call, OpenAIServer, Reply

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.base import Backend
from asi_agent.backends.capabilities import same_model, tools_unrendered
from asi_agent.backends.ollama import OllamaBackend, OllamaBackendConfig
from asi_agent.backends.openai import OpenAIBackend, OpenAIBackendConfig
from asi_agent.events import AgentEvent, RunFinished, SessionStarted, ToolFinished
from asi_agent.exceptions import ToolsUnsupportedError
from asi_agent.gate import GateConfig
from asi_agent.messages import Message
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry

TEXT_CALL = '[TOOL_CALL]read_file[ARGS]{"path": "notes.txt"}'


@pytest.fixture
async def openai_backend(openai_server: OpenAIServer) -> AsyncIterator[OpenAIBackend]:
    backend = OpenAIBackend(
        OpenAIBackendConfig(model="test-model", base_url=openai_server.base_url, retry_backoff=0.01)
    )
    yield backend
    await backend.aclose()


async def run_agent(root: Path, backend: Backend, task: str = "Read notes.txt") -> list[AgentEvent]:
    (root / "notes.txt").write_text("remember the milk\n")
    state = root / ".asi"
    session = SessionStore(state).create()
    ctx = ToolContext(root, Journal(state), session_id=session.id)
    config = AgentConfig(gate=GateConfig(approval="yolo"), tool_mode="auto", max_turns=4)
    agent = Agent(backend, ToolRunner(default_registry(), ctx), session, "system", config)
    return [event async for event in agent.run(task)]


def started(events: list[AgentEvent]) -> SessionStarted:
    return next(e for e in events if isinstance(e, SessionStarted))


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


async def test_props_saying_no_tools_makes_auto_use_text_mode(
    tmp_path: Path,
    openai_server: OpenAIServer,
    openai_backend: OpenAIBackend,
    caplog: pytest.LogCaptureFixture,
):
    openai_server.props = {"chat_template_caps": {"supports_tools": False}, "default_generation_settings": {}}
    openai_server.reply(TEXT_CALL, "The notes say: remember the milk.\nAGENT_STATUS: DONE")

    events = await run_agent(tmp_path, openai_backend)

    assert started(events).tool_mode == "text"
    assert all("tools" not in body for body in openai_server.chat_bodies)
    assert [e.ok for e in events if isinstance(e, ToolFinished)] == [True]
    assert isinstance(events[-1], RunFinished) and events[-1].status == "DONE"
    said = [w for w in warnings(caplog) if "cannot render tools" in w]
    assert len(said) == 1 and "using text mode" in said[0]


async def test_props_saying_tools_keeps_native_mode(
    tmp_path: Path, openai_server: OpenAIServer, openai_backend: OpenAIBackend
):
    openai_server.props = {"chat_template_caps": {"supports_tools": True}}
    openai_server.reply(Reply(calls=[Call("read_file", {"path": "notes.txt"})]), "Done.\nAGENT_STATUS: DONE")

    events = await run_agent(tmp_path, openai_backend)

    assert started(events).tool_mode == "native"
    assert all("tools" in body for body in openai_server.chat_bodies)


async def test_props_is_asked_once_for_both_the_tool_mode_and_the_context_window(
    openai_server: OpenAIServer, openai_backend: OpenAIBackend
):
    openai_server.n_ctx = 8192

    assert await openai_backend.supports_native_tools() is True
    assert await openai_backend.context_window() == 8192

    assert [r.path for r in openai_server.requests] == ["/props"]


async def test_older_llamacpp_top_level_supports_tools_is_read(openai_server: OpenAIServer, openai_backend):
    openai_server.props = {"supports_tools": False}

    assert await openai_backend.supports_native_tools() is False


async def test_a_server_without_props_is_assumed_to_take_tools(openai_backend: OpenAIBackend):
    assert await openai_backend.supports_native_tools() is True


async def test_tools_dropped_silently_are_noticed_and_auto_falls_back_once(
    tmp_path: Path,
    openai_server: OpenAIServer,
    openai_backend: OpenAIBackend,
    caplog: pytest.LogCaptureFixture,
):
    openai_server.drop_tools = True  # accepts the tools, never shows them to the model
    openai_server.reply("I read notes.txt: it holds a recipe.", TEXT_CALL, "It says remember the milk.")

    events = await run_agent(tmp_path, openai_backend)

    bodies = openai_server.chat_bodies
    assert "tools" in bodies[0] and all("tools" not in body for body in bodies[1:])
    assert started(events).tool_mode == "native"  # what auto chose before the server gave itself away
    assert [e.ok for e in events if isinstance(e, ToolFinished)] == [True]
    said = [w for w in warnings(caplog) if "not show tools to the model" in w]
    assert len(said) == 1 and "switching to text mode" in said[0]


async def test_tools_rendered_pass_the_consistency_check(openai_server: OpenAIServer, openai_backend):
    tools = [s for s in default_registry().schemas()][:10]
    openai_server.reply("fine")

    completion = await openai_backend.complete([Message("user", "hi")], tools)

    assert completion.text == "fine" and completion.usage.prompt_tokens > 1000


async def test_tools_dropped_in_native_mode_is_a_clear_error(openai_server: OpenAIServer, openai_backend):
    openai_server.drop_tools = True
    openai_server.reply("invented")

    with pytest.raises(ToolsUnsupportedError, match=r"accepted 10 tools but the prompt held only \d+ tokens"):
        await openai_backend.complete([Message("user", "hi")], default_registry().schemas()[:10])


async def test_a_400_about_tools_makes_auto_fall_back(
    tmp_path: Path, openai_server: OpenAIServer, openai_backend: OpenAIBackend
):
    openai_server.reject_tools = True
    openai_server.reply(TEXT_CALL, "It says remember the milk.")

    events = await run_agent(tmp_path, openai_backend)

    assert [e.ok for e in events if isinstance(e, ToolFinished)] == [True]
    assert len(openai_server.chat_bodies) == 3 and "tools" in openai_server.chat_bodies[0]


async def test_ollama_without_the_tools_capability_uses_text_mode(
    tmp_path: Path, ollama_server: OllamaServer, caplog: pytest.LogCaptureFixture
):
    ollama_server.capabilities = ["completion"]
    ollama_server.reply(TEXT_CALL, "It says remember the milk.")
    backend = OllamaBackend(OllamaBackendConfig(model="test-model", host=ollama_server.host))

    events = await run_agent(tmp_path, backend)
    await backend.aclose()

    assert started(events).tool_mode == "text"
    assert all("tools" not in body for body in ollama_server.chat_bodies)
    assert len([w for w in warnings(caplog) if "no tools capability" in w]) == 1


@pytest.mark.parametrize(
    ("prompt", "messages", "tools", "dropped"),
    [
        (239, 200, 6000, True),  # the case seen with llama.cpp: 24 tools never rendered
        (6500, 200, 6000, False),
        (5000, 200, 6000, False),  # the estimate runs high: still rendered
        (40, 30, 100, False),  # too few tool tokens to judge
        (0, 200, 6000, False),  # no usage reported
    ],
)
def test_tools_unrendered(prompt: int, messages: int, tools: int, dropped: bool):
    assert tools_unrendered(prompt, messages, tools) is dropped


@pytest.mark.parametrize(
    ("asked", "answered", "same"),
    [
        ("gpt-4o", "gpt-4o-2024-08-06", True),
        ("qwen3:8b", "qwen3:8b", True),
        ("llama3", "llama3:latest", True),
        ("smollm2", "/models/SmolLM2-135M-Instruct.Q4_1.gguf", True),
        ("qwen3-8b", "llama-3.1-8b", False),
        ("gpt-4o", "gpt-3.5-turbo", False),
    ],
)
def test_same_model(asked: str, answered: str, same: bool):
    assert same_model(asked, answered) is same


@pytest.mark.parametrize(("n_ctx", "expected"), [(4096, "length"), (600, "context_full")])
async def test_a_length_stop_reads_the_context_size_from_props(
    openai_server: OpenAIServer, n_ctx: int, expected: str
):
    openai_server.props = {"default_generation_settings": {"n_ctx": n_ctx}}
    openai_server.reply(Reply(text="cut", finish_reason="length", prompt_tokens=300, completion_tokens=200))
    config = OpenAIBackendConfig(model="test-model", base_url=openai_server.base_url, max_tokens=200)
    backend = OpenAIBackend(config)

    completion = await backend.complete([Message("user", "hi")])
    await backend.aclose()

    # 300 + 200 tokens leave 3,596 of 4,096 for a continuation, but only 100 of 600.
    assert completion.finish_reason == expected
    assert [r.path for r in openai_server.requests] == ["/v1/chat/completions", "/props"]
