"""Custom slash commands from files: Markdown prompts (Claude Code's format) and gemini-cli's TOML ones.

A command is a prompt template: `/review src/` becomes the file's text with the arguments put in. It runs
nothing itself (shell injections stay text); `allowed-tools` only narrows the tools of the run it starts.
"""

from pathlib import Path

from asi_agent.commands.expand import Expansion, expand, narrowed, split_slash
from asi_agent.commands.loader import CustomCommand, command_folders, find_commands

__all__ = [
    "CustomCommand",
    "Expansion",
    "command_folders",
    "expand",
    "find_commands",
    "narrowed",
    "slash_command",
    "split_slash",
]


def slash_command(text: str, root: Path, user_dir: Path) -> Expansion | None:
    """The expansion of `text` when it names a custom command (`/review src/`), else None."""
    called = split_slash(text)
    if called is None:
        return None
    command = find_commands(root, user_dir).get(called[0])
    return expand(command, called[1], root) if command is not None else None
