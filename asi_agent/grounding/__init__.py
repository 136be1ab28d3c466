"""Grounding: every turn of a guided model narrowed to the task's tools and the project's real values.

`planner_for` gives a backend that asks for it (`Backend.wants_planner`: the local models) a `Planner`
for one run, a step of the agent's loop (see `grounding.planner` and `grounding.guide`).
"""

from __future__ import annotations

from asi_agent.backends.base import Backend
from asi_agent.grounding.guide import Grounder, GrounderConfig
from asi_agent.grounding.planner import Planner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.registry import ToolRegistry

__all__ = ["Grounder", "GrounderConfig", "Planner", "planner_for"]


def planner_for(backend: Backend, ctx: ToolContext, registry: ToolRegistry) -> Planner | None:
    """The planner of a run in this project for a backend that asks for one; None for other backends.

    The embedded tiny model must quote the results it answers from; a bigger GGUF model answers in its
    own words and is offered every parameter of a tool.
    """
    if not backend.wants_planner:
        return None
    small = backend.small_model
    return Planner(Grounder(ctx, registry, GrounderConfig(quote_answers=small, all_parameters=not small)))
