"""The chat's slash commands that make sense in an editor, offered as the session's available commands.

A prompt whose first word is one of them runs it instead of the model: `/undo`, `/diff`, `/compact`,
`/mode`, `/tools`, `/sessions`, `/help`. What it prints comes back as the agent's message.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from acp.schema import AvailableCommand, AvailableCommandInput, UnstructuredCommandInput

from asi_agent.acp.options import MODES
from asi_agent.commands import CustomCommand
from asi_agent.exceptions import AsiError
from asi_agent.plugins import describe_tools
from asi_agent.session import SessionStore
from asi_agent.vcs.journal_diff import journal_diff

if TYPE_CHECKING:
    from asi_agent.acp.session import EditorSession

__all__ = ["COMMANDS", "available_commands", "command_of", "prompt_commands", "run_command"]

COMMANDS: dict[str, tuple[str, str | None]] = {
    "undo": ("revert the last change asi-agent made (/undo N: the last N)", "how many changes (default 1)"),
    "diff": ("the changes this session made, as one diff", None),
    "compact": ("summarise the older turns now to free context", None),
    "mode": ("show or set the approval mode: " + ", ".join(MODES), "ask, auto-edit, plan or yolo"),
    "tools": ("list the tools the model can call", None),
    "sessions": ("list the saved sessions of this project (load one from the editor's history)", None),
    "help": ("these commands", None),
}
"""Name → (what it does, the hint for its argument or None when it takes none)."""

Handler = Callable[["EditorSession", str], Awaitable[str]]


def available_commands(custom: Mapping[str, CustomCommand] | None = None) -> list[AvailableCommand]:
    """The commands as the protocol's `available_commands_update` lists them, the custom ones (command
    files: sent to the model as their prompt) after the built-in ones."""
    listed = {name: (text, hint) for name, (text, hint) in COMMANDS.items()}
    for name, command in sorted((custom or {}).items()):
        listed.setdefault(
            name, (command.description or f"custom command ({command.source})", command.argument_hint or None)
        )
    return [
        AvailableCommand(
            name=name,
            description=text,
            input=AvailableCommandInput(root=UnstructuredCommandInput(hint=hint)) if hint else None,
        )
        for name, (text, hint) in listed.items()
    ]


def prompt_commands(prompts: list[tuple[str, str, str]]) -> list[AvailableCommand]:
    """The MCP servers' prompts as commands (`/server:prompt ARGS`), resolved when the prompt runs."""
    return [
        AvailableCommand(
            name=name,
            description=f"MCP prompt: {text}",
            input=AvailableCommandInput(root=UnstructuredCommandInput(hint=arguments)) if arguments else None,
        )
        for name, text, arguments in prompts
    ]


def command_of(text: str) -> tuple[str, str] | None:
    """(name, rest) when the prompt is one of the commands (`/undo 2`), else None."""
    word, _, rest = text.strip().partition(" ")
    if not word.startswith("/") or word[1:] not in COMMANDS:
        return None
    return word[1:], rest.strip()


async def run_command(session: EditorSession, name: str, rest: str) -> str:
    """Run a command; its problems come back as text, never raised."""
    try:
        return await _HANDLERS[name](session, rest)
    except AsiError as exc:
        return f"/{name}: {exc}"


async def _undo(session: EditorSession, rest: str) -> str:
    if rest and not (rest.isdigit() and int(rest) > 0):
        return f"/undo: {rest!r} is not a number of changes; give a whole number such as /undo 2"
    ctx = session.agent.runner.ctx
    reverted = ctx.journal.undo(ctx.root, int(rest or 1))
    await session.files.push((ctx.root / entry.path).resolve() for entry in reverted)
    return "\n".join(f"reverted #{e.seq} {e.tool} {e.path}" for e in reverted) or "nothing to undo"


async def _diff(session: EditorSession, _rest: str) -> str:
    ctx = session.agent.runner.ctx
    try:
        _, text = journal_diff(ctx.root, ctx.journal, session.id)
    except AsiError:
        return "no changes in this session"
    return f"```diff\n{text.rstrip()}\n```" if text.strip() else "no changes in this session (all undone)"


async def _compact(session: EditorSession, _rest: str) -> str:
    done = await session.agent.compact()
    if done is None:
        return "nothing to compact: the conversation is already as short as it can be"
    return (
        f"compacted {done.tokens_before:,} → {done.tokens_after:,} tokens "
        f"({done.summarised} messages summarised, {done.shrunk} results shortened)"
    )


async def _mode(session: EditorSession, rest: str) -> str:
    if not rest:
        return f"mode: {session.mode} (choose one of {', '.join(MODES)})"
    if rest not in MODES:
        return f"/mode: unknown mode {rest!r}; choose one of {', '.join(MODES)}"
    await session.switch_mode(rest)
    return f"mode: {rest} (from the next call on)"


async def _tools(session: EditorSession, _rest: str) -> str:
    rows = describe_tools(session.agent.runner.registry)
    return "\n".join(f"{r['name']:<30} {r['risk']:<8} {r['source']}" for r in rows)


async def _sessions(session: EditorSession, _rest: str) -> str:
    found = SessionStore(session.agent.runner.ctx.state_dir).list()
    return "\n".join(
        f"{'*' if s.id == session.id else ' '} {s.id}  {s.started[:16]}  {s.status:<11} {s.task}"
        for s in found[:20]
    )


async def _help(_session: EditorSession, _rest: str) -> str:
    return "\n".join(f"/{name:<9} {text}" for name, (text, _) in COMMANDS.items())


_HANDLERS: dict[str, Handler] = {
    "undo": _undo,
    "diff": _diff,
    "compact": _compact,
    "mode": _mode,
    "tools": _tools,
    "sessions": _sessions,
    "help": _help,
}
