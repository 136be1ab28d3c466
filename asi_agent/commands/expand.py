"""Turning `/name arguments` into the prompt a command's file describes."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from asi_agent.commands.loader import CustomCommand
from asi_agent.exceptions import ModelFixableError
from asi_agent.policy.model import DEFAULT_SECRETS, secret_name
from asi_agent.tools.paths import resolve_in_project
from asi_agent.tools.peer_names import our_tools
from asi_agent.tools.registry import ToolRegistry

__all__ = ["Expansion", "expand", "narrowed", "split_slash"]

MAX_INCLUDED = 100_000
"""Bytes of one `@file` inclusion; a larger file is named, not included."""
_POSITIONAL = re.compile(r"\$([1-9])(?!\d)")
_MENTION = re.compile(r"(?<![\w@`])@\{?(?P<path>[\w./-]*[\w/-])\}?")


@dataclass(frozen=True, slots=True)
class Expansion:
    """What a command turns into: the prompt sent to the model, and the run's narrowing."""

    command: CustomCommand
    prompt: str
    allowed_tools: tuple[str, ...] | None


def split_slash(text: str) -> tuple[str, str] | None:
    """(name, arguments) when the text starts with `/name`, else None."""
    stripped = text.strip()
    if not stripped.startswith("/") or len(stripped) < 2:
        return None
    word, _, rest = stripped[1:].partition(" ")
    if not re.fullmatch(r"[\w.:-]+", word):
        return None
    return word, rest.strip()


def expand(
    command: CustomCommand, arguments: str, root: Path, *, secrets: Sequence[str] = DEFAULT_SECRETS
) -> Expansion:
    """The command's prompt with its arguments in, and the project files it names (`@path`) included.

    Markdown: `$ARGUMENTS` (all of them), `$1`…`$9` (each, as a shell would split them); TOML:
    `{{args}}`. A template that uses none of them gets the arguments appended. Shell injections are left
    as text: a command runs nothing. Only files inside the project are included, and never one whose
    name (or whose link's target's name) matches `secrets`: reading those asks first, and an inclusion
    has no one to ask, so the model is told to read it with `read_file`.
    """
    body = command.body.strip()
    if command.kind == "toml":
        text = body.replace("{{args}}", arguments) if "{{args}}" in body else _appended(body, arguments)
    else:
        words = _words(arguments)
        uses = "$ARGUMENTS" in body or _POSITIONAL.search(body) is not None
        text = body.replace("$ARGUMENTS", arguments)
        text = _POSITIONAL.sub(lambda m: words[int(m[1]) - 1] if int(m[1]) <= len(words) else "", text)
        text = text if uses else _appended(text, arguments)
    return Expansion(command, _with_files(text, root, secrets), command.allowed_tools)


def _appended(text: str, arguments: str) -> str:
    return f"{text}\n\n{arguments}" if arguments else text


def _words(arguments: str) -> list[str]:
    try:
        return shlex.split(arguments)
    except ValueError:
        return arguments.split()


def _with_files(text: str, root: Path, secrets: Sequence[str]) -> str:
    """Each `@path` (or `@{path}`) naming a file of the project followed by its text; others unchanged."""
    blocks: list[str] = []
    seen: set[Path] = set()
    for match in _MENTION.finditer(text):
        try:
            path = resolve_in_project(root, match["path"], write=False)
        except ModelFixableError:
            continue
        if not path.is_file() or path in seen:
            continue
        seen.add(path)
        if secret_name(Path(match["path"]).name, secrets) or secret_name(path.name, secrets):
            blocks.append(f"(@{match['path']} may hold secrets: not included; read_file asks first)")
            continue
        blocks.append(_block(path, root))
    return text if not blocks else text + "\n\n" + "\n\n".join(blocks)


def _block(path: Path, root: Path) -> str:
    rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
    if path.stat().st_size > MAX_INCLUDED:
        return f"(@{rel} is larger than {MAX_INCLUDED} bytes: read it with read_file)"
    try:
        content = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return f"(@{rel} is not a text file)"
    return f"Contents of {rel}:\n```\n{content.rstrip()}\n```"


def narrowed(registry: ToolRegistry, allowed: tuple[str, ...]) -> ToolRegistry:
    """The tools of `registry` that `allowed-tools` names (Claude Code names too): it only narrows."""
    names = our_tools(allowed)
    return ToolRegistry((spec for spec in registry if spec.name in names), locale=registry.locale)
