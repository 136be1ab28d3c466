"""A task's references to MCP servers, resolved before the agent sees it: `/server:prompt ARGS` (the
whole task) becomes the server's prompt, and each `@server:uri` attaches that resource's text, as Claude
Code offers prompts as slash commands and resources as `@` mentions. What cannot be resolved stays as
written, with a note saying why, so the model (and the person reading the transcript) knows."""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING, Any

from asi_agent.exceptions import ToolError
from asi_agent.plugins.mcp_resources import read_resource_text

if TYPE_CHECKING:
    from asi_agent.plugins.mcp import McpHub

__all__ = ["expand_mcp_references"]

_PROMPT = re.compile(r"^/(?P<server>[A-Za-z0-9_.-]+):(?P<prompt>[A-Za-z0-9_.-]+)(?:\s+(?P<args>.*))?$", re.S)
_MENTION = re.compile(r"(?<![\w@])@(?P<server>[A-Za-z0-9_.-]+):(?P<uri>[A-Za-z][A-Za-z0-9+.-]*:[^\s]+)")
MAX_ATTACHED_CHARS = 20_000
"""Characters of one attached resource at most."""


async def expand_mcp_references(hub: McpHub | None, task: str) -> str:
    """The task with its MCP prompt and resource references resolved against the session's servers."""
    if hub is None or not hub.connections:
        return task
    task = await _prompt(hub, task)
    attached: list[str] = []
    for match in _MENTION.finditer(task):
        connection = hub.connections.get(match["server"])
        if connection is None:
            continue
        try:
            text = await read_resource_text(connection, match["uri"])
        except ToolError as exc:
            attached.append(f"(@{match['server']}:{match['uri']} could not be attached: {exc})")
            continue
        opening = f'<resource server="{match["server"]}" uri="{match["uri"]}">'
        attached.append(f"{opening}\n{text[:MAX_ATTACHED_CHARS]}\n</resource>")
    return "\n\n".join([task, *attached]) if attached else task


async def _prompt(hub: McpHub, task: str) -> str:
    match = _PROMPT.match(task.strip())
    if match is None or match["server"] not in hub.connections:
        return task
    session = hub.connections[match["server"]].session
    try:
        listed = {prompt.name: prompt for prompt in (await session.list_prompts()).prompts}
        prompt = listed.get(match["prompt"])
        if prompt is None:
            offered = ", ".join(listed) or "none"
            server, name = match["server"], match["prompt"]
            return f"{task}\n\n(the MCP server {server} has no prompt {name!r}; it offers: {offered})"
        result = await session.get_prompt(prompt.name, _arguments(prompt, match["args"] or ""))
    except ToolError:
        raise
    except Exception as exc:  # a server without prompts, or a protocol error: said, not raised
        return f"{task}\n\n(the prompt {match['server']}:{match['prompt']} could not be fetched: {exc})"
    return "\n\n".join(_message_text(message) for message in result.messages)


def _arguments(prompt: Any, text: str) -> dict[str, str]:
    """`key=value` words as named arguments; otherwise the whole text for the first argument."""
    names = [argument.name for argument in prompt.arguments or []]
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    pairs = dict(word.split("=", 1) for word in words if "=" in word and word.split("=", 1)[0] in names)
    if pairs or not names or not text.strip():
        return pairs
    return {names[0]: text.strip()}


def _message_text(message: Any) -> str:
    content = message.content
    return str(content.text) if getattr(content, "type", "") == "text" else f"[{content.type} content]"
