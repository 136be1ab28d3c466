"""Slash commands of both chats: the table (for help and completion) and what each one does."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from asi_agent.exceptions import AsiError
from asi_agent.ui.chatsession import MODES, ChatSession

__all__ = [
    "COMMANDS",
    "KEYS",
    "PLAIN_KEYS",
    "Confirm",
    "SlashReply",
    "complete_command",
    "confirmed",
    "is_command",
    "is_skill_command",
    "run_slash",
    "skill_entries",
    "slash_names",
]

COMMANDS: dict[str, str] = {
    "/help": "the commands and keys",
    "/model": "show the model and the provider's others; /model NAME switches",
    "/mode": "show or set the approval mode: ask, auto-edit, plan, yolo",
    "/tools": "list the tools the model can call",
    "/diff": "the changes this session made, as diffs",
    "/undo": "undo this session's last change; /undo N: project's last N (asks for others')",
    "/clear": "start a new session (the old one stays resumable)",
    "/sessions": "list the saved sessions of this project",
    "/resume": "continue a saved session: /resume ID (default: the newest other one)",
    "/compact": "summarise the older turns now to free context",
    "/export": "write the conversation as Markdown (/export FILE; asks outside the project)",
    "/quit": "leave the chat",
}

KEYS: dict[str, str] = {
    "Enter": "send (Shift+Enter or Ctrl+J: new line); while the agent works: queued",
    "Up / Down": "earlier messages of this project; Down past the newest: the draft back",
    "@path": "attach a file (Tab completes)",
    "!command": "run a shell command through the permission policy",
    "Esc": "interrupt the running turn; back to the input from anywhere",
    "Ctrl+C": "interrupt the running turn; twice: quit",
    "Tab / Shift+Tab": "to the tool cards and back (Up/Down: next card, Enter: open or fold)",
    "Ctrl+B": "show or hide the changed-files panel",
    "Ctrl+Q": "quit",
}
"""The keys of the full-screen chat."""

PLAIN_KEYS: dict[str, str] = {
    "Enter": "send (Esc then Enter: new line)",
    "Up / Down": "earlier messages (history of this project)",
    "Tab": "complete /commands and @files",
    "@path": "attach a file",
    "!command": "run a shell command through the permission policy",
    "Ctrl-C": "interrupt the running turn (at the prompt: clear the line)",
    "Ctrl-D": "quit",
}
"""The keys of `chat --plain`."""

Effect = Literal["", "clear", "quit", "resumed", "status", "compact"]


@dataclass(frozen=True, slots=True)
class Confirm:
    """A question the person must answer yes to before the command goes on (`then` does it)."""

    question: str
    then: Callable[[], SlashReply]


@dataclass(frozen=True, slots=True)
class SlashReply:
    """What a command printed, and what the chat must do besides showing it (or ask first)."""

    text: str
    effect: Effect = ""
    confirm: Confirm | None = None
    """Set when the command waits for a yes: the chat asks `confirm.question` (nobody to ask: no)."""


def is_command(chat: ChatSession, text: str) -> bool:
    """Whether a line is one of the chat's own commands; a skill's, a custom command's and an MCP server's
    prompt (`/server:prompt …`) are sent to the agent as a request instead."""
    if not text.startswith("/") or is_skill_command(chat, text) or chat.commands.expansion(text) is not None:
        return False
    return not _is_mcp_prompt(chat, text)


def _is_mcp_prompt(chat: ChatSession, text: str) -> bool:
    from asi_agent.plugins.mcp import MCP_KEY, McpHub  # noqa: PLC0415

    words = text[1:].split(maxsplit=1)
    server, colon, _ = (words[0] if words else "").partition(":")
    hub = chat.ctx.state.get(MCP_KEY)
    return bool(colon) and isinstance(hub, McpHub) and server in hub.connections


def is_skill_command(chat: ChatSession, text: str) -> bool:
    """Whether `text` is `/NAME …` naming one of the session's skills (sent to the agent as a request)."""
    from asi_agent.skills.session import SKILLS_KEY  # noqa: PLC0415

    skills = chat.ctx.state.get(SKILLS_KEY)
    return skills is not None and skills.parse_command(text) is not None


def skill_entries(chat: ChatSession) -> dict[str, str]:
    """`/NAME` of each of the session's skills, with its summary (for `/help` and completion)."""
    from asi_agent.skills.session import SKILLS_KEY  # noqa: PLC0415

    skills = chat.ctx.state.get(SKILLS_KEY)
    if skills is None:
        return {}
    return {f"/{skill.name}": skill.summary(100) for skill in sorted(skills.skills, key=lambda s: s.name)}


def slash_names(chat: ChatSession) -> list[str]:
    """The custom commands', the skills' and the MCP prompts' `/NAME`s, for completion beside the built-in
    commands."""
    names = chat.commands.names()
    names += [name for name in skill_entries(chat) if name not in names]
    return names + [f"/{prompt[0]}" for prompt in chat.mcp_prompts if f"/{prompt[0]}" not in names]


