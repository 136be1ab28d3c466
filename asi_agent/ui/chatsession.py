"""What both chats (the Textual app and `--plain`) share: one agent kept across messages, and the
actions behind the slash commands. No screen code here: the chats render the agent's events."""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from asi_agent import traces
from asi_agent.agent import Agent
from asi_agent.assembly import assemble_agent, attach_servers, broad_root, trust_notice, untrusted_changes
from asi_agent.backends.base import Backend
from asi_agent.config import Approval, AsiConfig, load_config
from asi_agent.events import AgentEvent, RunFinished, ToolFinished, ToolStarted
from asi_agent.exceptions import UserError
from asi_agent.handoff import plan_task
from asi_agent.messages import Message, ToolCall
from asi_agent.plugins import describe_tools
from asi_agent.plugins.mcp import MCP_KEY, McpHub
from asi_agent.plugins.mcp_mentions import expand_mcp_references
from asi_agent.providers import available_models, create_backend
from asi_agent.runsettings import config_flags, trusted_flag
from asi_agent.session import Session, SessionInfo, SessionStore
from asi_agent.toolrun import BackendModel, Outcome, Prepared
from asi_agent.tools.base import Cursor, ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.ui.cli import project_root
from asi_agent.ui.custom_commands import CommandBook, narrowed_run
from asi_agent.ui.mentions import attach_budget, expand_mentions, with_images
from asi_agent.ui.undo import UndoPlan, plan_undo, undo_entries
from asi_agent.vcs.session import GitSession

__all__ = ["MODES", "ChatSession", "FileChange", "git_branch", "trust_question"]

MODES: tuple[Approval, ...] = ("ask", "auto-edit", "plan", "yolo")
SHELL_TOOL = "run_terminal_cmd"


@dataclass(frozen=True, slots=True)
class FileChange:
    """A file changed in this session: its path and the unified diff from before the session to now."""

    path: str
    diff: str
    first_line: int


