"""`stream = false`: replies asked for whole, through both HTTP backends and from the configuration."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from asi_cli import model_free_env
from servers.openai_server import Call, OpenAIServer, Reply
from servers.scripted_http import ScriptedServer

from asi_agent.backends.ollama import OllamaBackend
from asi_agent.backends.openai import OpenAIBackend
from asi_agent.messages import Message

USER = [Message("user", "Show me a.py")]
Backend = OpenAIBackend | OllamaBackend
Setup = tuple[ScriptedServer, Callable[..., Backend]]


async def test_a_whole_reply_brings_its_text_calls_and_usage(setup: Setup):
    server, make = setup
    server.reply(Reply(text="Reading it.", calls=[Call("read_file", {"path": "a.py"})]))
    shown: list[str] = []

    completion = await make(stream=False).complete(USER, on_delta=shown.append)

    assert completion.text == "Reading it." and shown == ["Reading it."]
    assert [(call.name, call.arguments) for call in completion.native_calls] in (
        [("read_file", {"path": "a.py"})],
        [("read_file", '{"path": "a.py"}')],
    )
    assert completion.usage.completion_tokens == 7
    assert completion.finish_reason in ("stop", "tool_calls", None)
    assert server.chat_bodies[0]["stream"] is False
    assert "stream_options" not in server.chat_bodies[0]


async def test_the_idle_timeout_does_not_cut_a_whole_reply_that_takes_longer(setup: Setup):
    """Nothing arrives until the reply is complete: only request_timeout bounds the wait."""
    server, make = setup
    server.reply(Reply(text="slow but whole", delay=0.8))

    started = time.monotonic()
    completion = await make(stream=False, idle_timeout=0.3, request_timeout=10.0, max_retries=0).complete(
        USER
    )

    assert completion.text == "slow but whole"
    assert time.monotonic() - started >= 0.8


def test_stream_false_in_the_project_config_asks_for_whole_replies(
    tmp_path: Path, openai_server: OpenAIServer
):
    (tmp_path / ".asi").mkdir()
    (tmp_path / ".asi" / "config.toml").write_text("stream = false\n")
    openai_server.reply("All done.\nAGENT_STATUS: DONE")
    env = model_free_env() | {"ASI_CONFIG_DIR": str(tmp_path / "user-config")}
    argv = ["run", "--provider", "openai", "--base-url", openai_server.base_url, "--model", "test-model"]

    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", *argv, "--output-format", "json", "say hi"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip

    assert json.loads(done.stdout.splitlines()[-1])["status"] == "DONE", done.stderr
    assert [body["stream"] for body in openai_server.chat_bodies] == [False]