def complete_command(fragment: str, custom: Iterable[str] = ()) -> list[str]:
    """Commands starting with what was typed (`/m` → `/model`, `/mode`); `custom`: the custom commands'."""
    return [name for name in [*COMMANDS, *custom] if name.startswith(fragment)]


def run_slash(chat: ChatSession, line: str, *, plain: bool = False) -> SlashReply:
    """Run one slash command; problems (unknown command, bad id) come back as text, never raised.

    `plain`: the line-mode chat asks (its keys are listed by /help).
    """
    name, _, rest = line.strip().partition(" ")
    rest = rest.strip()
    if name == "/help":
        return _help(PLAIN_KEYS if plain else KEYS, chat)
    handler = _HANDLERS.get(name)
    if handler is None:
        near = ", ".join(complete_command(name[:3])) or "/help"
        return SlashReply(f"unknown command {name}; try {near}")
    try:
        return handler(chat, rest)
    except AsiError as exc:
        return SlashReply(f"{name}: {exc}")


def confirmed(confirm: Confirm) -> SlashReply:
    """The person said yes: do what waited for it (problems come back as text, as `run_slash`'s do)."""
    try:
        return confirm.then()
    except AsiError as exc:
        return SlashReply(str(exc))


def _help(keys: dict[str, str], chat: ChatSession) -> SlashReply:
    width = max(len(k) for k in [*COMMANDS, *keys])
    lines = [f"{name:<{width}}  {text}" for name, text in COMMANDS.items()]
    custom = chat.commands.help_lines(width)
    if custom:
        lines += ["", "Custom commands (.claude/, .agents/, .asi/, .gemini/commands/, yours):", *custom]
    skills = _skill_lines(chat, width)
    if skills:
        lines += ["", "Skills (/NAME loads one into the request; `asi-agent skills` lists where from):"]
        lines += skills
    if chat.mcp_prompts:
        prompts = [f"{'/' + name:<{width}}  {text}  {args}".rstrip() for name, text, args in chat.mcp_prompts]
        lines += ["", "MCP prompts (sent to the agent as the server's prompt):", *prompts]
    lines += ["", *(f"{key:<{width}}  {text}" for key, text in keys.items())]
    return SlashReply("\n".join(lines))


def _skill_lines(chat: ChatSession, width: int) -> list[str]:
    # a skill of the same name as a command is reached as the command: listed once, there
    taken = {*COMMANDS, *chat.commands.names()}
    return [f"{name:<{width}}  {text}" for name, text in skill_entries(chat).items() if name not in taken]


def _model(chat: ChatSession, rest: str) -> SlashReply:
    if rest:
        chat.switch_model(rest)
        return SlashReply(f"model: {chat.provider} / {chat.model}", "status")
    shown = f"model: {chat.provider} / {chat.model}"
    try:
        offered = chat.models()
    except AsiError as exc:
        return SlashReply(f"{shown}\n(cannot list the others: {exc})")
    if offered is None:
        return SlashReply(f"{shown}  (switch with /model PATH to another model file)")
    listed = "\n".join(f"{'*' if name == chat.model else ' '} {name}" for name in offered)
    return SlashReply(f"{shown}; the server offers (switch with /model NAME):\n{listed}")


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
    if rest and not (rest.isdigit() and int(rest) > 0):
        return SlashReply(
            f"/undo: {rest!r} is not a count; /undo reverts this session's last change, /undo N more"
        )
    plan = chat.plan_undo(int(rest) if rest else None)
    if not plan.entries:
        more = "" if rest else " in this session (/undo N reverts the project's last N changes, after asking)"
        return SlashReply(f"nothing to undo{more}")

    def revert() -> SlashReply:
        return SlashReply("\n".join(chat.undo(plan)), "status")

    if not plan.foreign:
        return revert()
    question = (
        f"Revert these {len(plan.entries)} changes? {plan.foreign} of them are not this session's:\n"
        f"{plan.describe()}"
    )
    return SlashReply("", confirm=Confirm(question, revert))


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
    path = chat.export_target(rest)

    def write() -> SlashReply:
        return SlashReply(f"wrote {chat.export(path)}")

    if path.is_dir():
        return SlashReply(f"/export: {path} is a folder; give a file name")
    if not chat.inside(path):
        return SlashReply("", confirm=Confirm(f"Write {path}? It is outside the project.", write))
    if path.exists():
        return SlashReply("", confirm=Confirm(f"Overwrite {path}?", write))
    return write()


def _quit(_chat: ChatSession, _rest: str) -> SlashReply:
    return SlashReply("bye", "quit")


_HANDLERS: dict[str, Callable[[ChatSession, str], SlashReply]] = {
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
