"""A test editor: the ACP SDK's client side driving a real `asi-agent acp` subprocess.

It keeps every session update, answers permission requests from a list of planned answers (or cancels
the prompt), and, when it offers file-system capabilities, serves reads and takes writes from its own
in-memory buffers, as an editor with unsaved changes does.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from acp import PROTOCOL_VERSION, spawn_agent_process
from acp.client.connection import ClientSideConnection
from acp.schema import (
    AllowedOutcome,
    ClientCapabilities,
    DeniedOutcome,
    FileSystemCapabilities,
    PermissionOption,
    ReadTextFileResponse,
    RequestPermissionResponse,
    ToolCallUpdate,
    WriteTextFileResponse,
)
from asi_cli import model_free_env


class Editor:
    """The client: what the agent sent, and how to answer it."""

    def __init__(self, buffers: dict[str, str] | None = None) -> None:
        self.updates: list[Any] = []
        self.permissions: list[tuple[ToolCallUpdate, list[PermissionOption]]] = []
        self.answers: list[str] = []
        """Planned answers, in order: an option id ("yes", "always", "no") or "cancel"."""
        self.buffers = buffers
        """Open buffers by absolute path; None: no file-system capabilities."""
        self.reads: list[str] = []
        self.writes: list[tuple[str, str]] = []
        self.conn: ClientSideConnection | None = None
        self.session_id = ""

    def on_connect(self, conn: Any) -> None:
        """Nothing to keep: the test holds the connection."""

    async def session_update(self, session_id: str, update: Any, **_: Any) -> None:
        self.updates.append(update)

    async def request_permission(
        self, options: list[PermissionOption], session_id: str, tool_call: ToolCallUpdate, **_: Any
    ) -> RequestPermissionResponse:
        self.permissions.append((tool_call, options))
        answer = self.answers.pop(0) if self.answers else "no"
        if answer == "cancel":
            assert self.conn is not None
            await self.conn.cancel(session_id=session_id)
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(outcome=AllowedOutcome(outcome="selected", option_id=answer))

    async def read_text_file(self, path: str, session_id: str, **_: Any) -> ReadTextFileResponse:
        assert self.buffers is not None, "read_text_file without the capability"
        self.reads.append(path)
        text = self.buffers[path] if path in self.buffers else Path(path).read_text(encoding="utf-8")
        return ReadTextFileResponse(content=text)

    async def write_text_file(
        self, content: str, path: str, session_id: str, **_: Any
    ) -> WriteTextFileResponse:
        assert self.buffers is not None, "write_text_file without the capability"
        self.writes.append((path, content))
        self.buffers[path] = content
        return WriteTextFileResponse()

    async def prompt(self, session_id: str, *blocks: Any, timeout: float = 60) -> str:
        """Send a prompt; its stop reason once the updates sent before the answer are all in (the SDK
        hands each notification to its own task, which may run after the answer was taken)."""
        assert self.conn is not None
        done = await asyncio.wait_for(self.conn.prompt(session_id=session_id, prompt=list(blocks)), timeout)
        await self.settled()
        return str(done.stop_reason)

    async def settled(self) -> None:
        """Wait until no update has come for a tenth of a second."""
        seen = -1
        while seen != len(self.updates):
            seen = len(self.updates)
            await asyncio.sleep(0.1)

    def of_kind(self, kind: str) -> list[Any]:
        """The updates of one `sessionUpdate` kind (`tool_call`, `agent_message_chunk`, …)."""
        return [u for u in self.updates if u.session_update == kind]

    def message_text(self) -> str:
        """Every agent message chunk's text, joined."""
        return "".join(u.content.text for u in self.of_kind("agent_message_chunk"))

    def tool_updates(self, call_id: str) -> list[Any]:
        """The updates of one tool call, its start included."""
        return [u for u in self.updates if getattr(u, "tool_call_id", None) == call_id]


def script(path: Path, replies: list[Any]) -> Path:
    """A scripted model's replies (native tool calls), written to `path`."""
    path.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
    return path


def call(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    """A scripted reply making one native call."""
    return {"text": "", "tool_calls": [{"id": call_id, "name": name, "arguments": arguments}]}


@asynccontextmanager
async def agent_process(
    editor: Editor, model: Path, cwd: Path, *options: str
) -> AsyncIterator[ClientSideConnection]:
    """`asi-agent acp --provider scripted --model MODEL OPTIONS`, initialised; its stderr goes to a log."""
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(cwd.parent / "user-config")
    log = (cwd.parent / "acp-stderr.log").open("ab")
    command = ["-m", "asi_agent", "acp", "--provider", "scripted", "--model", str(model), *options]
    try:
        async with spawn_agent_process(
            editor, sys.executable, *command, env=env, cwd=cwd, transport_kwargs={"stderr": log.fileno()}
        ) as (conn, _process):
            editor.conn = conn
            fs = (
                FileSystemCapabilities(read_text_file=True, write_text_file=True)
                if editor.buffers is not None
                else None
            )
            await asyncio.wait_for(
                conn.initialize(
                    protocol_version=PROTOCOL_VERSION, client_capabilities=ClientCapabilities(fs=fs)
                ),
                timeout=60,
            )
            yield conn
    finally:
        log.close()
