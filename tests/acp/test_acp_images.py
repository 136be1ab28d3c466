"""An editor's image prompt: to a model that reads images it goes as an image (the OpenAI fake server's
request body shows the `image_url` part); a model that does not (the scripted one) is told it was left out.
The real `asi-agent acp` with the SDK's client side."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path

from acp import image_block, text_block
from editor import Editor, agent_process, script
from servers.openai_server import OpenAIServer

DONE = "A small picture.\nAGENT_STATUS: DONE"


def _png() -> str:
    chunk = b"IHDR" + struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))
    return base64.b64encode(data).decode()


async def test_the_editors_image_goes_to_a_model_that_reads_images(
    tmp_path: Path, openai_server: OpenAIServer
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    openai_server.reply(DONE)
    editor = Editor()
    flags = ("--provider", "openai", "--base-url", openai_server.base_url)
    async with agent_process(editor, Path("test-model"), project, *flags) as conn:
        session = await conn.new_session(cwd=str(project), mcp_servers=[])
        blocks = [text_block("What is in this picture?"), image_block(_png(), "image/png")]
        assert await editor.prompt(session.session_id, *blocks) == "end_turn"
    transcript = next((project / ".asi" / "sessions").glob("*.jsonl")).read_text(encoding="utf-8")
    kept = [json.loads(line)["message"] for line in transcript.splitlines() if '"type": "message"' in line]
    assert kept[0]["images"] == [{"media_type": "image/png", "data": _png(), "name": "image 1"}]  # resumable
    messages = openai_server.chat_bodies[0]["messages"]
    assert messages[-1]["role"] == "user" and messages[-2]["role"] != "user"
    assert messages[-1]["content"][0] == {"type": "text", "text": "What is in this picture?"}
    assert messages[-1]["content"][2] == {
        "type": "image_url",
        "image_url": {"url": f"data:image/png;base64,{_png()}"},
    }


async def test_a_model_that_reads_no_images_is_told_the_image_was_left_out(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    model = script(tmp_path / "model.json", [DONE])
    editor = Editor()
    async with agent_process(editor, model, project) as conn:
        session = await conn.new_session(cwd=str(project), mcp_servers=[])
        blocks = [text_block("Describe it"), image_block(_png(), "image/png")]
        assert await editor.prompt(session.session_id, *blocks) == "end_turn"
    transcript = next((project / ".asi" / "sessions").glob("*.jsonl")).read_text(encoding="utf-8")
    asked = [json.loads(line)["message"] for line in transcript.splitlines() if '"type": "message"' in line]
    assert asked[0]["content"] == (
        "Describe it\n\n[not attached: image 1; the model of this session does not read images]"
    )
    assert "images" not in asked[0]
