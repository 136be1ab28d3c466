"""Grounding: every turn of a local model narrowed to the task's tools and the project's real values.

`attach_grounding` gives a local backend a `Grounder` for one run (see `grounding.guide`).
"""

from __future__ import annotations

from asi_agent.backends.base import Backend
from asi_agent.grounding.guide import Grounder, GrounderConfig
from asi_agent.tools.base import ToolContext
from asi_agent.tools.registry import ToolRegistry

__all__ = ["Grounder", "GrounderConfig", "attach_grounding"]


def attach_grounding(backend: Backend, ctx: ToolContext, registry: ToolRegistry) -> bool:
    """Guide a local backend's turns in this project; False (nothing done) for other backends.

    The embedded tiny model must quote the results it answers from; a bigger GGUF model (a
    `model_path`) answers in its own words and is offered every parameter of a tool.
    """
    from asi_agent.backends.local import LocalBackend  # noqa: PLC0415  # only when grounding applies

    if not isinstance(backend, LocalBackend):
        return False
    small = backend.embedded
    backend.guide = Grounder(ctx, registry, GrounderConfig(quote_answers=small, all_parameters=not small))
    return True
