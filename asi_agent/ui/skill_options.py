"""The `skills` command line (argparse only, so that `asi-agent --help` stays instant)."""

from __future__ import annotations

import argparse
from typing import Any

from asi_agent.argtypes import positive

__all__ = ["add_skills_parser"]


def add_skills_parser(sub: Any) -> None:
    """`skills [list]`, `skills show NAME`, `skills new NAME`, `skills route QUERY` (for the CLI parser)."""
    skills = sub.add_parser(
        "skills",
        help="list, show, create skills (SKILL.md) and try the router",
        description="Skills are folders with a SKILL.md, found in the project's .asi/skills, "
        ".agents/skills and .claude/skills, your configuration folder's skills/, ~/.agents/skills, "
        "~/.claude/skills and installed plugin packages. Without an action: list them (name, where from, "
        "description).",
    )
    _common(skills)
    nested = skills.add_subparsers(dest="skills_command", metavar="ACTION", help="list, show, new or route")
    listing = nested.add_parser(
        "list", help="the skills found (the default)", description="The skills found."
    )
    _common(listing, suppress=True)
    show = nested.add_parser("show", help="print one skill and its files", description="Print a skill.")
    show.add_argument("name", metavar="NAME")
    _common(show, suppress=True)
    new = nested.add_parser(
        "new",
        help="start a skill: NAME/SKILL.md with front matter to fill in",
        description="Write NAME/SKILL.md in the project's .asi/skills (--user: your configuration folder).",
    )
    new.add_argument("name", metavar="NAME", help="letters, digits and hyphens, e.g. release-notes")
    new.add_argument(
        "--user", action="store_true", help="in your configuration folder instead of the project"
    )
    new.add_argument("--description", default=None, help="what the skill does and when to use it")
    _common(new, suppress=True)
    route = nested.add_parser(
        "route",
        help="rank the skills for a request, as the agent does, and show the decision",
        description="Rank the skills for QUERY with the agent's own router: the candidates with their "
        "scores, and the decision (take: loaded at once; choose: the model picks among them or none; none).",
    )
    route.add_argument("query", metavar="QUERY")
    route.add_argument("--top", type=positive, default=3, metavar="K", help="candidates to show (default: 3)")
    _common(route, suppress=True)


def _common(parser: argparse.ArgumentParser, *, suppress: bool = False) -> None:
    default: Any = argparse.SUPPRESS if suppress else None
    parser.add_argument("--json", action="store_true", default=default if suppress else False, help="as JSON")
    parser.add_argument("--cwd", default=default if suppress else ".", help="project root (default: .)")
    parser.add_argument(
        "--trust",
        action="store_true",
        default=default if suppress else False,
        help="trust the folder for this command: its skills' scripts count as runnable",
    )
