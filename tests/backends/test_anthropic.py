"""`--provider anthropic`: the backend against a local server that speaks the Messages API, and the real
`asi-agent run` finishing a tool loop through it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from asi_cli import model_free_env
from servers.anthropic_server import AnthropicServer, Call, Reply

from asi_agent.backends.anthropic import AnthropicBackend, AnthropicBackendConfig
from asi_agent.exceptions import BackendError
from asi_agent.messages import Message, ToolCall

KEY = "sk-ant-fake-key-for-tests"
READ = {
    "type": "function",
    "function": {
        "name": "read_file",
        "description": "Read",
        "parameters": {"type": "object", "properties": {}},
    },
}


@pytest.fixture
def server() -> Iterator[AnthropicServer]:
    """A started Messages API server that wants the fake key."""
    with AnthropicServer() as started:
        started.api_key = KEY
        yield started


def backend(server: AnthropicServer, *, stream: bool = True, key: str = KEY) -> AnthropicBackend:
    """A backend talking to `server`."""
    config = AnthropicBackendConfig(model="claude-test", base_url=server.base_url, api_key=key, stream=stream)
    return AnthropicBackend(config.model_copy(update={"max_retries": 0}))


HISTORY = [
    Message("system", "Be brief."),
    Message("user", "Read a.py"),
    Message("assistant", "Looking.", tool_calls=(ToolCall("toolu_1", "read_file", {"path": "a.py"}),)),
    Message("tool", "no such file", tool_call_id="toolu_1", outcome="error"),
    Message("tool", "", tool_call_id="toolu_2"),
]


@pytest.mark.parametrize("stream", [True, False])
async def test_tool_use_comes_back_as_native_calls(server: AnthropicServer, stream: bool) -> None:
    server.reply(
        Reply(text="Reading.", calls=[Call("read_file", {"path": "b.py"}, id="toolu_9")], reasoning="hm")
    )
    deltas: list[str] = []
    reply = await backend(server, stream=stream).complete(HISTORY, [READ], on_delta=deltas.append)
    assert reply.native_calls[0].id == "toolu_9" and reply.native_calls[0].arguments == {"path": "b.py"}
    assert reply.finish_reason == "tool_calls"
    assert reply.text == "<think>hm</think>Reading."  # thinking is reasoning, never read for calls
    assert reply.usage.completion_tokens == 7
    assert ("".join(deltas) == "Reading.") is stream
    body = server.chat_bodies[-1]
    assert body["max_tokens"] == 4096 and body["system"] == "Be brief."
    assert body["tools"] == [
        {"name": "read_file", "description": "Read", "input_schema": {"type": "object", "properties": {}}}
    ]
    assert [t["role"] for t in body["messages"]] == ["user", "assistant", "user"]
    results = body["messages"][2]["content"]
    assert results[0] == {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": "no such file",
        "is_error": True,
    }
    assert results[1] == {"type": "tool_result", "tool_use_id": "toolu_2", "content": ""}


async def test_a_wrong_key_is_a_clear_error_without_the_key(server: AnthropicServer) -> None:
    with pytest.raises(BackendError) as caught:
        await backend(server, key="sk-ant-wrong-secret").complete([Message("user", "hi")])
    assert "401" in str(caught.value) and "sk-ant-wrong-secret" not in str(caught.value)


def test_run_finishes_a_tool_loop_with_claude(server: AnthropicServer, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.py").write_text("print('marker-4711')\n", encoding="utf-8")
    server.reply(
        Reply(calls=[Call("read_file", {"path": "a.py"}, id="toolu_a")]),
        Reply(text="a.py prints marker-4711.\nAGENT_STATUS: DONE"),
    )
    env = model_free_env() | {"ASI_CONFIG_DIR": str(tmp_path / "user-config"), "ANTHROPIC_API_KEY": KEY}
    command = [
        sys.executable,
        "-m",
        "asi_agent",
        "run",
        "--provider",
        "anthropic",
        "--base-url",
        server.base_url,
    ]
    command += ["--model", "claude-test", "--yes", "--output-format", "json", "What does a.py print?"]
    done = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    result = json.loads(done.stdout.splitlines()[-1])
    assert done.returncode == 0, done.stderr
    assert result["tool_calls"] == [{"name": "read_file", "ok": True, "error": None}]
    second = server.chat_bodies[1]["messages"]
    assert second[-1]["content"][0]["type"] == "tool_result" and "marker-4711" in json.dumps(second[-1])
