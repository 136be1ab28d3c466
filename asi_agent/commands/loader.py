"""Finding custom commands: `.asi/`, `.agents/` and `.claude/commands/*.md`, `.gemini/commands/*.toml`, and
the same under the user's configuration folder (`commands/`). A project's command overrides the user's
of the same name; a subfolder makes a namespace (`git/commit.md` is `/git:commit`)."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from asi_agent.trust import inside_project

__all__ = ["CustomCommand", "command_folders", "find_commands", "front_matter"]

PROJECT_FOLDERS = (".claude/commands", ".agents/commands", ".asi/commands", ".gemini/commands")
"""Searched in this order, so a later folder's command of the same name wins (`.asi/` last)."""
MAX_BYTES = 64_000


@dataclass(frozen=True, slots=True)
class CustomCommand:
    """One command file, read."""

    name: str
    """Without the slash; namespaced with `:` by subfolders."""
    body: str
    """The prompt template (Markdown body, or the TOML `prompt`)."""
    source: str
    """Where it was found: "project .claude/commands", "user commands", …"""
    path: Path
    kind: str = "md"
    """"md" (`$ARGUMENTS`, `$1`…`$9`, `@file`) or "toml" (`{{args}}`, `@{file}`)."""
    description: str = ""
    argument_hint: str = ""
    allowed_tools: tuple[str, ...] | None = None
    """The tools a run started by the command may use; None: all of them."""
    model: str | None = None
    project: bool = False
    """Supplied by the project folder (its `model` is ignored unless the folder is trusted)."""


def command_folders(root: Path, user_dir: Path) -> list[tuple[Path, str, bool]]:
    """(folder, source label, is the project's), in the order their commands override each other."""
    user = [(user_dir / "commands", "user commands", False)]
    project = [(root / rel, f"project {rel}", True) for rel in PROJECT_FOLDERS]
    return [*user, *project]


def find_commands(
    root: Path, user_dir: Path, warn: Callable[[str], None] | None = None
) -> dict[str, CustomCommand]:
    """Every command by name; a file that cannot be read, or a project's file that is a link leading out
    of the project, is skipped (`warn` gets why, when given)."""
    found: dict[str, CustomCommand] = {}
    for folder, label, project in command_folders(root, user_dir):
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".md", ".toml") or not path.is_file():
                continue
            if project and not inside_project(path, root):
                # A repository's link to a file of the person's (a key, a private note) would send its
                # text to the model as the command's prompt.
                if warn is not None:
                    warn(f"command file {path}: a link leading outside the project; skipped")
                continue
            name = ":".join(path.relative_to(folder).with_suffix("").parts)
            try:
                found[name] = _read(path, name, label, project)
            except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as exc:
                if warn is not None:
                    warn(f"command file {path}: {exc}; skipped")
    return found


def _read(path: Path, name: str, label: str, project: bool) -> CustomCommand:
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"larger than {MAX_BYTES} bytes")
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".toml":
        data = tomllib.loads(text)
        prompt = data.get("prompt")
        if not isinstance(prompt, str):
            raise ValueError("needs a `prompt` string")
        about = data.get("description")
        return CustomCommand(
            name, prompt, label, path, "toml", about if isinstance(about, str) else "", project=project
        )
    meta, body = front_matter(text)
    return CustomCommand(
        name,
        body,
        label,
        path,
        "md",
        _text(meta.get("description")) or _first_line(body),
        _text(meta.get("argument-hint")),
        _tools(meta.get("allowed-tools")),
        _text(meta.get("model")) or None,
        project,
    )


def front_matter(text: str) -> tuple[dict[str, Any], str]:
    """The YAML between leading `---` lines, and the rest; ({}, text) when there is none."""
    if not text.startswith("---"):
        return {}, text
    head, sep, rest = text[3:].partition("\n---")
    if not sep:
        return {}, text
    loaded = yaml.safe_load(head) or {}
    if not isinstance(loaded, dict):
        raise ValueError("its front matter is not a mapping")
    return loaded, rest.split("\n", 1)[1] if "\n" in rest else ""


def _text(value: object) -> str:
    return str(value).strip() if isinstance(value, str | int | float) else ""


def _first_line(body: str) -> str:
    return next((line.strip().lstrip("#").strip() for line in body.splitlines() if line.strip()), "")[:80]


def _tools(value: object) -> tuple[str, ...] | None:
    """`allowed-tools` as a list or a comma-separated string (`Bash(git add:*), Read`)."""
    if value is None:
        return None
    items = value if isinstance(value, list) else _split_commas(str(value))
    return tuple(str(item).strip() for item in items if str(item).strip())


def _split_commas(text: str) -> list[str]:
    """Split at commas outside parentheses (`Bash(git add:*, git status)` stays one item)."""
    items, depth, current = [], 0, ""
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            items.append(current)
            current = ""
        else:
            current += char
    return [*items, current]
