"""Helpers of the chat tests: scripted replies, opening a chat on a script, waiting for the app."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from asi_agent.backends.base import BackendBase
from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.ui.chatsession import ChatSession
from asi_agent.ui.cli import build_parser
from asi_agent.ui.tui.app import ChatApp

BUGGY = "def add(a, b):\n    return a - b\n"


def call(name: str, **arguments) -> ScriptedCall:
    return ScriptedCall(name=name, arguments=arguments)


def reply(text: str = "", *calls: ScriptedCall) -> ScriptedReply:
    return ScriptedReply(text=text, calls=list(calls))


FIX_SCRIPT = [
    reply("I will read **calc.py** first.", call("read_file", path="calc.py")),
    reply("", call("replace_text", path="calc.py", oldText="a - b", newText="a + b")),
    reply("Fixed `add`: it subtracted instead of adding.\nAGENT_STATUS: DONE"),
]


def open_chat(root: Path, replies: list, *flags: str) -> ChatSession:
    """A chat on the scripted backend, as `asi-agent chat --cwd ROOT FLAGS...` would open it."""
    args = build_parser().parse_args(["chat", "--cwd", str(root), *flags])
    return ChatSession.open(args, backend=ScriptedBackend(replies))


def chat_args(root: Path, *flags: str):
    return build_parser().parse_args(["chat", "--cwd", str(root), *flags])


async def until(pilot, condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Let the app run until `condition` holds; fail after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "the app did not reach the expected state in time"
        await pilot.pause(0.02)


def make_app(root: Path, replies: list, *flags: str):
    """The chat app on a scripted model, as `asi-agent chat --cwd ROOT FLAGS...` opens it."""
    return ChatApp(chat_args(root, *flags), open_chat(root, replies, *flags))


async def send(pilot, text: str) -> None:
    """Type a message into the input and press Enter."""
    pilot.app.query_one("#input").text = text
    await pilot.press("enter")


async def complete(pilot, typed: str, completed: str) -> None:
    """Type `typed` and complete it with Tab: the completions must show, and the input become `completed`."""
    app = pilot.app
    await pilot.press(*typed)
    await pilot.pause()
    assert app.completions.display
    await pilot.press("tab")
    await pilot.pause()
    assert app.input.text == completed


async def complete_and_send(pilot, typed: str, completed: str, rest: str) -> list[str]:
    """`complete` `typed` to `completed`, type `rest`, press Enter and wait for the turn to end: what the
    user's messages to the model were."""
    app = pilot.app
    await complete(pilot, typed, completed)
    await pilot.press(*rest)
    await pilot.press("enter")
    await until(pilot, lambda: app.turn_worker is not None and not app.turn_worker.is_running)
    return [m.content for m in app.chat.agent.messages if m.role == "user"]


class HangingBackend(BackendBase):
    """Plays scripted replies, then streams `partial` and waits until cancelled (a model still writing)."""

    def __init__(self, replies: list, partial: str) -> None:
        self.script = ScriptedBackend(replies)
        self.partial = partial
        self.cancelled = False

    @property
    def model_name(self) -> str:
        return "hanging"

    async def supports_native_tools(self) -> bool:
        return True

    async def complete(self, messages, tools=None, *, on_delta=None, plan=None, options=None):
        if self.script.remaining:
            return await self.script.complete(messages, tools, on_delta=on_delta)
        if on_delta is not None:
            on_delta(self.partial)
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        pass
