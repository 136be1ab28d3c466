"""Images in the context estimate, through the agent loop with the shipped scripted backend: each image a
tool result carries counts at its API's per-image cost (OpenAI's tile rule here), so a session that reads
many images fits its window — the images of older results are left out with a note naming them, the latest
one stays — and the status line's `context_left` counts them; compaction names the images it summarises
and keeps the task's and the latest exchange's. The cost rules on their own at the end."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

import pytest

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.context import ContextConfig, compact
from asi_agent.context.images import UNKNOWN_IMAGE_TOKENS, image_size, image_tokens
from asi_agent.events import AssistantReplied, ContextCompacted, RunFinished
from asi_agent.gate import GateConfig
from asi_agent.messages import Image, Message, ToolCall
from asi_agent.session import SessionStore
from asi_agent.toolrun import BackendModel, ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry

WINDOW = 4000
PICTURES = 8
SQUARE_COST = 765  # OpenAI's rule for 1024 × 1024: 4 tiles × 170 + 85


def png(width: int, height: int) -> bytes:
    """A PNG header (enough for the type and the size)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + header
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))


def read(n: int) -> ScriptedCall:
    return ScriptedCall(name="read_file", arguments={"path": f"img/{n}.png"})


def make_agent(root: Path, backend: ScriptedBackend) -> Agent:
    state = root / ".asi"
    session = SessionStore(state).create()
    ctx = ToolContext(root, Journal(state), session_id=session.id)
    ctx.model = BackendModel(backend)  # as the assembly gives it: `read_file` asks it about images
    config = AgentConfig(
        gate=GateConfig(approval="yolo"),
        offered=("read_file",),
        context=ContextConfig(window=WINDOW, reply_tokens=512),
    )
    return Agent(backend, ToolRunner(default_registry(), ctx), session, "You are a test agent.", config)


@pytest.fixture
def pictures(tmp_path: Path) -> Path:
    (tmp_path / "img").mkdir()
    for n in range(1, PICTURES + 1):
        (tmp_path / "img" / f"{n}.png").write_bytes(png(1024, 1024))
    return tmp_path


async def test_a_session_reading_many_images_stays_within_the_window(pictures: Path) -> None:
    replies = [ScriptedReply(text="Plan: look at each picture.", calls=[read(1)])]
    replies += [ScriptedReply(calls=[read(n)]) for n in range(2, PICTURES + 1)]
    backend = ScriptedBackend(
        [*replies, ScriptedReply(text="Seen them all.\nAGENT_STATUS: DONE")], images=True
    )
    agent = make_agent(pictures, backend)
    events = [event async for event in agent.run("Describe the pictures in img/.")]
    assert isinstance(events[-1], RunFinished) and events[-1].status == "DONE", events[-1]
    # Each request after a read carries that picture; the older ones are left out, named, as the
    # window requires: never more images than it can hold.
    for n, (sent, _tools) in enumerate(backend.requests[1:], start=1):
        latest = sent[-1]
        assert latest.role == "tool" and [image.name for image in latest.images] == [f"img/{n}.png"]
        carried = sum(len(m.images) for m in sent)
        assert carried * SQUARE_COST < WINDOW - 512
    last, _tools = backend.requests[-1]
    left_out = [m for m in last if m.role == "tool" and not m.images]
    assert len(left_out) >= PICTURES - 4
    assert all("left out to fit the context window: read it again" in m.content for m in left_out)
    assert any("the image img/1.png left out" in m.content for m in left_out)
    compacted = [e for e in events if isinstance(e, ContextCompacted)]
    assert compacted and all(e.tokens_after <= WINDOW - 512 for e in compacted)
    assert sum(e.shrunk for e in compacted) >= PICTURES - 4
    # The status line's figure counts the pictures: after the first read, at least one image less.
    lefts = [e.context_left for e in events if isinstance(e, AssistantReplied)]
    assert lefts[1] is not None and lefts[1] <= WINDOW - SQUARE_COST


async def test_a_model_that_reads_no_images_gets_no_image_cost(pictures: Path) -> None:
    replies = [ScriptedReply(text="Plan: look.", calls=[read(n)]) for n in range(1, 4)]
    backend = ScriptedBackend([*replies, ScriptedReply(text="Done.\nAGENT_STATUS: DONE")])
    events = [event async for event in make_agent(pictures, backend).run("Describe img/.")]
    assert not any(isinstance(e, ContextCompacted) for e in events)
    assert all(not m.images for sent, _tools in backend.requests for m in sent)


async def test_compaction_names_the_images_it_summarises_and_keeps_the_task_and_latest_ones() -> None:
    picture = Image("image/png", base64.b64encode(png(64, 64)).decode())

    def exchange(n: int) -> list[Message]:
        call = ToolCall(f"c{n}", "read_file", {"path": f"{n}.png"})
        shown = Image(picture.media_type, picture.data, f"{n}.png")
        result = Message(
            "tool", f"{n}.png is an image", tool_call_id=f"c{n}", name="read_file", images=(shown,)
        )
        return [Message("assistant", f"step {n}", (call,)), result]

    task = Message(
        "user", "What changed between these?", images=(Image("image/png", picture.data, "task.png"),)
    )
    history = [task, *exchange(0), *exchange(1), *exchange(2), *exchange(3)]
    model = ScriptedBackend(["Task: compare. Seen 1.png and 2.png."])
    result = await compact(history, model)
    sent = model.requests[0][0][1].content
    assert "[image 1.png]" in sent and "[image 2.png]" in sent and "3.png" not in sent
    kept = [image.name for message in result.messages for image in message.images]
    assert kept == ["task.png", "0.png", "3.png"]


def _webp_vp8x(width: int, height: int) -> bytes:
    size = (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    return b"RIFF" + b"\0" * 4 + b"WEBPVP8X" + b"\0" * 8 + size


def _jpeg(width: int, height: int) -> bytes:
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\0" + b"\0" * 9
    sof = b"\xff\xc0" + struct.pack(">HBHH", 17, 8, height, width) + b"\0" * 10
    return b"\xff\xd8" + app0 + sof


@pytest.mark.parametrize(
    ("data", "size"),
    [
        (png(1024, 768), (1024, 768)),
        (b"GIF89a" + struct.pack("<HH", 300, 200), (300, 200)),
        (_jpeg(640, 480), (640, 480)),
        (_webp_vp8x(1920, 1080), (1920, 1080)),
        (b"not an image", None),
    ],
)
def test_image_sizes_are_read_from_the_header(data: bytes, size: tuple[int, int] | None) -> None:
    assert image_size(data) == size


@pytest.mark.parametrize(
    ("width", "height", "openai", "anthropic"),
    [
        (1024, 1024, 765, 1399),  # OpenAI: 768 × 768 → 4 tiles; Anthropic: 1024² / 750
        (4000, 3000, 765, 1534),  # OpenAI: 1024 × 768 → 4 tiles; Anthropic: scaled to ~1.15 megapixels
        (2048, 512, 765, 820),  # OpenAI: no scaling, 4 × 1 tiles; Anthropic: 1568 × 392 / 750
        (40, 20, 255, 2),
    ],
)
def test_the_cost_rules(width: int, height: int, openai: int, anthropic: int) -> None:
    image = Image("image/png", base64.b64encode(png(width, height)).decode())
    assert image_tokens(image, "openai") == openai
    assert image_tokens(image, "anthropic") == anthropic
    assert image_tokens(Image("", "", url="https://example.test/a.png")) == UNKNOWN_IMAGE_TOKENS
