"""Reading hooks from settings files in Claude Code's format.

```json
{"hooks": {"PreToolUse": [{"matcher": "Bash|run_terminal_cmd",
                           "hooks": [{"type": "command", "command": "./check.sh", "timeout": 30}]}]}}
```

The user's own `settings.json` (asi-agent's configuration folder) always counts and its hooks run as the
user. A project's `.asi/settings.json`, `.claude/settings.json` and `.claude/settings.local.json` count only
in a trusted folder, and their hooks run inside the sandbox; an untrusted folder's are listed as ignored.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asi_agent.exceptions import ConfigError
from asi_agent.tools.peer_names import peer_names

__all__ = ["EVENTS", "PROJECT_FILES", "HookCommand", "load_hooks"]

EVENTS = (
    "PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "SessionEnd",
    "PreCompact", "Notification",
)  # fmt: skip
"""The hook events, as Claude Code names them."""
PROJECT_FILES = (".asi/settings.json", ".claude/settings.json", ".claude/settings.local.json")
DEFAULT_TIMEOUT = 60.0
"""Seconds a hook may take when its entry names no `timeout` (Claude Code's default)."""


@dataclass(frozen=True, slots=True)
class HookCommand:
    """One configured command for one event."""

    event: str
    command: str
    matcher: str = ""
    """A regular expression over the tool's name (ours or Claude Code's: `Bash`); "" or "*": every tool."""
    timeout: float = DEFAULT_TIMEOUT
    source: str = ""
    """The settings file it comes from, as shown by `asi-agent hooks`."""
    contained: bool = False
    """Supplied by the project folder: runs inside the sandbox (and only when there is one)."""

    def matches(self, tool: str | None) -> bool:
        """Whether the hook applies to a call of `tool` (events without a tool: always)."""
        if tool is None or self.matcher in ("", "*"):
            return True
        try:
            pattern = re.compile(self.matcher)
        except re.error:
            return self.matcher in peer_names(tool)
        return any(pattern.fullmatch(name) for name in peer_names(tool))


def load_hooks(root: Path, user_dir: Path, *, trusted: bool) -> tuple[list[HookCommand], list[str]]:
    """The active hooks, and what an untrusted folder supplied that was left out (one phrase each).

    ConfigError names the file and the entry of a settings file that cannot be read."""
    found = _read(user_dir / "settings.json", "user settings.json", contained=False)
    ignored: list[str] = []
    for rel in PROJECT_FILES:
        path = root / rel
        if not path.is_file():
            continue
        if trusted:
            found += _read(path, rel, contained=True)
        elif _has_hooks(path):
            ignored.append(f"{rel}: hooks")
    return found, ignored


def _has_hooks(path: Path) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and bool(data.get("hooks"))


def _read(path: Path, label: str, *, contained: bool) -> list[HookCommand]:
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"{path}: not readable JSON ({exc}); fix or remove it") from None
    hooks = data.get("hooks", {}) if isinstance(data, dict) else None
    if not isinstance(hooks, dict):
        raise ConfigError(f"{path}: `hooks` must be an object of event names")
    found: list[HookCommand] = []
    for event, groups in hooks.items():
        if event not in EVENTS:
            raise ConfigError(f"{path}: hooks.{event}: unknown event; use one of {', '.join(EVENTS)}")
        for index, group in enumerate(groups if isinstance(groups, list) else [groups]):
            found += _group(group, f"{path}: hooks.{event}[{index}]", event, label, contained)
    return found


def _group(group: Any, where: str, event: str, label: str, contained: bool) -> list[HookCommand]:
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        raise ConfigError(f"{where}: expected {{\"matcher\": ..., \"hooks\": [...]}}")
    matcher = group.get("matcher", "")
    if not isinstance(matcher, str):
        raise ConfigError(f"{where}.matcher: expected a string")
    found = []
    for entry in group["hooks"]:
        if not isinstance(entry, dict) or entry.get("type", "command") != "command":
            raise ConfigError(f'{where}.hooks: each entry must be {{"type": "command", "command": ...}}')
        command, timeout = entry.get("command"), entry.get("timeout", DEFAULT_TIMEOUT)
        if not isinstance(command, str) or not command.strip():
            raise ConfigError(f"{where}.hooks: `command` must be a non-empty string")
        if not isinstance(timeout, int | float) or timeout <= 0:
            raise ConfigError(f"{where}.hooks: `timeout` must be a positive number of seconds")
        found.append(HookCommand(event, command, matcher, float(timeout), label, contained))
    return found
