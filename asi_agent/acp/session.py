"""One editor session: an asi-agent session with its agent, driven one prompt at a time.

The agent is the one every front end builds (`assemble_agent`); a prompt runs it with `RunWatch`
exactly as the chats do, the events going to a `TurnReporter`. Cancelling a prompt is Esc in the
chat: the run stops, the reply so far and the finished calls stay in the session, which goes on.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from acp import Client
from acp.helpers import update_available_commands, update_current_mode
from acp.schema import ClientCapabilities, SessionMode, SessionModeState, StopReason

from asi_agent.acp.commands import available_commands, command_of, prompt_commands, run_command
from asi_agent.acp.files import EditorFiles
from asi_agent.acp.link import Link, refused
from asi_agent.acp.options import MODES
from asi_agent.acp.prompt import Prompt
from asi_agent.acp.replay import replay
from asi_agent.acp.updates import TurnReporter
from asi_agent.agent import Agent
from asi_agent.assembly import assemble_agent, attach_servers, trust_notice
from asi_agent.bounds import RunWatch
from asi_agent.commands import CustomCommand, Expansion, expand, find_commands, narrowed, split_slash
from asi_agent.config import Approval, AsiConfig, user_config_dir
from asi_agent.events import RunFinished
from asi_agent.exceptions import UserError
from asi_agent.handoff import RUN_PLAN, plan_task
from asi_agent.plugins.mcp import MCP_KEY, McpHub
from asi_agent.providers import create_backend
from asi_agent.runsettings import resumed_config
from asi_agent.session import SessionStore
from asi_agent.tools.todo import current_todos

__all__ = ["EditorSession", "Prompt"]

MODE_TEXT: dict[str, tuple[str, str]] = {
    "ask": ("Ask", "reads run; edits, commands and network calls ask first"),
    "auto-edit": ("Auto-edit", "edits inside the project run; commands and network calls ask"),
    "plan": ("Plan", "read-only research that ends with a plan (a todo list) to run in another mode"),
    "yolo": ("Yolo", "nothing asks (deny rules and the catastrophic-command check still hold)"),
}
HANDOFF = (
    "\n\n[asi-agent: the plan is ready. To run it, switch this session's mode to Ask, Auto-edit or Yolo "
    f'and send "{RUN_PLAN}"; the todo list is kept.]'
)
"""Said after a plan-mode prompt that ended with a todo list."""
STOP_REASONS: dict[str, StopReason] = {
    "DONE": "end_turn",
    "STOP": "end_turn",
    "ERROR": "end_turn",
    "TIMEOUT": "end_turn",
    "MAX_TURNS": "max_turn_requests",
}
COMMANDS_DELAY = 0.05
"""Seconds after `session/new` before the commands are announced: editors learn a session's id from the
response, and may drop updates of a session they do not know yet."""


class EditorSession:
    """An asi-agent session opened by the editor."""

    def __init__(self, config: AsiConfig, agent: Agent, link: Link, files: EditorFiles) -> None:
        self.config, self.agent, self.link, self.files = config, agent, link, files
        self._running: asyncio.Task[RunFinished] | None = None
        self._cancelled = False
        self._later: set[asyncio.Task[None]] = set()
        self.commands: dict[str, CustomCommand] = {}
        """The custom commands (command files), read when the session starts."""

    @classmethod
    def open(
        cls,
        root: Path,
        flags: dict[str, Any],
        client: Client,
        capabilities: ClientCapabilities,
        session_id: str | None = None,
        *,
        trusted: bool | None = None,
    ) -> EditorSession:
        """A new session in `root`, or the saved session `session_id` (its settings reused, as `resume`
        reuses them); `trusted` as `load_config` takes it."""
        resumed = SessionStore(root / ".asi").open(session_id) if session_id else None
        config = resumed_config(root, flags, resumed, trusted=trusted)
        backend = create_backend(config)
        agent = assemble_agent(root, config, backend, interactive=True, session=resumed)
        link = Link(client, agent.session.id)
        return cls(
            config, agent, link, EditorFiles(client, link.session_id, agent.runner.ctx, capabilities.fs)
        )

    @property
    def id(self) -> str:
        """The asi-agent session id: the same in `asi-agent sessions` and in the editor."""
        return self.agent.session.id

    @property
    def mode(self) -> Approval:
        """The approval mode the next calls are gated with."""
        return self.agent.gate.config.approval

    async def start(self) -> list[str]:
        """Attach the plugin manifests' MCP servers (returns their problems); announce the commands, and
        say once what an untrusted folder supplied that was ignored."""
        problems = await attach_servers(self.agent)
        self.commands = find_commands(self.agent.runner.ctx.root, user_config_dir())
        hub = self.agent.runner.ctx.state.get(MCP_KEY)
        prompts = await hub.prompts() if isinstance(hub, McpHub) else []
        commands = available_commands(self.commands) + prompt_commands(prompts)
        self._soon(self.link.send(update_available_commands(commands)))
        notice = trust_notice(self.agent.runner.ctx.root, self.config)
        if notice is not None:
            self._soon(self.link.say(f"asi-agent: {notice}"))
            problems.insert(0, notice)
        return problems

    def modes(self) -> SessionModeState:
        """The approval modes, offered as the session's modes."""
        return SessionModeState(
            current_mode_id=self.mode,
            available_modes=[
                SessionMode(id=mode, name=MODE_TEXT[mode][0], description=MODE_TEXT[mode][1])
                for mode in MODES
            ],
        )

    def set_mode(self, mode: str) -> None:
        """Gate the next calls with `mode`; an unknown mode, or yolo in a session without the sandbox
        (`Gate.switch_mode`), is an invalid request."""
        if mode not in MODES:
            raise refused(f"unknown mode {mode!r}; the modes are {', '.join(MODES)}")
        try:
            self._switch(mode)
        except UserError as exc:
            raise refused(str(exc)) from None

    async def switch_mode(self, mode: str) -> None:
        """`set_mode` for the `/mode` command (a refusal is a UserError, its reply); tells the editor."""
        self._switch(mode)
        await self.link.send(update_current_mode(mode))

    def _switch(self, mode: str) -> None:
        sandbox_off = not self.config.sandbox.enabled
        self.agent.gate.switch_mode(mode, sandbox_off_by_choice=sandbox_off)  # type: ignore[arg-type]

    async def replay(self) -> None:
        """Send the saved conversation to the editor (`session/load`)."""
        risks = {spec.name: spec.risk for spec in self.agent.runner.registry}
        await replay(self.link, self.agent.messages, self.agent.runner.ctx.root, risks)

    async def prompt(self, prompt: list[Any]) -> StopReason:
        """Run one prompt to its end (or its cancellation); a slash command runs instead of the model."""
        if self._running is not None:
            raise refused(
                "a prompt is already running in this session; cancel it or wait for its end", code=-32600
            )
        ctx = self.agent.runner.ctx
        asked = Prompt.of(prompt, ctx.root)
        if (command := command_of(asked.text)) is not None:
            await self.link.say(await run_command(self, *command))
            return "end_turn"
        if asked.cursor is not None:
            ctx.cursor = asked.cursor
            await self.files.fetch([asked.cursor.path])
        reporter = TurnReporter(self.link, self.agent, self.files)
        self._cancelled = False
        custom = self._custom(asked.text)
        full = self.agent.runner.registry
        if custom is not None and custom.allowed_tools is not None:
            self.agent.runner.registry = narrowed(full, custom.allowed_tools)  # for this prompt only
        text = await self._with_images(asked, custom.prompt if custom is not None else asked.text)
        planning = self.mode == "plan"
        task = plan_task(text) if planning else text
        self._running = asyncio.create_task(
            RunWatch(self.agent).drive(task, reporter.handle, timeout=self.config.timeout)
        )
        try:
            finished = await self._running
        except asyncio.CancelledError:
            # cancelled by the editor, or the connection closed under the prompt: either way the
            # session keeps what was done, as after Esc in the chat
            await reporter.cancelled()
            self.agent.interrupted(reporter.partial)
            if not self._cancelled:
                raise
            return "cancelled"
        finally:
            self._running = None
            self.agent.runner.registry = full
            self.files.forget()
        if planning and finished.status == "DONE" and current_todos(ctx.state):
            await self.link.say(HANDOFF)  # the editor runs the plan by switching the session's mode
        return STOP_REASONS[finished.status]

    async def _with_images(self, asked: Prompt, text: str) -> str:
        """The prompt's images go with the request to a model that reads them; to another, a note says so."""
        if not asked.images:
            return text
        if await self.agent.backend.accepts_images():
            self.agent.images = asked.images
            return text
        names = ", ".join(image.name for image in asked.images)
        return f"{text}\n\n[not attached: {names}; the model of this session does not read images]"

    def _custom(self, text: str) -> Expansion | None:
        """The prompt a custom command (a command file) stands for, when the text names one."""
        called = split_slash(text)
        if called is None or called[0] not in self.commands:
            return None
        return expand(self.commands[called[0]], called[1], self.agent.runner.ctx.root)

    def cancel(self) -> None:
        """Stop the running prompt, if any (`session/cancel`)."""
        if self._running is not None and not self._running.done():
            self._cancelled = True
            self._running.cancel()

    async def close(self) -> None:
        """Stop a running prompt (and wait for it to stop); end the session's tools and its backend."""
        running = self._running
        self.cancel()
        for task in self._later:
            task.cancel()
        if running is not None:
            await asyncio.gather(running, return_exceptions=True)
        await self.agent.runner.ctx.aclose()
        await self.agent.backend.aclose()

    def _soon(self, send: Any) -> None:
        async def later() -> None:
            await asyncio.sleep(COMMANDS_DELAY)
            await send

        task = asyncio.create_task(later())
        self._later.add(task)
        task.add_done_callback(self._later.discard)
