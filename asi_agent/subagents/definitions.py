"""Agent definitions: Markdown files with front matter `name`, `description`, `tools`, `model`, and the
child's instructions as the body (Claude Code's format). Built in: `explore` (read-only) and `general`.

Found in the user's configuration folder (`agents/`) and, in a trusted folder only, the project's
`.claude/agents/`, `.agents/agents/` and `.asi/agents/` (later ones override earlier ones of the same name).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from asi_agent.commands.loader import front_matter
from asi_agent.tools.peer_names import our_tools
from asi_agent.trust import inside_project

__all__ = ["BUILTIN", "READ_ONLY", "AgentDefinition", "find_agents"]

PROJECT_FOLDERS = (".claude/agents", ".agents/agents", ".asi/agents")
READ_ONLY = (
    "read_file", "list_directory", "get_project_structure", "grep_search", "file_search", "codebase_search",
    "find_code_location", "get_cursor_context", "diff_history",
)  # fmt: skip
"""The tools of the built-in `explore` agent."""


@dataclass(frozen=True, slots=True)
class AgentDefinition:
    """What a child agent is: its instructions and the tools it may use."""

    name: str
    description: str
    prompt: str
    tools: frozenset[str] | None = None
    """asi-agent tool names (Claude Code's are translated); None: the parent's tools."""
    model: str | None = None
    source: str = "built-in"


BUILTIN = {
    "explore": AgentDefinition(
        "explore",
        "Read-only: searches and reads the project to answer a question, changes nothing",
        "You explore the project to answer the question you are given. You can only read: search, list, "
        "read files. Answer with what you found and where (paths and line numbers).",
        frozenset(READ_ONLY),
    ),
    "general": AgentDefinition(
        "general",
        "A general helper with the parent's tools, for a self-contained part of the task",
        "You do one self-contained part of a larger task, which you are given. Do it, then report what you "
        "did and what changed.",
    ),
}


def find_agents(root: Path, user_dir: Path, *, trusted: bool) -> tuple[dict[str, AgentDefinition], list[str]]:
    """The definitions by name, and what an untrusted folder supplied that was left out."""
    found = dict(BUILTIN)
    found.update(_folder(user_dir / "agents", "user agents"))
    ignored: list[str] = []
    for rel in PROJECT_FOLDERS:
        folder = root / rel
        if not folder.is_dir():
            continue
        if trusted:
            found.update(_folder(folder, f"project {rel}", inside=root))
        elif any(folder.glob("*.md")):
            ignored.append(f"{rel}: agent definitions")
    return found, ignored


def _folder(folder: Path, label: str, *, inside: Path | None = None) -> dict[str, AgentDefinition]:
    """The definitions of one folder; with `inside`, a file that is a link leading out of it is skipped
    (even a trusted repository's link would hand the text of the person's files to the model)."""
    found: dict[str, AgentDefinition] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.md")):
        if inside is not None and not inside_project(path, inside):
            continue
        try:
            meta, body = front_matter(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError):
            continue
        name = str(meta.get("name") or path.stem).strip()
        tools = meta.get("tools")
        names = tools if isinstance(tools, list) else str(tools).split(",") if tools else None
        found[name] = AgentDefinition(
            name,
            str(meta.get("description") or "").strip(),
            body.strip(),
            frozenset(our_tools(str(item) for item in names)) if names is not None else None,
            str(meta["model"]).strip() if meta.get("model") else None,
            f"{label}/{path.name}",
        )
    return found