class ChatSession:
    """One chat in one project: the agent (kept across messages), its journal and its session store."""

    def __init__(self, root: Path, config: AsiConfig, agent: Agent) -> None:
        self.root, self.config, self.agent = root, config, agent
        self.journal = Journal(root / ".asi")
        self.store = SessionStore(root / ".asi")
        self._notes: list[str] = []
        self.commands = CommandBook(root)
        """The project's and the user's custom commands (`/review …`)."""
        self.mcp_prompts: list[tuple[str, str, str]] = []
        """(`server:prompt`, description, argument names) of the MCP servers' prompts, once started."""
        self._retired: list[Backend] = []
        self.git: GitSession | None = None
        """Checkpoints of the session's tasks (as `run` makes them), in a git project."""
        self._attach_git()

    def _attach_git(self) -> None:
        """Checkpoint the tree before each message's first change (the repository opens only then)."""
        self.git = GitSession.open(self.root, self.session_id)
        self.agent.runner.before_change = self.git.before_change if self.git is not None else None

    @classmethod
    def open(
        cls, args: argparse.Namespace, backend: Backend | None = None, *, interactive: bool = True
    ) -> ChatSession:
        """Build the backend and the agent from the command line and the configuration files."""
        root = project_root(args)
        config = load_config(root, config_flags(args), trusted=trusted_flag(args))
        store = SessionStore(root / ".asi")
        session = store.open(args.resume) if args.resume else store.create(cwd=str(root))
        backend = backend or create_backend(config)
        agent = assemble_agent(
            root, config, backend, session=session, cursor=args.cursor, interactive=interactive
        )
        return cls(root, config, agent)

    async def start(self) -> list[str]:
        """Attach the MCP servers of the manifests; returns the problems to show (a project folder that
        is the home folder first, then what an untrusted folder supplied in vain)."""
        found = [broad_root(self.root), trust_notice(self.root, self.config)]
        problems = await attach_servers(self.agent)
        hub = self.agent.runner.ctx.state.get(MCP_KEY)
        self.mcp_prompts = await hub.prompts() if isinstance(hub, McpHub) else []
        return [*(note for note in found if note), *problems]

    async def close(self) -> None:
        """End the session's tools and the backend."""
        await self.ctx.aclose()
        for backend in [*self._retired, self.agent.backend]:
            await backend.aclose()

    # -- state shown in the status bar -----------------------------------------------------------

    @property
    def ctx(self) -> ToolContext:
        """The tools' context."""
        return self.agent.runner.ctx

    @property
    def mode(self) -> Approval:
        """The approval mode that the next calls are gated with."""
        return self.agent.gate.config.approval

    @property
    def sandbox(self) -> str:
        """Short, for the status bar: "sandbox", "sandbox + network" or "NO SANDBOX" (with who turned it
        off: "(--no-sandbox)", "(user config)", "(project config)")."""
        sandbox = self.agent.runner.ctx.sandbox
        if sandbox is None:
            who = self.config.trust.sandbox_off
            return f"NO SANDBOX ({' '.join(who.split()[:2])})" if who else "NO SANDBOX"
        return "sandbox + network" if sandbox.network else "sandbox"

    @property
    def sandbox_note(self) -> str:
        """The sandbox in force, in one line (or why there is none)."""
        return self.agent.runner.ctx.sandbox_note

    @property
    def model(self) -> str:
        """The model's name."""
        return self.agent.backend.model_name

    @property
    def provider(self) -> str:
        """The configured provider (or what detection chose)."""
        return self.config.provider or type(self.agent.backend).__name__.removesuffix("Backend").lower()

    @property
    def session_id(self) -> str:
        """The id `asi-agent resume` takes."""
        return self.agent.session.id

    def tokens_used(self) -> int:
        """Prompt and completion tokens of every request of this session so far."""
        return sum(
            int(r.get("prompt_tokens", 0)) + int(r.get("completion_tokens", 0))
            for r in self.agent.session.records()
            if r.get("type") == "usage"
        )

    # -- a turn ------------------------------------------------------------------------------------

    async def turn(self, text: str) -> AsyncGenerator[AgentEvent, None]:
        """Send one message (with its @mentions attached, within what the context window has left, or a
        custom command's prompt) and run the agent until it ends."""
        command = self.commands.expansion(text)
        if command is not None:
            task = command.prompt
        else:
            context = self.agent.context
            budget = attach_budget(await context.window(), context.context_left)
            task = await with_images(self.agent, self.root, expand_mentions(self.root, text, budget))
        hub = self.agent.runner.ctx.state.get(MCP_KEY)  # `/server:prompt`, `@server:uri`
        task = await expand_mcp_references(hub if isinstance(hub, McpHub) else None, task)
        if self.git is not None:
            self.git.start_task(text)
        if self._notes:
            task = "\n\n".join([*self._notes, task])
            self._notes.clear()
        if self.mode == "plan":
            task = plan_task(task)
        if command is not None and command.allowed_tools is not None:
            run = narrowed_run(self.agent, task, command.allowed_tools)
        else:
            run = cast(AsyncGenerator[AgentEvent, None], self.agent.run(task))
        # The spans `run` and the editor agent export too (OpenTelemetry, when OTEL_* asks for it).
        spans, status = traces.RunSpans(task), "INTERRUPTED"
        try:
            async for event in run:
                spans.event(event)
                if isinstance(event, RunFinished):
                    status = event.status
                yield event
        finally:
            spans.end(status)
            await run.aclose()  # the chats close this generator; the run's must close with it

    def interrupted(self, partial: str) -> None:
        """Keep what the interrupted turn produced; the session stays resumable."""
        self.agent.interrupted(partial)

    async def shell(self, command: str) -> AsyncGenerator[AgentEvent, None]:
        """`!command`: run a shell command through the same gate (policy, approvals) as the model's calls.

        Its output is shown, and attached to the next message so the model sees what the person saw.
        """
        call = ToolCall(f"shell-{len(self._notes)}", SHELL_TOOL, {"command": command})
        if self.git is not None:
            self.git.start_task(f"!{command}")
        prepared = self.agent.runner.prepare(call)
        item: Prepared | Outcome = prepared
        async for event in self.agent.gate.check(prepared):
            if isinstance(event, Outcome | Prepared):
                item = event
            else:
                yield event
        if isinstance(item, Outcome):
            yield ToolFinished(call, False, item.output, item.output)
            return
        yield ToolStarted(call)
        outcome = await self.agent.runner.execute(prepared)
        yield ToolFinished(call, outcome.ok, outcome.output, outcome.error, outcome.changed_files)
        self._notes.append(f"I ran `{command}` myself; it printed:\n{outcome.output[-4000:]}")

    # -- slash commands ---------------------------------------------------------------------------

    def set_mode(self, mode: Approval) -> None:
        """Gate the next calls with `mode`; UserError for yolo without the sandbox (`Gate.switch_mode`)."""
        self.agent.gate.switch_mode(mode, sandbox_off_by_choice=not self.config.sandbox.enabled)

    def models(self) -> list[str] | None:
        """The models the provider offers (None when its models are files: `local`, `scripted`)."""
        return available_models(self.config.model_copy(update={"provider": self.provider}))

    def switch_model(self, name: str) -> None:
        """Talk to another model of the same provider from the next message on; an unknown one is refused."""
        config = self.config.model_copy(update={"model": name, "provider": self.provider})
        offered = available_models(config)
        if offered is None and not Path(name).expanduser().is_file():
            raise UserError(f"no model file {name} (the {self.provider} provider takes a path to one)")
        if offered is not None and name not in offered:
            listed = ", ".join(offered[:20]) or "none"
            raise UserError(f"the server has no model {name!r}; it offers: {listed}")
        backend = create_backend(config)
        self._retired.append(self.agent.backend)
        self.config = config
        self.agent.use(backend)  # the model's every user switches: requests, planner, compaction
        self.ctx.model = BackendModel(backend)

    async def idle(self) -> None:
        """The chat has waited `notify_idle_after` seconds for the person: `Notification` (`idle_prompt`)."""
        if self.agent.config.hooks is not None:
            await self.agent.config.hooks.notify("idle_prompt", "asi-agent is waiting for your input")

    async def compact(self) -> str:
        """`/compact`: summarise the older turns now, with the agent's own compaction; says what it did."""
        done = await self.agent.compact()
        if done is None:
            return "nothing to compact: the conversation is already as short as it can be"
        left = f"; {done.context_left:,} tokens of the window left" if done.context_left is not None else ""
        return (
            f"compacted {done.tokens_before:,} → {done.tokens_after:,} tokens "
            f"({done.summarised} messages summarised, {done.shrunk} results shortened){left}"
        )

    def plan_undo(self, count: int | None = None) -> UndoPlan:
        """What `/undo` (no count: this session's last change) or `/undo N` would revert."""
        return plan_undo(self.journal, self.session_id, count)

    def undo(self, plan: UndoPlan) -> list[str]:
        """Revert the changes of `plan`; one line per reverted change."""
        return undo_entries(self.journal, self.root, plan.entries)

    def changes(self) -> list[FileChange]:
        """The files this session changed, each with its diff from before the session to now."""
        first: dict[str, str | None] = {}
        for entry in reversed(self.journal.entries()):
            if entry.session_id == self.session_id and entry.path not in first:
                first[entry.path] = entry.before
        found = []
        for path, before_sha in first.items():
            before = self.journal.blob(before_sha).decode("utf-8", "replace") if before_sha else ""
            target = self.root / path
            after = target.read_text("utf-8", "replace") if target.is_file() else ""
            diff = "".join(
                difflib.unified_diff(
                    before.splitlines(keepends=True),
                    after.splitlines(keepends=True),
                    f"a/{path}",
                    f"b/{path}",
                )
            )
            found.append(FileChange(path, diff, _first_changed_line(diff)))
        return found

    def sessions(self) -> list[SessionInfo]:
        """Saved sessions of the project, newest first."""
        return self.store.list()

    def resume(self, session_id: str) -> list[Message]:
        """Continue a saved session; returns its conversation so far."""
        self._switch(self.store.open(session_id))
        return self.agent.messages

    def clear(self) -> None:
        """Start a new, empty session with the same model and mode."""
        self._switch(self.store.create(cwd=str(self.root)))

    def export_target(self, target: str = "") -> Path:
        """The file `/export TARGET` writes (relative to the project; `~` is the home folder)."""
        name = target or f"asi-session-{self.session_id}.md"
        return (self.root / Path(name).expanduser()).resolve()

    def inside(self, path: Path) -> bool:
        """Whether `path` (resolved) lies inside the project."""
        root = self.root.resolve()
        return path == root or root in path.parents

    def export(self, path: Path) -> Path:
        """Write the conversation as Markdown to `path`; returns it."""
        lines = [f"# asi-agent session {self.session_id}\n"]
        for message in self.agent.messages:
            lines.append(f"## {message.role}\n\n{message.content}\n")
            lines.extend(
                f"```json\n{json.dumps(c.to_dict(), ensure_ascii=False)}\n```\n" for c in message.tool_calls
            )
        try:
            path.write_text("\n".join(lines), encoding="utf-8")
        except OSError as exc:
            raise UserError(f"cannot write {path}: {exc.strerror or exc}") from exc
        return path

    def tools(self) -> list[str]:
        """One line per tool: name, class, source."""
        return [
            f"{r['name']:<30} {r['risk']:<8} {r['source']}"
            for r in describe_tools(self.agent.runner.registry)
        ]

    def set_cursor(self, path: str, line: int = 1) -> None:
        """The file the person opened in the side panel is the cursor for `get_cursor_context`."""
        self.ctx.cursor = Cursor((self.root / path).resolve(), max(1, line), 1)

    def _switch(self, session: Session) -> None:
        old = self.agent
        old.runner.ctx.session_id = session.id
        config = dataclasses.replace(old.config, gate=old.gate.config)
        self.agent = Agent(old.backend, old.runner, session, old.system, config, planner=old.planner_for)
        self._notes.clear()
        self._attach_git()


