"""The chats' custom commands (`asi_agent.commands`): listed by `/help`, completed, sent expanded."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from pathlib import Path
from typing import cast

from asi_agent.agent import Agent
from asi_agent.commands import CustomCommand, Expansion, expand, find_commands, narrowed, split_slash
from asi_agent.config import user_config_dir
from asi_agent.events import AgentEvent

__all__ = ["CommandBook", "narrowed_run"]


class CommandBook:
    """The custom commands of one project (read again when listed, so a new file shows at once)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.commands: dict[str, CustomCommand] = {}
        self.reload()

    def reload(self) -> None:
        """Read the command folders again."""
        self.commands = find_commands(self.root, user_config_dir())

    def names(self) -> list[str]:
        """`/name` of every command, sorted."""
        return [f"/{name}" for name in sorted(self.commands)]

    def expansion(self, text: str) -> Expansion | None:
        """The prompt a message that starts with a command's name stands for; None for other messages."""
        called = split_slash(text)
        if called is None or called[0] not in self.commands:
            return None
        return expand(self.commands[called[0]], called[1], self.root)

    def help_lines(self, width: int) -> list[str]:
        """One line per command for `/help`: name, argument hint, description, where it comes from."""
        self.reload()
        lines = []
        for name in sorted(self.commands):
            command = self.commands[name]
            hint = f" {command.argument_hint}" if command.argument_hint else ""
            lines.append(f"{'/' + name:<{width}}  {command.description}{hint}  ({command.source})")
        return lines


async def narrowed_run(agent: Agent, task: str, allowed: tuple[str, ...]) -> AsyncGenerator[AgentEvent, None]:
    """Run one message with only the tools a command's `allowed-tools` names (for this message only)."""
    runner = agent.runner
    full = runner.registry
    runner.registry = narrowed(full, allowed)
    events = cast(AsyncGenerator[AgentEvent, None], agent.run(task))
    try:
        async for event in events:
            yield event
    finally:
        await events.aclose()
        runner.registry = full
