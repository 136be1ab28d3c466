"""What a write would change, computed without writing: the diff shown when the policy asks the person."""

from __future__ import annotations

import dataclasses

from asi_agent.exceptions import ModelFixableError
from asi_agent.tools.base import ToolArgs, ToolContext, ToolSpec
from asi_agent.tools.files.ops import ChangePlanned
from asi_agent.tools.files.textio import decode, unified_diff

__all__ = ["PREVIEWABLE", "plan_change", "preview_change"]

PREVIEWABLE = frozenset(
    {"create_file", "replace_lines", "insert_line", "delete_lines", "replace_text", "delete_file", "reapply"}
    | {"save_memory"}
)
"""Tools whose only effect is one file change, so a dry run shows exactly what they would do."""


async def preview_change(spec: ToolSpec, args: ToolArgs, ctx: ToolContext) -> str:
    """The unified diff of the call's change, why it would fail, or "" when it cannot be previewed."""
    if spec.name not in PREVIEWABLE or spec.run is None:
        return ""
    try:
        plan = await plan_change(spec, args, ctx)
    except ModelFixableError as exc:
        return f"(this call would fail: {exc})"
    return "(no change)" if plan is None else _diff(plan)


async def plan_change(spec: ToolSpec, args: ToolArgs, ctx: ToolContext) -> ChangePlanned | None:
    """The change a previewable call would make, from a dry run; None when it cannot be previewed or would
    change nothing. ModelFixableError when the call would fail."""
    if spec.name not in PREVIEWABLE or spec.run is None:
        return None
    dry = dataclasses.replace(ctx, dry_run=True, stamps=dict(ctx.stamps), state={}, cleanups=[])
    try:
        await spec.run(args, dry)
    except ChangePlanned as plan:
        return plan
    return None


def _diff(plan: ChangePlanned) -> str:
    before = decode(plan.before)[0] if plan.before is not None else ""
    after = decode(plan.after)[0] if plan.after is not None else ""
    if plan.after is None:
        return f"delete {plan.path}\n" + unified_diff(before, "", plan.path, max_lines=10_000)
    return unified_diff(before, after, plan.path, max_lines=10_000)
