"""The Textual chat: a conversation view, an input with history and completion, a status bar, and a
panel of changed files. The agent runs in a worker; approvals are a modal that resolves the event's future."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import ClassVar, cast

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.events import Key
from textual.markup import escape
from textual.widgets import OptionList
from textual.worker import Worker

from asi_agent.config import Approval, load_config
from asi_agent.events import AgentEvent, ApprovalRequested
from asi_agent.exceptions import AsiError, UserError
from asi_agent.handoff import RUN_PLAN
from asi_agent.runsettings import config_flags, trusted_flag
from asi_agent.threads import abandon_threads_at_exit
from asi_agent.tools.todo import current_todos
from asi_agent.trust import trust_folder
from asi_agent.ui.chatsession import ChatSession, FileChange, git_branch, trust_question
from asi_agent.ui.cli import project_root
from asi_agent.ui.firstrun import needs_setup
from asi_agent.ui.history import InputHistory
from asi_agent.ui.idle import IdleNotice
from asi_agent.ui.mentions import FileIndex
from asi_agent.ui.slash import Confirm, SlashReply, confirmed, is_command, run_slash, slash_names
from asi_agent.ui.tui.handoff import PlanHandoffScreen
from asi_agent.ui.tui.inputaid import InputAid
from asi_agent.ui.tui.keys import KeyRouter, SecondPress
from asi_agent.ui.tui.screens import ApprovalScreen, ConfirmScreen, FirstRunScreen, TrustScreen
from asi_agent.ui.tui.todos import TodoPanel
from asi_agent.ui.tui.turn import TurnView, replay, tokens_label
from asi_agent.ui.tui.widgets import ChangesPanel, ChatInput, Notice, StatusBar, UserLine

__all__ = ["ChatApp"]

QUIT_AGAIN_SECONDS = 3.0
"""A second Ctrl+C within this time quits."""


class ChatApp(App[int]):
    """`asi-agent` / `asi-agent chat`."""

    CSS_PATH = "styles.tcss"
    TITLE = "asi-agent"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "interrupt", "interrupt", show=False),
        Binding("ctrl+c", "ctrl_c", "interrupt, or quit", show=False, priority=True),
        Binding("ctrl+b", "toggle_changes", "changed files", show=False),
        Binding("ctrl+q", "quit", "quit", show=False, priority=True),
    ]

    def __init__(self, args: argparse.Namespace, chat: ChatSession | None = None) -> None:
        super().__init__()
        self.args = args
        self.root = project_root(args)
        self.chat = chat
        self.history = InputHistory(self.root)
        self.files = FileIndex(self.root)
        self.turn_worker: Worker[None] | None = None
        self.queued: list[str] = []
        self._idle: IdleNotice | None = None
        """Messages sent while the agent worked; each is sent when the turn before it ends."""
        # kept, not queried: a query looks at the top screen, which may be the modal
        self.conversation = VerticalScroll(id="conversation")
        self.panel = ChangesPanel(id="changes")
        self.todos = TodoPanel()
        self.completions = OptionList(id="completions")
        self.input = ChatInput(id="input", soft_wrap=True, show_line_numbers=False, compact=True)
        self.status = StatusBar()
        self.keys = KeyRouter(self.input, self.conversation)
        self.aid = InputAid(self.input, self.completions, self.files, self.history, self._commands)
        self.ctrl_c = SecondPress(QUIT_AGAIN_SECONDS)

    def _commands(self) -> list[str]:
        return slash_names(self.chat) if self.chat is not None else []

    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            yield self.conversation
            yield self.panel
        yield self.todos
        yield self.completions
        yield self.input
        yield self.status

    async def on_mount(self) -> None:
        """Lay out, then connect to the model (after the first-run screen when none is configured)."""
        abandon_threads_at_exit()
        self.panel.display = False
        self.completions.display = False
        self.conversation.anchor()
        self.input.focus()
        self.set_interval(0.2, self.status.tick)
        self.status.set(project=self.root.name, branch=_branch(self.root))
        if self.chat is not None:
            await self._chat_ready()
        else:
            self._connect()

    async def say(self, text: str, *, error: bool = False) -> None:
        """Add a note from the chat itself to the conversation."""
        await self.conversation.mount(Notice(text, error=error))

    # -- connecting -------------------------------------------------------------------------------

    @work(exclusive=True, group="connect")
    async def _connect(self) -> None:
        try:
            await self._ask_trust()  # first: a trusted folder's own settings may name the model
            if needs_setup(load_config(self.root, config_flags(self.args), trusted=trusted_flag(self.args))):
                await self.push_screen_wait(FirstRunScreen())
            self.status.busy("connecting to the model")
            self.chat = await asyncio.to_thread(ChatSession.open, self.args)
        except UserError as exc:
            self.status.busy("")
            await self.say(f"cannot start: {exc}", error=True)
            return
        await self._chat_ready()

    async def _ask_trust(self) -> None:
        """A folder not trusted yet that would change the settings: ask once (trust is remembered)."""
        changes = trust_question(self.args)  # a few small files read, nothing run
        if not changes:
            return
        if await self.push_screen_wait(TrustScreen(self.root, changes)):
            trust_folder(self.root)

    async def _chat_ready(self) -> None:
        assert self.chat is not None
        self.status.busy("")
        for problem in await self.chat.start():
            await self.say(f"warning: {problem}", error=True)
        self._refresh_status()
        if self.chat.agent.messages:  # --resume ID
            await replay(self.conversation, self.chat.agent.messages)
            self._session_tokens()
            await self._refresh_changes()
        await self.say(
            f"Working in {self.root.name}: ask away. /help lists commands and keys; Esc interrupts."
        )

    def _session_tokens(self) -> None:
        """A resumed session's tokens so far (the next turn counts on from there)."""
        assert self.chat is not None
        self.status.set(tokens=tokens_label(self.chat.tokens_used()))

    def _refresh_status(self) -> None:
        chat = self.chat
        if chat is not None:
            self.status.set(model=f"{chat.provider}/{chat.model}", mode=f"mode {chat.mode} · {chat.sandbox}")

    # -- input ------------------------------------------------------------------------------------

    @on(ChatInput.Submitted)
    async def _submitted(self, event: ChatInput.Submitted) -> None:
        text = event.text.strip()
        if not text:
            return
        self._idle_notice(arm=False)
        self.input.clear()
        self.history.add(text)
        if self.busy:
            self.queued.append(text)
            await self.say(f"queued (sent when the agent is done; Esc interrupts it): {text}")
            return
        await self._send(text)

    @property
    def busy(self) -> bool:
        """A turn (or a compaction) is running."""
        return self.turn_worker is not None and self.turn_worker.is_running

    async def _send(self, text: str) -> None:
        if self.chat is None:
            await self.say("no model is connected yet", error=True)
        elif is_command(self.chat, text):
            await self._slash(text)
        else:
            self.turn_worker = self._turn(text)

    async def _slash(self, text: str) -> None:
        assert self.chat is not None
        await self.conversation.mount(UserLine(text))
        reply = run_slash(self.chat, text)
        if reply.confirm is not None:
            question = reply.confirm
            self.push_screen(ConfirmScreen(question.question), lambda yes: self._confirmed(question, yes))
            return
        await self._slash_done(reply)

    async def _confirmed(self, question: Confirm, yes: bool | None) -> None:
        await self._slash_done(confirmed(question) if yes else SlashReply("not done"))

    async def _slash_done(self, reply: SlashReply) -> None:
        assert self.chat is not None
        if reply.effect == "quit":
            self.exit(0)
            return
        if reply.effect == "compact":
            await self.say(reply.text)
            self.turn_worker = self._compact()
            return
        if reply.effect in ("clear", "resumed"):
            await self.conversation.remove_children()
            self.status.set(turn="", tokens="", context="", agent_status="")
        if reply.effect == "resumed":
            await replay(self.conversation, self.chat.agent.messages)
            self._session_tokens()
        await self.say(reply.text)
        self._refresh_status()
        await self._refresh_changes()

    @on(ChatInput.HistoryWanted)
    def _history(self, event: ChatInput.HistoryWanted) -> None:
        self.aid.recall(older=event.older)

    @on(ChatInput.Changed)
    def _typed(self) -> None:
        self._idle_notice(arm=False)
        self.aid.typed()

    @on(ChatInput.CompletionKey)
    def _completion_key(self, event: ChatInput.CompletionKey) -> None:
        if self.aid.key(event.key):
            self.post_message(ChatInput.Submitted(self.input.text))

    # -- a turn -----------------------------------------------------------------------------------

    @work(exclusive=True, group="turn")
    async def _turn(self, text: str) -> None:
        assert self.chat is not None
        await self.conversation.mount(UserLine(text))
        self.conversation.anchor()
        shell = text.startswith("!")
        view = TurnView(self.conversation, self.status, self.chat.tokens_used(), open_output=shell)
        events: AsyncGenerator[AgentEvent, None]
        events = self.chat.shell(text[1:].strip()) if shell else self.chat.turn(text)
        self.status.set(agent_status="")
        self.status.busy("thinking")
        interrupted = False
        try:
            async for event in events:
                if isinstance(event, ApprovalRequested):
                    if not await self._ask(event):
                        interrupted = True
                        break
                else:
                    await view.show(event)
                    self.todos.observe(event, self.chat.agent.runner.ctx.state)
        except asyncio.CancelledError:
            interrupted = True
            raise
        except AsiError as exc:  # e.g. a `!command` the registry cannot prepare
            await self.say(str(exc), error=True)
        finally:
            await self._turn_ended(events, view, interrupted)

    async def _handed_off(self, mode: str | None) -> None:
        """Run the plan in the chosen mode, its todo list kept; None: stay in plan mode."""
        if self.chat is None or mode is None:
            await self.say("still in plan mode: refine the plan, or /mode to change the mode")
            return
        try:
            self.chat.set_mode(cast(Approval, mode))
        except UserError as exc:
            await self.say(str(exc), error=True)
            return
        self._refresh_status()
        self.turn_worker = self._turn(RUN_PLAN)

    @work(exclusive=True, group="turn")
    async def _compact(self) -> None:
        assert self.chat is not None
        self.status.busy("compacting")
        try:
            await self.say(await self.chat.compact())
            left = self.chat.agent.context.context_left
            if left is not None:
                self.status.set(context=f"{left:,} left")
        except AsiError as exc:  # the model could not summarise
            await self.say(f"/compact: {exc}", error=True)
        finally:
            self.status.busy("")
            if self.queued:
                self.call_later(self._send_queued)

    def _idle_notice(self, *, arm: bool) -> None:
        """The `idle_prompt` notice: armed when a turn ends, disarmed when the person types or sends."""
        if self.chat is not None and (self._idle is None or self._idle.chat is not self.chat):
            self._idle = IdleNotice(self.chat)
        if self._idle is not None:
            self._idle.arm() if arm else self._idle.disarm()

    async def _turn_ended(
        self, events: AsyncGenerator[AgentEvent, None], view: TurnView, interrupted: bool
    ) -> None:
        await events.aclose()
        if interrupted and self.chat is not None:
            self.chat.interrupted(view.partial)
        if not self.conversation.is_attached:  # the app is closing
            return
        await view.stop()
        self.status.busy("")
        if interrupted:
            self.status.set(agent_status="INTERRUPTED")
            await self.say("interrupted: what was done is kept; send a message to go on")
        self.files.refresh()
        await self._refresh_changes()
        self._idle_notice(arm=not self.queued)
        todos = current_todos(self.chat.agent.runner.ctx.state) if self.chat is not None else []
        if not interrupted and todos and self.chat is not None and self.chat.mode == "plan":
            self.push_screen(PlanHandoffScreen(todos), self._handed_off)
        if self.queued:
            if interrupted:  # an interrupt stops what was queued behind it too; it goes back to the input
                self.input.text = "\n".join([*self.queued, self.input.text]).strip()
                self.queued.clear()
            else:
                self.call_later(self._send_queued)

    async def _send_queued(self) -> None:
        if self.busy:  # called as the worker ends: its state may not say so yet
            self.set_timer(0.05, self._send_queued)
        elif self.queued:
            await self._send(self.queued.pop(0))

    async def _ask(self, request: ApprovalRequested) -> bool:
        """Show the modal; False when the person pressed Esc (the turn stops, the call is refused)."""
        self.status.waiting(f"waiting for you: {request.call.name}?")
        verdict = await self.push_screen_wait(ApprovalScreen(request))
        if verdict is None:
            request.answer.set_result("no")
            return False
        answer, note = verdict
        request.note = note
        request.answer.set_result(answer)
        self.status.busy("thinking")
        return True

    def action_interrupt(self) -> None:
        """Esc: close the completion list or interrupt the running turn; always back to the input."""
        if self.completions.display:
            self.aid.hide()
        elif self.turn_worker is not None and self.turn_worker.is_running:
            self.turn_worker.cancel()
        self.input.focus()

    def action_ctrl_c(self) -> None:
        """Ctrl+C: interrupt the running turn; pressed again within three seconds, quit."""
        if self.ctrl_c.again():
            self.exit(0)
        elif self.busy and self.turn_worker is not None:
            self.turn_worker.cancel()
            self.input.focus()
            self.notify("interrupted; Ctrl+C again quits")
        else:
            self.notify("Ctrl+C again (or Ctrl+Q) quits")

    def on_key(self, event: Key) -> None:
        """Keys that reach no widget: typing goes to the input, arrows walk the tool cards."""
        if self.screen is self.screen_stack[0]:  # not under a modal
            self.keys.route(self.focused, event)

    # -- changed files ----------------------------------------------------------------------------

    def action_toggle_changes(self) -> None:
        """Show or hide the changed-files panel."""
        self.panel.toggle(self.input)

    @property
    def changes(self) -> dict[str, FileChange]:
        """The files this session changed, by path, as the panel shows them."""
        return self.panel.changes

    async def _refresh_changes(self) -> None:
        if self.chat is not None:
            await self.panel.set_files(self.chat.changes())

    @on(ChangesPanel.Opened)
    def _opened(self, event: ChangesPanel.Opened) -> None:
        change = self.changes.get(event.path)
        if change is None or self.chat is None:
            return
        self.chat.set_cursor(change.path, change.first_line)
        self.notify(escape(f"cursor for get_cursor_context: {change.path}:{change.first_line}"))

    async def on_unmount(self) -> None:
        """Release the model and the tools."""
        if self.chat is not None:
            await self.chat.close()


def _branch(root: Path) -> str:
    branch = git_branch(root)
    return f"⎇ {branch}" if branch else ""
