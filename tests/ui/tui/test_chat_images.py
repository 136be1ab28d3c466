"""In the chat, `@image.png` and an image path pasted into the message go with it as images to a model
that reads them (the Textual pilot; the OpenAI fake server's request body is checked)."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

from chat_helpers import chat_args, send, until
from servers.openai_server import OpenAIServer

from asi_agent.backends.openai import OpenAIBackend, OpenAIBackendConfig
from asi_agent.ui.chatsession import ChatSession
from asi_agent.ui.cli import build_parser
from asi_agent.ui.tui.app import ChatApp


def _png(side: int) -> bytes:
    chunk = b"IHDR" + struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))


async def test_a_mention_and_a_pasted_path_attach_images(tmp_path: Path, openai_server: OpenAIServer) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "ui.png").write_bytes(_png(4))
    pasted = tmp_path / "Desktop" / "bug shot.png"
    pasted.parent.mkdir()
    pasted.write_bytes(_png(9))
    openai_server.reply("Both show a button.\nAGENT_STATUS: DONE")
    backend = OpenAIBackend(OpenAIBackendConfig(model="test-model", base_url=openai_server.base_url))
    args = build_parser().parse_args(["chat", "--cwd", str(root)])
    app = ChatApp(chat_args(root), ChatSession.open(args, backend=backend))

    async with app.run_test() as pilot:
        await send(pilot, f"Compare @ui.png with '{pasted}' please")
        await until(pilot, lambda: bool(openai_server.chat_bodies) and not app.turn_worker.is_running)

    last = openai_server.chat_bodies[0]["messages"][-1]
    urls = [part["image_url"]["url"] for part in last["content"] if part["type"] == "image_url"]
    assert urls == [f"data:image/png;base64,{base64.b64encode(_png(side)).decode()}" for side in (4, 9)]
    texts = [part["text"] for part in last["content"] if part["type"] == "text"]
    assert "Compare" in texts[0], "the message's own text comes first, in the same user turn"
    assert texts[1:] == [
        "[the image ui.png]",
        f"[the image {pasted}]",
    ]
