"""`asi-agent chat --plain`: a line-mode chat on prompt-toolkit for SSH, screen readers and logs.

The same agent, commands and approvals as the full-screen chat, as lines: the reply streams as text,
each tool call is one line, a change is a coloured diff, and an approval is an inline question.
Without a terminal (piped input) messages are read line by line and every "ask" is a refusal.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import AsyncGenerator, Iterable
from typing import Any

from asi_agent.config import load_config
from asi_agent.events import AgentEvent, Answer, ApprovalRequested, SubagentEvent
from asi_agent.exceptions import AsiError
from asi_agent.runsettings import config_flags, trusted_flag
from asi_agent.threads import abandon_threads_at_exit, leave
from asi_agent.ui.chatsession import ChatSession, trust_question
from asi_agent.ui.cli import project_root
from asi_agent.ui.confirm import describe
from asi_agent.ui.firstrun import needs_setup
from asi_agent.ui.history import InputHistory
from asi_agent.ui.idle import IdleNotice
from asi_agent.ui.mentions import MENTION, FileIndex
from asi_agent.ui.plain_lines import LinePrinter, ending_detail, replay_lines, say
from asi_agent.ui.slash import (
    COMMANDS,
    Confirm,
    SlashReply,
    confirmed,
    is_command,
    run_slash,
    skill_entries,
)

__all__ = ["PlainChat", "ending_detail", "replay_lines", "run_plain"]

ANSWERS: dict[str, Answer] = {"y": "yes", "n": "no", "a": "always"}


def run_plain(args: argparse.Namespace) -> int:
    """Run the line-mode chat until /quit, Ctrl-D or end of input; returns the exit code."""
    interactive = sys.stdin.isatty()
    changes = trust_question(args) if interactive else []
    if changes:  # first: a trusted folder's own settings may name the model
        from asi_agent.ui.plain_setup import ask_trust_in_terminal  # noqa: PLC0415

        asyncio.run(ask_trust_in_terminal(project_root(args), changes))
    flags = config_flags(args)
    if interactive and needs_setup(load_config(project_root(args), flags, trusted=trusted_flag(args))):
        from asi_agent.ui.plain_setup import setup_in_terminal  # noqa: PLC0415

        asyncio.run(setup_in_terminal())
    chat = ChatSession.open(args, interactive=interactive)
    # a model still writing an interrupted reply, or a plugin still working, must not hold the process
    return leave(asyncio.run(PlainChat(chat, interactive=interactive).run()))


class PlainChat:
    """The read–run–print loop."""

    def __init__(self, chat: ChatSession, *, interactive: bool) -> None:
        self.chat = chat
        self.interactive = interactive
        self.history = InputHistory(chat.root)
        self.files = FileIndex(chat.root)
        self._prompt: Any = None
        self.idle = IdleNotice(chat)

    async def run(self) -> int:
        """Read messages until the person leaves."""
        abandon_threads_at_exit()
        try:
            for problem in await self.chat.start():
                say(f"warning: {problem}")
            say(
                f"asi-agent in {self.chat.root} · {self.chat.provider}/{self.chat.model} · mode "
                f"{self.chat.mode}. /help lists commands; Ctrl-C interrupts a turn; Ctrl-D quits."
            )
            say(self.chat.sandbox_note)
            if self.chat.agent.messages:  # --resume ID
                say("\n".join(replay_lines(self.chat.agent.messages)))
            while (line := await self._read()) is not None:
                self.idle.disarm()
                if not await self._handle(line.strip()):
                    break
        finally:
            self.idle.disarm()
            await self.chat.close()
        return 0

    async def _handle(self, text: str) -> bool:
        """Act on one input line; False ends the chat."""
        if not text:
            return True
        self.history.add(text)
        if is_command(self.chat, text):
            reply = run_slash(self.chat, text, plain=True)
            if reply.confirm is not None:
                reply = await self._confirm(reply.confirm)
            if reply.effect == "resumed":
                say("\n".join(replay_lines(self.chat.agent.messages)))
            say(reply.text)
            if reply.effect == "compact":
                say(await self.chat.compact())
            return reply.effect != "quit"
        if text.startswith("!"):
            await self._turn(self.chat.shell(text[1:].strip()))
        else:
            await self._turn(self.chat.turn(text))
        self.idle.arm()
        return True

    async def _confirm(self, confirm: Confirm) -> SlashReply:
        """Ask a command's yes/no question; without a terminal nobody can say yes, so it is a no."""
        say(confirm.question)
        if not self.interactive:
            return SlashReply("not done: this needs a yes, and nobody can answer without a terminal")
        from prompt_toolkit import PromptSession  # noqa: PLC0415

        session: PromptSession[str] = PromptSession()
        try:
            answer = (await session.prompt_async("[y]es / [n]o: ")).strip().lower()
        except (KeyboardInterrupt, EOFError):
            answer = ""
        return confirmed(confirm) if answer in ("y", "yes") else SlashReply("not done")

    async def _read(self) -> str | None:
        if not self.interactive:
            line = await asyncio.to_thread(sys.stdin.readline)
            return line if line else None
        if self._prompt is None:
            self._prompt = _prompt_session(self)
        try:
            text: str = await self._prompt.prompt_async("› ")
        except KeyboardInterrupt:
            return ""  # Ctrl-C at the prompt clears the line; Ctrl-D or /quit leaves
        except EOFError:
            return None
        return text

    async def _turn(self, events: AsyncGenerator[AgentEvent, None]) -> None:
        """Run one turn; Ctrl-C interrupts it and keeps what was done."""
        printer = LinePrinter()
        loop = asyncio.get_running_loop()
        task = asyncio.ensure_future(self._consume(events, printer))
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no signals off the main thread
            loop.add_signal_handler(signal.SIGINT, task.cancel)
        interrupted = False
        try:
            await task
        except (asyncio.CancelledError, _Interrupted):
            interrupted = True
        except AsiError as exc:
            say(f"error: {exc}")
        finally:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGINT)
            await events.aclose()
        if interrupted:
            self.chat.interrupted(printer.partial)
            say("\ninterrupted: what was done is kept; send a message to go on")

    async def _consume(self, events: AsyncGenerator[AgentEvent, None], printer: LinePrinter) -> None:
        async for event in events:
            if isinstance(event, ApprovalRequested):
                answer, note = await self._ask(event)
                event.note = note
                event.answer.set_result(answer)
            elif isinstance(event, SubagentEvent):
                printer.child(event)
            else:
                printer.show(event)

    async def _ask(self, request: ApprovalRequested) -> tuple[Answer, str]:
        from prompt_toolkit import PromptSession, print_formatted_text  # noqa: PLC0415
        from prompt_toolkit.formatted_text import FormattedText  # noqa: PLC0415

        print_formatted_text(FormattedText(describe(request)))
        offered = request.rule.startswith("mode ")  # destructive commands, secrets, rules: every time
        always = " / [a]lways for this tool" if offered else ""
        session: PromptSession[str] = PromptSession()
        keys: PromptSession[str] = PromptSession(key_bindings=_one_key("ynaed" if offered else "yned"))
        question = f"Allow? [y]es / [n]o{always} / [e] no, say why / [d]iff: "
        while True:
            try:
                reply = (await keys.prompt_async(question)).strip().lower()
                if reply == "e":
                    return "no", (await session.prompt_async("Why not? ")).strip()
            except (KeyboardInterrupt, EOFError):
                request.answer.set_result("no")
                raise _Interrupted from None
            if reply == "d":
                print_formatted_text(FormattedText(describe(request, full_diff=True)))
            elif reply in ANSWERS and (offered or reply != "a"):
                return ANSWERS[reply], ""