def trust_question(args: argparse.Namespace) -> list[str]:
    """What the chat shows when it asks whether to trust the project folder: the changes the folder would
    make (settings, policy, plugins, MCP servers); [] when there is nothing to ask (trusted, `--trust`,
    or a folder that changes nothing)."""
    from asi_agent.trust import is_trusted  # noqa: PLC0415

    root = project_root(args)
    if trusted_flag(args) or is_trusted(root):
        return []
    return untrusted_changes(root, config_flags(args))


def git_branch(root: Path) -> str:
    """The checked-out branch from `.git/HEAD` (a short hash when detached, "" outside git)."""
    head = root / ".git" / "HEAD"
    if (root / ".git").is_file():  # a worktree: ".git" names the real folder
        text = (root / ".git").read_text(encoding="utf-8", errors="replace").strip()
        head = (root / text.removeprefix("gitdir:").strip()) / "HEAD"
    try:
        text = head.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""
    return text.removeprefix("ref: refs/heads/") if text.startswith("ref:") else text[:8]


def _first_changed_line(diff: str) -> int:
    for line in diff.splitlines():
        if line.startswith("@@"):
            try:
                return int(line.split("+")[1].split(",")[0].split(" ")[0])
            except (IndexError, ValueError):
                return 1
    return 1
