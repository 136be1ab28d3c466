"""Slash commands of both chats: the table (for help and completion) and what each one does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from asi_agent.exceptions import AsiError
from asi_agent.ui.chatsession import MODES, ChatSession

__all__ = ["COMMANDS", "KEYS", "SlashReply", "complete_command", "run_slash"]

COMMANDS: dict[str, str] = {
    "/help": "the commands and keys",
    "/model": "show the model; /model NAME switches to another model of the same provider",
    "/mode": "show or set the approval mode: ask, auto-edit, plan, yolo",
    "/tools": "list the tools the model can call",
    "/diff": "the changes this session made, as diffs",
    "/undo": "revert the last change (/undo N: the last N)",
    "/clear": "start a new session (the old one stays resumable)",
    "/sessions": "list the saved sessions of this project",
    "/resume": "continue a saved session: /resume ID (default: the newest other one with a conversation)",
    "/compact": "summarise the older turns now to free context",
    "/export": "write the conversation as Markdown (/export FILE)",
    "/quit": "leave the chat",
}

KEYS: dict[str, str] = {
    "Enter": "send (Shift+Enter or Ctrl+J: new line)",
    "Up / Down": "earlier messages (history of this project)",
    "@path": "attach a file (Tab completes)",
    "!command": "run a shell command through the permission policy",
    "Esc": "interrupt the running turn",
    "Ctrl+B": "show or hide the changed-files panel",
    "Ctrl+Q": "quit",
}

Effect = Literal["", "clear", "quit", "resumed", "status", "compact"]


@dataclass(frozen=True, slots=True)
class SlashReply:
    """What a command printed, and what the chat must do besides showing it."""

    text: str
    effect: Effect = ""


def complete_command(fragment: str) -> list[str]:
    """Commands starting with what was typed (`/m` → `/model`, `/mode`)."""
    return [name for name in COMMANDS if name.startswith(fragment)]


def run_slash(chat: ChatSession, line: str) -> SlashReply:
    """Run one slash command; problems (unknown command, bad id) come back as text, never raised."""
    name, _, rest = line.strip().partition(" ")
    rest = rest.strip()
    handler = _HANDLERS.get(name)
    if handler is None:
        near = ", ".join(complete_command(name[:3])) or "/help"
        return SlashReply(f"unknown command {name}; try {near}")
    try:
        return handler(chat, rest)
    except AsiError as exc:
        return SlashReply(f"{name}: {exc}")


def _help(_chat: ChatSession, _rest: str) -> SlashReply:
    width = max(len(k) for k in [*COMMANDS, *KEYS])
    lines = [f"{name:<{width}}  {text}" for name, text in COMMANDS.items()]
    lines += ["", *(f"{key:<{width}}  {text}" for key, text in KEYS.items())]
    return SlashReply("\n".join(lines))


def _model(chat: ChatSession, rest: str) -> SlashReply:
    if rest:
        chat.switch_model(rest)
        return SlashReply(f"model: {chat.provider} / {chat.model}", "status")
    return SlashReply(f"model: {chat.provider} / {chat.model}  (switch with /model NAME)")


def _mode(chat: ChatSession, rest: str) -> SlashReply:
    if not rest:
        return SlashReply(f"mode: {chat.mode}  (choose one of {', '.join(MODES)})")
    if rest not in MODES:
        return SlashReply(f"/mode: unknown mode {rest!r}; choose one of {', '.join(MODES)}")
    chat.set_mode(rest)
    return SlashReply(f"mode: {rest} (from the next call on)", "status")


def _tools(chat: ChatSession, _rest: str) -> SlashReply:
    return SlashReply("\n".join(chat.tools()))


def _diff(chat: ChatSession, _rest: str) -> SlashReply:
    changes = chat.changes()
    if not changes:
        return SlashReply("no changes in this session")
    return SlashReply("\n".join(change.diff or f"{change.path}: unchanged now" for change in changes))


def _undo(chat: ChatSession, rest: str) -> SlashReply:
    count = int(rest) if rest.isdigit() and int(rest) > 0 else 1
    reverted = chat.undo(count)
    return SlashReply("\n".join(reverted) or "nothing to undo", "status")


def _clear(chat: ChatSession, _rest: str) -> SlashReply:
    old = chat.session_id
    chat.clear()
    return SlashReply(f"new session {chat.session_id} (resume the old one with /resume {old})", "clear")


def _sessions(chat: ChatSession, _rest: str) -> SlashReply:
    found = chat.sessions()
    if not found:
        return SlashReply("no sessions yet")
    mark = {chat.session_id: "*"}
    return SlashReply(
        "\n".join(
            f"{mark.get(s.id, ' ')} {s.id}  {s.started[:16]}  {s.status:<11} {s.task}" for s in found[:20]
        )
    )


def _resume(chat: ChatSession, rest: str) -> SlashReply:
    # a chat opens a session at start, so an idle visit leaves an empty one: not what "go back" means
    target = rest or next((s.id for s in chat.sessions() if s.id != chat.session_id and s.task), "")
    if not target:
        return SlashReply("no other session to resume")
    messages = chat.resume(target)
    return SlashReply(f"resumed {target} ({len(messages)} messages)", "resumed")


def _compact(_chat: ChatSession, _rest: str) -> SlashReply:
    return SlashReply("compacting the conversation …", "compact")  # the chat awaits `chat.compact()`


def _export(chat: ChatSession, rest: str) -> SlashReply:
    return SlashReply(f"wrote {chat.export(rest)}")


def _quit(_chat: ChatSession, _rest: str) -> SlashReply:
    return SlashReply("bye", "quit")


_HANDLERS = {
    "/help": _help,
    "/model": _model,
    "/mode": _mode,
    "/tools": _tools,
    "/diff": _diff,
    "/undo": _undo,
    "/clear": _clear,
    "/sessions": _sessions,
    "/resume": _resume,
    "/compact": _compact,
    "/export": _export,
    "/quit": _quit,
}
