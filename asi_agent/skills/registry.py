"""Where skills are found, and the set of them one run knows.

Searched in this order (the first skill of a name wins, so a project can never shadow the user's own):
the user's configuration folder (`skills/`), `~/.agents/skills/`, `~/.claude/skills/`, installed plugin
packages (entry-point group `asi_agent.skills`, naming a package whose folder holds skill folders), then the
project's `.asi/skills/`, `.agents/skills/` and `.claude/skills/`. Each skill is a folder with a SKILL.md.
A skill of an untrusted project folder is listed and readable (it is text), but its scripts are not offered
as runnable and its `allowed-tools` can only narrow what the policy allows.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from asi_agent.skills.skill import SKILL_FILE, Scope, Skill, SkillProblem, parse_skill
from asi_agent.trust import inside_project

__all__ = ["PROJECT_FOLDERS", "SKILLS_ENTRY_POINT_GROUP", "SkillSet", "find_skills", "skill_locations"]

PROJECT_FOLDERS = (".asi/skills", ".agents/skills", ".claude/skills")
"""The project's skill folders, relative to its root."""
SKILLS_ENTRY_POINT_GROUP = "asi_agent.skills"
"""The entry-point group of plugin packages that ship skills: `name = "package.module"`, whose folder holds
one folder per skill."""


@dataclass
class SkillSet:
    """The skills one run knows, by name, and what could not be loaded."""

    skills: dict[str, Skill] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    shadowed: list[Skill] = field(default_factory=list)
    """Skills left out because an earlier location has one of the same name."""

    def __iter__(self) -> Iterator[Skill]:
        return iter(self.skills.values())

    def __len__(self) -> int:
        return len(self.skills)

    def __contains__(self, name: object) -> bool:
        return name in self.skills

    def names(self) -> list[str]:
        """The skill names, in the order they were found."""
        return list(self.skills)

    def get(self, name: str) -> Skill | None:
        """The skill of that name (exact, then case-insensitive), or None."""
        if name in self.skills:
            return self.skills[name]
        lowered = {key.lower(): skill for key, skill in self.skills.items()}
        return lowered.get(name.strip().lower())

    def closest(self, name: str, count: int = 3) -> list[str]:
        """Known names that look like `name` (for a message that helps correct a typo)."""
        return difflib.get_close_matches(name, self.names(), n=count, cutoff=0.5)

    def add(self, skill: Skill) -> None:
        """Keep `skill` unless one of its name is known already (then it is listed as shadowed)."""
        if skill.name in self.skills:
            self.shadowed.append(skill)
        else:
            self.skills[skill.name] = skill


def skill_locations(root: Path, user_dir: Path, home: Path | None = None) -> list[tuple[Path, Scope, str]]:
    """Every folder searched for skills, in order: (folder, scope, label for people)."""
    home = home or Path(os.path.expanduser("~"))
    found: list[tuple[Path, Scope, str]] = [
        (user_dir / "skills", "user", "user config"),
        (home / ".agents" / "skills", "user", "~/.agents/skills"),
        (home / ".claude" / "skills", "user", "~/.claude/skills"),
    ]
    found.extend(_plugin_locations())
    found.extend((root / folder, "project", f"{folder} (project)") for folder in PROJECT_FOLDERS)
    return found


def find_skills(root: Path, user_dir: Path, *, trusted: bool, home: Path | None = None) -> SkillSet:
    """The skills of every location; the project's marked untrusted unless the folder is trusted."""
    result = SkillSet()
    seen: set[Path] = set()
    for folder, scope, label in skill_locations(root, user_dir, home):
        real = folder.resolve() if folder.exists() else folder
        if real in seen:  # the project is the home folder, or a location links to another
            continue
        seen.add(real)
        for skill_folder in _skill_folders(folder):
            if scope == "project" and not inside_project(skill_folder / SKILL_FILE, root):
                # a repository's link to the person's files would send their text to the model
                result.problems.append(
                    f"{skill_folder / SKILL_FILE}: a link leading outside the project; skipped"
                )
                continue
            try:
                skill = parse_skill(
                    skill_folder, scope=scope, source=label, trusted=trusted or scope != "project"
                )
            except SkillProblem as problem:
                result.problems.append(str(problem))
                continue
            result.add(skill)
    return result


def _skill_folders(folder: Path) -> Iterable[Path]:
    """The folders below `folder` that hold a SKILL.md, in name order (one level; `a/b/SKILL.md` too)."""
    if not folder.is_dir():
        return []
    found = []
    for child in sorted(folder.iterdir()):
        if child.name.startswith(".") or not child.is_dir():
            continue
        if (child / SKILL_FILE).is_file():
            found.append(child)
        else:  # a collection folder holding skills one level down
            found.extend(sorted(g for g in child.iterdir() if g.is_dir() and (g / SKILL_FILE).is_file()))
    return found


def _plugin_locations() -> list[tuple[Path, Scope, str]]:
    """The skill folders of installed plugin packages (their entry points are not imported)."""
    from importlib.metadata import entry_points  # noqa: PLC0415 - only when skills are listed
    from importlib.util import find_spec  # noqa: PLC0415

    found: list[tuple[Path, Scope, str]] = []
    for ep in entry_points(group=SKILLS_ENTRY_POINT_GROUP):
        try:
            spec = find_spec(ep.value.split(":")[0])
        except (ImportError, ValueError):
            continue
        if spec is None or not spec.submodule_search_locations:
            continue
        package = ep.dist.name if ep.dist is not None else ep.name
        for location in spec.submodule_search_locations:
            found.append((Path(location), "plugin", f"plugin {package}"))
    return found
