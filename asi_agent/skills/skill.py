"""One skill: a folder with a `SKILL.md` (YAML front matter, then Markdown instructions) and files beside it.

Front matter keys (Agent Skills): `name` and `description` (required), `allowed-tools`, `license`,
`metadata`; and the routing spec's `triggers`, `examples`, `capabilities`, `not-for`, which only help the
router find the skill. The body and the bundled files are read when the skill is used, not when listed.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from asi_agent.skills.hints import body_hints, body_sections

__all__ = ["SKILL_FILE", "Scope", "Skill", "SkillProblem", "parse_skill", "split_front_matter"]

SKILL_FILE = "SKILL.md"
"""The file that makes a folder a skill."""
Scope = Literal["project", "user", "plugin"]
"""Who supplied a skill: the project folder (trusted or not), the user, or an installed plugin package."""

_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$", re.IGNORECASE)
_FILES_LISTED = 200
_SCRIPT_SUFFIXES = (".py", ".sh", ".bash", ".js", ".mjs", ".ts", ".rb", ".pl", ".ps1")


class SkillProblem(Exception):
    """A SKILL.md that cannot be used, with the file and the reason (the other skills still load)."""


@dataclass(frozen=True, slots=True)
class Skill:
    """A skill as listed: what the router and the summary need; the body is read on use."""

    name: str
    description: str
    folder: Path
    scope: Scope
    source: str
    """Where it was found, for people: `.claude/skills (project)`, `~/.agents/skills`, `plugin pkg 1.0`."""
    allowed_tools: tuple[str, ...] = ()
    """Tools the skill asks to be limited to while it runs (may only narrow the policy, never widen it)."""
    license: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    triggers: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    capabilities: tuple[str, ...] = ()
    not_for: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    """The body's title and "When to use" bullets (`asi_agent.skills.hints`), for the router only."""
    sections: tuple[str, ...] = ()
    """The body's subject headings and first paragraph (`asi_agent.skills.hints`), for the router only."""
    trusted: bool = True
    """False for a skill of an untrusted project folder: listed and read as text, its scripts not offered."""

    @property
    def path(self) -> Path:
        """The skill's SKILL.md."""
        return self.folder / SKILL_FILE

    def body(self) -> str:
        """The Markdown instructions after the front matter (read now)."""
        return split_front_matter(self.path.read_text(encoding="utf-8"))[1].strip()

    def files(self) -> list[str]:
        """The bundled files beside SKILL.md (relative, sorted; hidden files left out; at most 200)."""
        found: list[str] = []
        for path in sorted(self.folder.rglob("*")):
            relative = path.relative_to(self.folder)
            if path.is_file() and relative.as_posix() != SKILL_FILE and not _hidden(relative):
                found.append(relative.as_posix())
                if len(found) >= _FILES_LISTED:
                    break
        return found

    def scripts(self) -> list[str]:
        """The bundled files that look runnable (by suffix or the executable bit)."""
        return [f for f in self.files() if f.endswith(_SCRIPT_SUFFIXES) or _executable(self.folder / f)]

    def routing_text(self) -> str:
        """What the router embeds: name, description, examples, capabilities, triggers."""
        parts = [self.name.replace("-", " "), self.description]
        if self.examples:
            parts.append("Examples: " + "; ".join(self.examples))
        if self.capabilities:
            parts.append("Capabilities: " + ", ".join(self.capabilities))
        if self.triggers:
            parts.append("Triggers: " + ", ".join(self.triggers))
        return "\n".join(parts)

    def routing_hash(self) -> str:
        """The content hash the cached vectors are kept under."""
        return hashlib.sha256(self.routing_text().encode("utf-8")).hexdigest()

    def summary(self, width: int = 160) -> str:
        """One line: the description's first sentence(s), cut to `width` characters."""
        text = " ".join(self.description.split())
        if self.not_for:
            text += " Not for: " + "; ".join(self.not_for) + "."
        return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def split_front_matter(text: str) -> tuple[str | None, str]:
    """(the YAML between the opening and closing `---` lines or None, the rest)."""
    text = text.lstrip("\ufeff")
    if not text.startswith("---"):
        return None, text
    lines = text.splitlines(keepends=True)
    if lines[0].strip() != "---":
        return None, text
    for index in range(1, len(lines)):
        if lines[index].strip() in ("---", "..."):
            return "".join(lines[1:index]), "".join(lines[index + 1 :])
    return None, text


def parse_skill(folder: Path, *, scope: Scope, source: str, trusted: bool = True) -> Skill:
    """The skill of `folder`; SkillProblem naming the file and what to fix when it cannot be used."""
    import yaml  # noqa: PLC0415 - only when skills are read

    path = folder / SKILL_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SkillProblem(f"{path}: cannot be read ({exc})") from None
    head, body = split_front_matter(text)
    if head is None:
        raise SkillProblem(
            f"{path}: no front matter; start the file with `---`, `name:`, `description:`, `---`"
        )
    try:
        data = yaml.safe_load(head)
    except yaml.YAMLError as exc:
        raise SkillProblem(f"{path}: the front matter is not valid YAML ({_first_line(exc)})") from None
    if not isinstance(data, dict):
        raise SkillProblem(f"{path}: the front matter must be a mapping with `name` and `description`")
    skill = _skill(data, folder, scope=scope, source=source, trusted=trusted)
    return replace(skill, hints=body_hints(body), sections=body_sections(body))


def _skill(data: dict[str, Any], folder: Path, *, scope: Scope, source: str, trusted: bool) -> Skill:
    path = folder / SKILL_FILE
    name, description = data.get("name"), data.get("description")
    if not isinstance(name, str) or not _NAME.match(name.strip()):
        raise SkillProblem(
            f"{path}: `name` must be a short name of letters, digits and hyphens (e.g. pdf-forms), "
            f"got {name!r}"
        )
    if not isinstance(description, str) or not description.strip():
        raise SkillProblem(f"{path}: `description` is required: say what the skill does and when to use it")
    metadata = data.get("metadata")
    licence = data.get("license")
    return Skill(
        name=name.strip(),
        description=" ".join(description.split()),
        folder=folder,
        scope=scope,
        source=source,
        allowed_tools=_words(data.get("allowed-tools", data.get("allowed_tools"))),
        license=str(licence) if licence is not None else None,
        metadata=dict(metadata) if isinstance(metadata, dict) else {},
        triggers=_strings(data.get("triggers")),
        examples=_strings(data.get("examples")),
        capabilities=_strings(data.get("capabilities")),
        not_for=_strings(data.get("not-for", data.get("not_for"))),
        trusted=trusted,
    )


def _strings(value: object) -> tuple[str, ...]:
    """A list of strings (or one string) as a tuple; anything else as empty."""
    if isinstance(value, str):
        return (value.strip(),) if value.strip() else ()
    if isinstance(value, list):
        return tuple(str(item).strip() for item in value if str(item).strip())
    return ()


def _words(value: object) -> tuple[str, ...]:
    """`allowed-tools`: a list, or one string of names separated by spaces or commas."""
    if isinstance(value, str):
        return tuple(word for word in re.split(r"[\s,]+", value) if word)
    return _strings(value)


def _hidden(relative: Path) -> bool:
    return any(part.startswith(".") or part == "__pycache__" for part in relative.parts)


def _executable(path: Path) -> bool:
    try:
        return bool(path.stat().st_mode & 0o111)
    except OSError:
        return False


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
