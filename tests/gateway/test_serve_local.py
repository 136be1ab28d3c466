"""`asi-agent serve --provider local`: the in-process GGUF model (the embedded SmolLM2) behind the gateway,
asked through the official `openai` SDK with a tool; its answer must be a well-formed completion."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import openai
import pytest
from asi_cli import model_free_env

from gateway.conftest import _LISTENING, stop

pytestmark = pytest.mark.slow

READ = {
    "type": "function",
    "function": {
        "name": "read_file",
        "description": "Read a text file of the project",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
}


@pytest.fixture
def local_gateway(tmp_path: Path) -> Iterator[str]:
    """`asi-agent serve --provider local --port 0`; yields its address once it listens."""
    env = model_free_env() | {"ASI_CONFIG_DIR": str(tmp_path / "user-config"), "OLLAMA_HOST": "127.0.0.1:9"}
    log = tmp_path / "serve.log"
    command = [sys.executable, "-m", "asi_agent", "serve", "--port", "0", "--provider", "local"]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=tmp_path, stdout=sink, stderr=sink, env=env)
    try:
        deadline = time.monotonic() + 120
        while not (found := _LISTENING.search(log.read_text(encoding="utf-8"))):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text(encoding="utf-8")
            time.sleep(0.1)
        yield found.group(1)
    finally:
        stop(process, 30)


def test_local_model_answers_a_tool_request_through_the_sdk(local_gateway: str) -> None:
    client = openai.OpenAI(base_url=f"{local_gateway}/v1", api_key="unused", max_retries=0, timeout=600)
    reply = client.chat.completions.create(
        model="local",
        messages=[{"role": "user", "content": "Read the file greet.py."}],
        tools=[READ],  # type: ignore[list-item]
        max_tokens=128,
    )
    choice = reply.choices[0]
    assert reply.object == "chat.completion" and reply.id
    # Constrained decoding: before any tool result the embedded model must call an offered tool.
    assert choice.finish_reason == "tool_calls", choice
    (call,) = choice.message.tool_calls or []
    assert call.id and call.type == "function" and call.function.name == "read_file"
    arguments = json.loads(call.function.arguments)
    assert isinstance(arguments.get("path"), str) and arguments["path"]
    assert reply.usage is not None and reply.usage.completion_tokens > 0
