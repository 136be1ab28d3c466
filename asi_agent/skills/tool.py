"""The `execute_skill` tool: a skill's instructions and bundled files, for the model to follow."""

from __future__ import annotations

from asi_agent.exceptions import ToolError
from asi_agent.skills.session import SKILLS_KEY, SkillSession
from asi_agent.tools.args import ExecuteSkillArgs
from asi_agent.tools.base import ToolContext

__all__ = ["execute_skill"]


async def execute_skill(args: ExecuteSkillArgs, ctx: ToolContext) -> str:
    """The named skill's body, the paths of its files, and how they may be used."""
    session = ctx.state.get(SKILLS_KEY)
    if not isinstance(session, SkillSession):
        raise ToolError("no skills are installed in this session; go on without execute_skill")
    try:
        return session.run_tool(args.skill_id, args.parameters)
    except ValueError as exc:
        raise ToolError(str(exc)) from None
