"""Images reach the models that read them, through the real CLI against the local fake servers: `read_file`
of an image (OpenAI `image_url` parts, Ollama `images`, Anthropic image blocks), `@shot.png` and a pasted
image path in a `run` task; a model that reads no images gets a note instead. The request bodies the fake
servers received are checked."""

from __future__ import annotations

import base64
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from asi_cli import model_free_env
from servers.anthropic_server import AnthropicServer
from servers.anthropic_server import Call as AnthropicCall
from servers.anthropic_server import Reply as AnthropicReply
from servers.ollama_server import OllamaServer
from servers.openai_server import Call, OpenAIServer, Reply

DONE = "It is a tiny picture.\nAGENT_STATUS: DONE"


def png(width: int, height: int) -> bytes:
    """A PNG header (enough for the type and the size)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + header
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))


SHOT = png(40, 20)
SHOT_B64 = base64.b64encode(SHOT).decode()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "img").mkdir(parents=True)
    (root / "img" / "shot.png").write_bytes(SHOT)
    return root


def run(provider: str, base_url: str, model: str, task: str, cwd: Path) -> dict[str, Any]:
    """`asi-agent run` against a fake server; the JSON result."""
    env = model_free_env() | {"ASI_CONFIG_DIR": str(cwd.parent / "user-config"), "ANTHROPIC_API_KEY": "k"}
    command = [sys.executable, "-m", "asi_agent", "run", "--provider", provider, "--base-url", base_url]
    command += ["--model", model, "--yes", "--output-format", "json", task]
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def image_parts(message: dict[str, Any]) -> list[str]:
    """The data URLs of an OpenAI message's `image_url` parts."""
    content = message.get("content")
    parts = content if isinstance(content, list) else []
    return [part["image_url"]["url"] for part in parts if part.get("type") == "image_url"]


def test_openai_read_file_returns_the_image_after_the_results(
    project: Path, openai_server: OpenAIServer
) -> None:
    openai_server.reply(
        Reply(calls=[Call("read_file", {"path": "img/shot.png"}), Call("list_directory", {"path": "img"})]),
        DONE,
    )

    result = run("openai", openai_server.base_url, "test-model", "What does img/shot.png show?", project)

    assert result["status"] == "DONE", result
    messages = openai_server.chat_bodies[1]["messages"]
    roles = [message["role"] for message in messages[-3:]]
    assert roles == ["tool", "tool", "user"], "the image comes after every result of the reply"
    assert (
        "img/shot.png is an image (PNG, 33 bytes, 40×20 pixels); the image is attached"
        in messages[-3]["content"]
    )
    assert image_parts(messages[-1]) == [f"data:image/png;base64,{SHOT_B64}"]
    assert messages[-1]["content"][0] == {
        "type": "text",
        "text": "[the image img/shot.png (read by read_file)]",
    }


def test_openai_mentions_and_pasted_paths_attach_images(
    project: Path, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    elsewhere = tmp_path / "Screen shots" / "paste.png"
    elsewhere.parent.mkdir()
    elsewhere.write_bytes(png(3, 3))
    openai_server.reply(DONE)

    task = f"Compare @img/shot.png with '{elsewhere}', and @notes.txt."
    result = run("openai", openai_server.base_url, "test-model", task, project)

    assert result["status"] == "DONE", result
    messages = openai_server.chat_bodies[0]["messages"]
    assert messages[-1]["role"] == "user" and messages[-2]["role"] != "user", "the images ride with the task"
    assert messages[-1]["content"][0] == {"type": "text", "text": task}
    pasted = base64.b64encode(png(3, 3)).decode()
    assert image_parts(messages[-1]) == [
        f"data:image/png;base64,{SHOT_B64}",
        f"data:image/png;base64,{pasted}",
    ]


def test_a_llamacpp_server_without_vision_gets_a_note(project: Path, openai_server: OpenAIServer) -> None:
    openai_server.props = {"modalities": {"vision": False}}
    openai_server.reply(Reply(calls=[Call("read_file", {"path": "img/shot.png"})]), DONE)

    result = run("openai", openai_server.base_url, "test-model", "Look at @img/shot.png", project)

    assert result["status"] == "DONE", result
    first, second = openai_server.chat_bodies[:2]
    assert "[img/shot.png was not attached: the model of this session does not read images]" in json.dumps(
        first
    )
    assert "does not read images, so it is not shown to you" in second["messages"][-1]["content"]
    assert not any(image_parts(message) for body in (first, second) for message in body["messages"])


@pytest.mark.parametrize("vision", [True, False])
def test_ollama_read_file_sends_images_to_vision_models(project: Path, vision: bool) -> None:
    with OllamaServer(models=["test-model"]) as server:
        server.capabilities = ["completion", "tools", *(["vision"] if vision else [])]
        server.reply(Reply(calls=[Call("read_file", {"path": "img/shot.png"})]), DONE)

        result = run("ollama", server.host, "test-model", "What is in img/shot.png?", project)

        assert result["status"] == "DONE", result
        tool = server.chat_bodies[1]["messages"][-1]
    assert tool["role"] == "tool"
    if vision:
        assert tool["images"] == [SHOT_B64]
    else:
        assert "images" not in tool and "does not read images" in tool["content"]


def test_anthropic_read_file_and_mentions_send_image_blocks(project: Path) -> None:
    block = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": SHOT_B64}}
    with AnthropicServer() as server:
        server.reply(
            AnthropicReply(calls=[AnthropicCall("read_file", {"path": "img/shot.png"}, id="toolu_1")]),
            AnthropicReply(text=DONE),
        )

        result = run("anthropic", server.base_url, "claude-test", "Describe @img/shot.png", project)

        assert result["status"] == "DONE", result
        first, second = (body["messages"] for body in server.chat_bodies[:2])
    assert first[-1]["content"] == [{"type": "text", "text": "Describe @img/shot.png"}, block]
    result_block = second[-1]["content"][0]
    assert result_block["type"] == "tool_result" and result_block["content"][1] == block
    assert "the image is attached" in result_block["content"][0]["text"]
