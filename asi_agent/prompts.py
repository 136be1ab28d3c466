"""The system prompt: house rules, the project's instruction files, the user prompts, and in text mode
the tool contract.

Projects keep instructions for coding agents under several names; all of them are read, `AGENTS.md`
first, each file once (a symlink or a copy of another is skipped) and cut at `MAX_INSTRUCTION_CHARS`; their
`@path` lines import other files (`asi_agent.instructions`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from asi_agent.instructions import expand_imports
from asi_agent.trust import inside_project

__all__ = [
    "INSTRUCTION_FILES",
    "MAX_INSTRUCTION_CHARS",
    "InstructionFile",
    "ProjectPrompt",
    "instruction_files",
    "project_prompt",
    "system_prompt",
    "with_language",
]

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

INSTRUCTION_FILES = (
    "AGENTS.md",
    "CLAUDE.md",
    "GEMINI.md",
    "QWEN.md",
    ".cursorrules",
    ".github/copilot-instructions.md",
)
"""Project instruction files of coding agents, in the order they are read (relative to the project root)."""
MAX_INSTRUCTION_CHARS = 20_000
"""Each instruction file is cut after this many characters, so one large file cannot fill the context."""


class InstructionFile(NamedTuple):
    """One project instruction file as it goes into the system prompt."""

    name: str
    text: str
    truncated: bool = False


def instruction_files(root: Path) -> list[InstructionFile]:
    """The project's instruction files that exist and are not empty, each read once, in order."""
    found: list[InstructionFile] = []
    seen_paths: set[Path] = set()
    seen_texts: set[str] = set()
    for name in INSTRUCTION_FILES:
        path = root / name
        try:
            real = path.resolve()
        except OSError:
            continue
        # A link leading out of the project (to a file of the person's) is not read: every run would send
        # that file's text to the model server.
        if real in seen_paths or not path.is_file() or not inside_project(real, root):
            continue
        seen_paths.add(real)
        text = expand_imports(_read(path, limit=MAX_INSTRUCTION_CHARS + 1), path, root)
        digest = hashlib.sha256(text.encode()).hexdigest()
        if not text or digest in seen_texts:
            continue
        seen_texts.add(digest)
        cut = len(text) > MAX_INSTRUCTION_CHARS
        if cut:
            text = (
                text[:MAX_INSTRUCTION_CHARS]
                + f"\n[… {name} goes on; only its first {MAX_INSTRUCTION_CHARS} characters are included]"
            )
        found.append(InstructionFile(name, text, cut))
    return found


class ProjectPrompt(NamedTuple):
    """A project's instruction files, and the system prompt made with them."""

    instructions: list[InstructionFile]
    system: str


def project_prompt(root: Path, user_config: Path) -> ProjectPrompt:
    """The system prompt of a run in `root` (`user_config`: the user configuration folder)."""
    instructions = instruction_files(root)
    return ProjectPrompt(instructions, system_prompt(root, user_config, instructions=instructions))


LANGUAGE_NOTES = {
    "zh": "## Language\nThe person works in Chinese: write your replies to them in Chinese (简体中文); "
    "keep code, paths, tool names and AGENT_STATUS lines as they are.",
}
"""What the system prompt adds for a `tool_locale` other than English (the prompt itself is English)."""


def with_language(system: str, locale: str) -> str:
    """The system prompt with the note of `locale` appended (none for `en`)."""
    note = LANGUAGE_NOTES.get(locale)
    return f"{system}\n\n{note}" if note else system


def system_prompt(
    root: Path,
    user_config: Path,
    *,
    contract: str | None = None,
    instructions: Sequence[InstructionFile] | None = None,
    git: bool = True,
) -> str:
    """Assemble the system prompt from its parts; missing files are simply left out.

    `instructions` are the project's instruction files when the caller already read them (to list them).
    With `git`, a project inside a repository gets its branch, uncommitted files and last commits.
    """
    parts = [BASE.format(root=root)]
    for item in instruction_files(root) if instructions is None else instructions:
        parts.append(f"## Project instructions ({item.name})\n{item.text}")
    for title, path, within in (
        ("User instructions", user_config / "USER_PROMPT.md", user_config),
        ("Project user instructions", root / ".asi" / "USER_PROMPT.md", root),
    ):
        if within == root and not inside_project(path, root):
            continue  # a project's `.asi/USER_PROMPT.md` linked outside it (the user's own may be a link)
        text = expand_imports(_read(path), path, within)
        if text:
            parts.append(f"## {title}\n{text}")
    if git:
        from asi_agent.vcs.summary import git_context  # noqa: PLC0415 - not needed without git

        if summary := git_context(root):
            parts.append(f"## Git\n{summary}")
    if contract:
        parts.append(contract)
    return "\n\n".join(parts)


def _read(path: Path, limit: int = -1) -> str:
    try:
        with path.open(encoding="utf-8") as handle:
            return handle.read(limit).strip()
    except (OSError, UnicodeDecodeError):
        return ""
