"""A plan that hands off: `plan` mode researches read-only and writes a plan; another mode then runs it.

In `plan` mode each request to the model carries `PLAN_NOTE`: research with the read tools, write the plan
as a todo list (`todo_write`, every step pending) and a short text, end DONE. The front ends then offer to
run it: the chat asks in which mode (ask, auto-edit, yolo) and sends `RUN_PLAN` in that mode, the todo
list kept; the editor protocol switches its session mode and says so; headless `--approval plan` prints
the plan and ends.
"""

from __future__ import annotations

__all__ = ["PLAN_NOTE", "RUN_MODES", "RUN_PLAN", "is_plan_task", "plan_task"]

PLAN_NOTE = (
    "[plan mode] You are in plan mode: edits and commands are refused. Research with the read-only tools, "
    "then write a plan: the steps as a todo list (call todo_write, every step pending) and a short text "
    "saying what each step changes and why. Do not try to make the changes. End with AGENT_STATUS: DONE; "
    "the person will then run the plan."
)
"""Put before the person's request while the session is in plan mode."""
RUN_PLAN = (
    "Run the plan above now, step by step. Keep the todo list current with todo_write: mark each step "
    "in_progress when you start it and completed when it is done."
)
"""The message that hands the plan to execution."""
RUN_MODES = ("ask", "auto-edit", "yolo")
"""The modes a plan can be run in."""


def plan_task(task: str) -> str:
    """The request as the model gets it in plan mode."""
    return f"{PLAN_NOTE}\n\n{task}"


def is_plan_task(task: str) -> bool:
    """Whether the request was made in plan mode (it asks for a plan, not for the change itself)."""
    return task.startswith(PLAN_NOTE)