def _one_key(letters: str) -> Any:
    """Key bindings that answer a question with one of `letters` as soon as it is pressed (no Enter)."""
    from prompt_toolkit.key_binding import KeyBindings  # noqa: PLC0415

    bindings = KeyBindings()
    for letter in letters:
        for key in (letter, letter.upper()):
            bindings.add(key)(lambda event, letter=letter: event.app.exit(result=letter))
    return bindings


class _Interrupted(Exception):
    """Ctrl-C or Ctrl-D at an approval question: refuse the call and stop the turn."""


def _prompt_session(plain: PlainChat) -> Any:
    """A prompt with the project's history, completion of /commands and @files, Esc-Enter for a new line."""
    from prompt_toolkit import PromptSession  # noqa: PLC0415
    from prompt_toolkit.completion import Completer, Completion  # noqa: PLC0415
    from prompt_toolkit.history import InMemoryHistory  # noqa: PLC0415
    from prompt_toolkit.key_binding import KeyBindings  # noqa: PLC0415

    class _Completer(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Iterable[Completion]:
            word = document.get_word_before_cursor(WORD=True)
            if word.startswith("/") and document.text.strip() == word:
                custom = {f"/{n}": c.description for n, c in plain.chat.commands.commands.items()}
                for name, text in {**skill_entries(plain.chat), **COMMANDS, **custom}.items():
                    if name.startswith(word):
                        yield Completion(name, -len(word), display_meta=text)
            elif MENTION.fullmatch(word) or word == "@":
                for path in plain.files.complete(word[1:]):
                    yield Completion(f"@{path}", -len(word))

    keys = KeyBindings()

    @keys.add("escape", "enter")
    def _newline(event: Any) -> None:
        event.current_buffer.insert_text("\n")

    history = InMemoryHistory(list(plain.history.entries))
    return PromptSession(
        history=history, completer=_Completer(), key_bindings=keys, complete_while_typing=True
    )
