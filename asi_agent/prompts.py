"""The system prompt: house rules, AGENTS.md, the user prompts, and in text mode the tool contract."""

from __future__ import annotations

from pathlib import Path

__all__ = ["system_prompt"]

BASE = """You are asi-agent, a coding assistant working in the project folder {root}.
You act only through the registered tools; their parameters must match each tool's schema exactly.
Work in steps: first state a short plan, then call tools (read before you edit, search before you guess),
then check your work. Independent read-only calls may be made together in one reply.
When the task is finished (or cannot go on), reply without any tool call: a short summary of what you did,
and as the very last line exactly one of:
AGENT_STATUS: DONE      (the task is complete)
AGENT_STATUS: CONTINUE  (more steps are needed; you will be asked to go on)
AGENT_STATUS: STOP      (you cannot or must not go on; say why)
If a tool returns an error, read it and correct the call instead of repeating it."""


def system_prompt(root: Path, user_config: Path, *, contract: str | None = None, git: bool = True) -> str:
    """Assemble the system prompt from its parts; missing files are simply left out.

    With `git`, a project inside a repository gets its branch, uncommitted files and last commits.
    """
    parts = [BASE.format(root=root)]
    for title, path in (
        ("Project instructions (AGENTS.md)", root / "AGENTS.md"),
        ("User instructions", user_config / "USER_PROMPT.md"),
        ("Project user instructions", root / ".asi" / "USER_PROMPT.md"),
    ):
        text = _read(path)
        if text:
            parts.append(f"## {title}\n{text}")
    if git:
        from asi_agent.vcs import git_context  # noqa: PLC0415 - gitpython is imported only with a repository

        summary = git_context(root) if (root / ".git").exists() or _in_repo(root) else ""
        if summary:
            parts.append(f"## Git\n{summary}")
    if contract:
        parts.append(contract)
    return "\n\n".join(parts)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def _in_repo(root: Path) -> bool:
    """Whether a parent folder holds `.git` (a project in a subfolder of a repository)."""
    return any((parent / ".git").exists() for parent in root.resolve().parents)
