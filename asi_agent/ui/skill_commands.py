"""`asi-agent skills`: list the skills found, show one, start one, and try the router on a request."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from asi_agent.exceptions import UserError
from asi_agent.ui.cli import project_root

__all__ = ["skills_command"]

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
_TEMPLATE = """---
name: {name}
description: {description}
# Optional: help the router find this skill, and say what it is not for.
examples:
  - "an example request this skill serves"
not-for:
  - "a request that looks similar but needs something else"
# allowed-tools: read_file grep_search   # only narrows the tools offered while the skill is in use
---

# {title}

Steps the agent follows when this skill is used. Name the bundled files it should read
(e.g. `reference.md`) or run (e.g. `scripts/check.py`), relative to this folder.

1. ...
"""


def skills_command(args: argparse.Namespace) -> int:
    """Dispatch `skills [list|show|new|route]`."""
    handlers = {"list": _list, "show": _show, "new": _new, "route": _route}
    return handlers[args.skills_command or "list"](args)


def _found(args: argparse.Namespace) -> tuple[Any, Any, Path]:
    from asi_agent.config import load_config, user_config_dir  # noqa: PLC0415
    from asi_agent.skills.registry import find_skills  # noqa: PLC0415

    root = project_root(args)
    config = load_config(root, trusted=True if args.trust else None)
    return find_skills(root, user_config_dir(), trusted=config.trust.trusted), config, root


def _list(args: argparse.Namespace) -> int:
    skills, _, root = _found(args)
    rows = [_row(skill) for skill in skills]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    elif not rows:
        print(f"no skills found for {root}: `asi-agent skills new NAME` starts one in .asi/skills/")
    for row in [] if args.json else rows:
        note = "" if row["trusted"] else "  [untrusted folder: scripts not offered]"
        print(f"{row['name']:<28} {row['source']:<26} {_cut(row['description'], 90)}{note}")
    for problem in skills.problems:
        print(f"asi-agent: warning: skill left out: {problem}", file=sys.stderr)
    return 0


def _show(args: argparse.Namespace) -> int:
    skills, _, _ = _found(args)
    skill = skills.get(args.name)
    if skill is None:
        near = ", ".join(skills.closest(args.name)) or "see `asi-agent skills`"
        raise UserError(f"no skill named {args.name!r} (closest: {near})")
    if args.json:
        extra = {
            "license": skill.license,
            "metadata": skill.metadata,
            "examples": list(skill.examples),
            "capabilities": list(skill.capabilities),
            "triggers": list(skill.triggers),
            "not_for": list(skill.not_for),
            "body": skill.body(),
            "files": skill.files(),
        }
        print(json.dumps({**_row(skill), **extra}, ensure_ascii=False))
        return 0
    from asi_agent.skills.session import skill_text  # noqa: PLC0415

    print(skill_text(skill, None))
    return 0


def _new(args: argparse.Namespace) -> int:
    from asi_agent.config import user_config_dir  # noqa: PLC0415

    name = args.name.strip()
    if not _NAME.match(name):
        raise UserError(
            f"skill name {name!r}: use lower-case letters, digits and hyphens, e.g. release-notes"
        )
    base = user_config_dir() / "skills" if args.user else project_root(args) / ".asi" / "skills"
    folder = base / name
    if (folder / "SKILL.md").exists():
        raise UserError(f"{folder / 'SKILL.md'} exists already; edit it, or choose another name")
    description = args.description or f"TODO: say what {name} does and when to use it (one or two sentences)."
    folder.mkdir(parents=True, exist_ok=True)
    text = _TEMPLATE.format(name=name, description=json.dumps(description, ensure_ascii=False), title=name)
    (folder / "SKILL.md").write_text(text, encoding="utf-8")
    print(f"created {folder / 'SKILL.md'}: fill in the description and the steps")
    return 0


def _route(args: argparse.Namespace) -> int:
    from asi_agent.skills.build import make_router  # noqa: PLC0415

    skills, config, root = _found(args)
    if not len(skills):
        raise UserError(f"no skills found for {root}: nothing to route to")
    route = make_router(skills, config).route(args.query, top_k=args.top)
    if args.json:
        print(json.dumps(route.to_dict(), ensure_ascii=False))
        return 0
    for rank, candidate in enumerate(route.candidates, start=1):
        print(f"{rank}. {candidate.name:<28} {candidate.score:.3f}")
    what = {"take": f"take {route.skill}", "choose": "the model chooses among these or none", "none": "none"}
    print(f"decision: {what[route.decision]}  ({route.method}, {route.milliseconds:.0f} ms)")
    return 0


def _row(skill: Any) -> dict[str, Any]:
    return {
        "name": skill.name,
        "source": skill.source,
        "scope": skill.scope,
        "path": str(skill.path),
        "description": skill.description,
        "trusted": skill.trusted,
        "allowed_tools": list(skill.allowed_tools),
    }


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
