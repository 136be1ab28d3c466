"""One run's skills: `/NAME` requests, the per-turn listing in `execute_skill`, and the tool itself.

Per request (each task or chat message) the router ranks the skills: a skill it takes (high confidence) is
loaded into the request at once, as `/NAME` does; otherwise `execute_skill`'s description lists the most
relevant skills (at most `max_listed`, with a line saying how many more exist) and its `skill_id` enum holds
their names, so the model chooses among them or none. A skill in use stays listed, and its `allowed-tools`
narrow the tools offered while it is in use (never widen what the policy allows).
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from asi_agent.skills.listing import MAX_LISTED, listing_text
from asi_agent.skills.registry import SkillSet
from asi_agent.skills.router import Route, SkillRouter
from asi_agent.skills.skill import Skill

__all__ = ["EXECUTE_SKILL", "SKILLS_KEY", "SkillSession", "skill_text"]

SKILLS_KEY = "asi_agent.skills.session"
"""The `ctx.state` key of the run's `SkillSession`."""
EXECUTE_SKILL = "execute_skill"
"""The tool's name."""


@dataclass
class _Turn:
    query: str
    route: Route
    listed: list[Skill]
    """The skills summarised in the listing (none when the router says none)."""
    names: list[str]
    """The names `skill_id` may take: the ranked candidates, even when none is summarised."""


class SkillSession:
    """The skills of one run and what the router said about the current request."""

    def __init__(self, skills: SkillSet, router: SkillRouter, *, max_listed: int = MAX_LISTED) -> None:
        self.skills, self.router, self.max_listed = skills, router, max_listed
        self.used: list[str] = []
        """Skills invoked this run, oldest first."""
        self._turn: _Turn | None = None

    def parse_command(self, text: str) -> tuple[Skill, str] | None:
        """`/NAME rest` naming a known skill: (the skill, rest); else None."""
        stripped = text.strip()
        if not stripped.startswith("/"):
            return None
        word, _, rest = stripped[1:].partition(" ")
        skill = self.skills.get(word) if word else None
        return (skill, rest.strip()) if skill is not None else None

    async def expand(self, task: str) -> str:
        """The request as the model gets it: with the skill's text when it is `/NAME …` or the router
        takes a skill; otherwise as given (and the listing of this turn is made). A new request starts
        with no skill in use: what an earlier one used no longer narrows the tools."""
        self.used = []
        command = self.parse_command(task)
        if command is not None:
            skill, rest = command
            route = await self._route(rest or skill.name)
            self._turn = _Turn(rest or task, route, [], [c.name for c in route.candidates])
            return self.invoke(skill, request=rest or f"Use the skill {skill.name}.", how=f"/{skill.name}")
        turn = await self._listing(task)
        if turn.route.decision == "take" and turn.route.skill is not None:
            taken = self.skills.get(turn.route.skill)
            if taken is not None:
                return self.invoke(taken, request=task, how="the router (high confidence)")
        return task

    def invoke(self, skill: Skill, *, request: str, how: str) -> str:
        """The request followed by the skill's text; the skill is marked in use."""
        self._use(skill)
        return f"{request}\n\n[Skill {skill.name}, loaded by {how}]\n{skill_text(skill, None)}"

    def run_tool(self, name: str, parameters: dict[str, Any] | None) -> str:
        """What `execute_skill` returns; ValueError with a message for the model for an unknown name."""
        skill = self.skills.get(name)
        if skill is None:
            near = self.skills.closest(name) or self.listed_names()[:5]
            raise ValueError(
                f"there is no skill named {name!r}; use one of the listed names ({', '.join(near)}), "
                "or go on without a skill"
            )
        self._use(skill)
        return skill_text(skill, parameters)

    def listed_names(self) -> list[str]:
        """The names offered this turn (the enum of `skill_id`): this request's candidates and the skills in
        use (a known name the model gives anyway still works)."""
        names = self._turn.names if self._turn is not None else self.skills.names()[: self.max_listed]
        return names + [name for name in self.used if name not in names]

    async def turn_schemas(
        self, schemas: list[dict[str, Any]], messages: Sequence[Any]
    ) -> list[dict[str, Any]]:
        """This turn's tool schemas: `execute_skill` describing the relevant skills, and the tools
        narrowed to a skill's `allowed-tools` while it is in use."""
        if self._turn is None:
            query = next((m.content for m in reversed(messages) if m.role == "user"), "")
            await self._listing(query)
        allowed = self._allowed_tools()
        out = []
        for schema in schemas:
            name = schema["function"]["name"]
            if name == EXECUTE_SKILL:
                out.append(self._schema(schema))
            elif allowed is None or name in allowed:
                out.append(schema)
        return out

    def _schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        schema = copy.deepcopy(schema)
        assert self._turn is not None
        function = schema["function"]
        function["description"] = listing_text(self._turn.listed, total=len(self.skills))
        names = self.listed_names()
        prop = function["parameters"]["properties"]["skill_id"]
        if names:
            prop["enum"] = names
        return schema

    async def _listing(self, query: str) -> _Turn:
        route = await self._route(query)
        ranked = route.candidates
        listed = [s for s in (self.skills.get(c.name) for c in ranked) if s is not None]
        self._turn = _Turn(query, route, [] if route.decision == "none" else listed, [c.name for c in ranked])
        return self._turn

    async def _route(self, query: str) -> Route:
        return await asyncio.to_thread(self.router.route, query, self.max_listed)

    def _use(self, skill: Skill) -> None:
        if skill.name not in self.used:
            self.used.append(skill.name)

    def _allowed_tools(self) -> set[str] | None:
        """The union of the in-use skills' `allowed-tools` (None when none of them limits the tools)."""
        limits = [self.skills.get(name) for name in self.used]
        lists = [set(s.allowed_tools) for s in limits if s is not None and s.allowed_tools]
        if not lists:
            return None
        return set().union(*lists) | {EXECUTE_SKILL}


def skill_text(skill: Skill, parameters: dict[str, Any] | None) -> str:
    """A skill as the model reads it: its instructions, where its files are, and how they may be used."""
    lines = [f"Skill: {skill.name} (from {skill.source})", f"Folder: {skill.folder}", "", skill.body(), ""]
    files = skill.files()
    if files:
        lines.append("Bundled files (read them with read_file, by the path below, when the steps need them):")
        lines += [f"- {skill.folder / name}" for name in files]
    else:
        lines.append("Bundled files: none.")
    scripts = skill.scripts()
    if scripts and skill.trusted:
        lines.append("Its scripts run with run_terminal_cmd, under the permission policy and the sandbox.")
    elif scripts:
        lines.append(
            "This skill comes from a project folder that is not trusted: its scripts are not offered to run; "
            "read them as text only."
        )
    if skill.allowed_tools:
        lines.append(
            "While it is in use, only these tools are offered: " + ", ".join(skill.allowed_tools) + "."
        )
    if parameters:
        lines.append("Parameters: " + json.dumps(parameters, ensure_ascii=False))
    return "\n".join(lines)
