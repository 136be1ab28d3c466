"""The protocol's agent side: `initialize`, sessions (new, load, list, mode), `prompt` and `cancel`.

Each editor session is an `EditorSession` with its own agent; this class only looks them up, checks
the requests and turns the runtime's errors into protocol errors that say what to fix.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import IO, Any, cast

from acp import PROTOCOL_VERSION, Agent, Client, run_agent
from acp.schema import (
    AgentCapabilities,
    ClientCapabilities,
    Implementation,
    InitializeResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    McpCapabilities,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    SessionCapabilities,
    SessionInfo,
    SessionListCapabilities,
    SetSessionModeResponse,
)

from asi_agent.acp.link import refused
from asi_agent.acp.mcp_servers import editor_servers
from asi_agent.acp.session import EditorSession
from asi_agent.exceptions import AsiError
from asi_agent.plugins.mcp_sources import EDITOR_SERVERS_KEY
from asi_agent.session import SessionStore

__all__ = ["AcpServer", "serve"]

log = logging.getLogger(__name__)

STREAM_LIMIT = 50 * 1024 * 1024
"""Largest protocol message read (the SDK's own default): prompts may embed whole files."""


async def serve(flags: dict[str, Any], channel: IO[bytes], *, trusted: bool | None = None) -> None:
    """Answer the editor on stdin and `channel` until it closes the connection; `trusted` True (`--trust`)
    trusts every session's project folder, None leaves it to the stored decisions."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=STREAM_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, channel)
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    server = AcpServer(flags, trusted=trusted)
    try:
        # The SDK answers "method not found" for the methods AcpServer leaves out (fork, resume, close,
        # configuration options, extensions), which its `Agent` Protocol lists all the same.
        await run_agent(cast(Agent, server), writer, reader)
    finally:
        await server.close()


class AcpServer:
    """The ACP `Agent`: one `EditorSession` per session the editor opened or loaded."""

    def __init__(self, flags: dict[str, Any], *, trusted: bool | None = None) -> None:
        self.flags, self.trusted = flags, trusted
        self.client: Client | None = None
        self.capabilities = ClientCapabilities()
        self.sessions: dict[str, EditorSession] = {}

    def on_connect(self, conn: Client) -> None:
        """Keep the connection: the way to the editor (updates, permissions, its files)."""
        self.client = conn

    async def initialize(
        self,
        protocol_version: int,
        client_capabilities: ClientCapabilities | None = None,
        client_info: Implementation | None = None,
        **_: Any,
    ) -> InitializeResponse:
        """What this agent can do: load sessions, take embedded files; no login."""
        self.capabilities = client_capabilities or ClientCapabilities()
        return InitializeResponse(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
            agent_capabilities=AgentCapabilities(
                load_session=True,
                mcp_capabilities=McpCapabilities(http=True, sse=True),
                prompt_capabilities=PromptCapabilities(embedded_context=True, image=True),
                session_capabilities=SessionCapabilities(list=SessionListCapabilities()),
            ),
            agent_info=Implementation(name="asi-agent", title="asi-agent", version=_version()),
            auth_methods=[],
        )

    async def authenticate(self, method_id: str, **_: Any) -> None:
        """No login: the model's server and keys come from the configuration."""
        raise refused(f"asi-agent has no authentication method {method_id!r}")

    async def new_session(
        self, cwd: str, mcp_servers: list[Any] | None = None, **_: Any
    ) -> NewSessionResponse:
        """A new asi-agent session in the project folder `cwd`, with the editor's MCP servers."""
        session = await self._open(cwd, None, mcp_servers)
        return NewSessionResponse(session_id=session.id, modes=session.modes())

    async def load_session(
        self, cwd: str, session_id: str, mcp_servers: list[Any] | None = None, **_: Any
    ) -> LoadSessionResponse:
        """Continue a saved session of `cwd`'s project: its conversation is replayed to the editor first."""
        session = await self._open(cwd, session_id, mcp_servers)
        await session.replay()
        return LoadSessionResponse(modes=session.modes())

    async def list_sessions(
        self, cwd: str | None = None, cursor: str | None = None, **_: Any
    ) -> ListSessionsResponse:
        """The saved sessions of `cwd`'s project, newest first (what `asi-agent sessions` lists)."""
        if cwd is None:
            return ListSessionsResponse(sessions=[])
        root = _project(cwd)
        found = SessionStore(root / ".asi").list()
        return ListSessionsResponse(
            sessions=[
                SessionInfo(
                    session_id=i.id, cwd=str(root), title=i.task or None, updated_at=i.started or None
                )
                for i in found
            ]
        )

    async def set_session_mode(self, session_id: str, mode_id: str, **_: Any) -> SetSessionModeResponse:
        """Gate the session's next calls with another approval mode."""
        self._session(session_id).set_mode(mode_id)
        return SetSessionModeResponse()

    async def prompt(self, session_id: str, prompt: list[Any], **_: Any) -> PromptResponse:
        """Run the agent on the prompt; the reply and the tool calls arrive as session updates."""
        reason = await self._session(session_id).prompt(prompt)
        return PromptResponse(stop_reason=reason)

    async def cancel(self, session_id: str, **_: Any) -> None:
        """Stop the running prompt as Esc does in the chat: what was done stays."""
        session = self.sessions.get(session_id)
        if session is not None:
            session.cancel()

    async def close(self) -> None:
        """End every session's tools and backend."""
        for session in self.sessions.values():
            await session.close()
        self.sessions.clear()

    async def _open(self, cwd: str, session_id: str | None, mcp_servers: list[Any] | None) -> EditorSession:
        assert self.client is not None, "the connection is made before any request"
        root = _project(cwd)
        if session_id is not None and session_id in self.sessions:
            await self.sessions.pop(session_id).close()
        try:
            session = EditorSession.open(
                root, self.flags, self.client, self.capabilities, session_id, trusted=self.trusted
            )
            session.agent.runner.ctx.state[EDITOR_SERVERS_KEY] = editor_servers(mcp_servers)
            problems = await session.start()
        except AsiError as exc:
            raise refused(str(exc)) from None
        for problem in problems:
            log.warning("%s", problem)
        self.sessions[session.id] = session
        return session

    def _session(self, session_id: str) -> EditorSession:
        session = self.sessions.get(session_id)
        if session is None:
            raise refused(f"no open session {session_id!r}: open one with session/new or session/load")
        return session


def _project(cwd: str) -> Path:
    """The project folder the editor named; it must be an existing absolute folder."""
    path = Path(cwd)
    if not path.is_absolute() or not path.is_dir():
        raise refused(f"cwd {cwd!r} is not an absolute path of a folder")
    return path.resolve()


def _version() -> str:
    try:
        return version("asi-agent")
    except PackageNotFoundError:
        return "unknown"
