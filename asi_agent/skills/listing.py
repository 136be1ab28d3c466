"""What the model is shown of the skills: a short listing of the relevant ones, never all of them.

The listing goes into the description of `execute_skill` (the way Claude Code lists skills in its Skill
tool), so it reaches the model in native and in text mode alike, and changes only when the relevant skills
do. At most `MAX_LISTED` skills are listed, and a line says how many more exist.
"""

from __future__ import annotations

from collections.abc import Sequence

from asi_agent.skills.skill import Skill

__all__ = ["BASE_DESCRIPTION", "MAX_LISTED", "listing_text"]

MAX_LISTED = 20
"""Skill summaries in the prompt per turn (the configuration's `skills.max_listed`)."""
BASE_DESCRIPTION = (
    "Use a skill: returns its instructions and the list of its bundled files (read them with read_file; "
    "run its scripts with run_terminal_cmd). Call it when one of the skills below fits the request, before "
    "doing the work; `parameters` may carry values taken from the request."
)
"""The tool's own description, before the listing."""


def listing_text(skills: Sequence[Skill], *, total: int, width: int = 160) -> str:
    """The tool description: what it does, one line per listed skill, and how many more exist."""
    lines = [BASE_DESCRIPTION, "", "Skills relevant now:" if skills else "No skill fits the request now."]
    lines += [f"- {skill.name}: {skill.summary(width)}" for skill in skills]
    more = total - len(skills)
    if more > 0:
        lines.append(f"({more} more skills exist; they are listed when the request is about them.)")
    return "\n".join(lines)
