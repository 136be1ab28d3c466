"""Adding the extension surface to an assembled agent: its hooks and the `task` tool."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from asi_agent.agent import Agent
from asi_agent.backends.base import Backend
from asi_agent.hooks import Hooks, load_hooks
from asi_agent.subagents.definitions import find_agents
from asi_agent.subagents.task import HOST_KEY, SubagentHost, task_spec
from asi_agent.trust import ProjectTrust

__all__ = ["extend"]


def extend(
    agent: Agent,
    user_dir: Path,
    trust: ProjectTrust,
    *,
    depth: int,
    warn: Callable[[str], None],
    backend_for: Callable[[str], Backend] | None = None,
) -> None:
    """Give `agent` the hooks of the settings files and the `task` tool (when `depth` allows children);
    what an untrusted folder supplied in vain goes to `trust.ignored`. `backend_for` makes the backend of
    an agent definition's `model`."""
    ctx, runner = agent.runner.ctx, agent.runner
    commands, ignored = load_hooks(ctx.root, user_dir, trusted=trust.trusted)
    hooks = None
    if commands:
        mode = agent.config.gate.approval
        hooks = Hooks(commands, ctx, agent.session, warn=warn, mode=mode)
        ctx.cleanups.insert(0, hooks.session_end)  # the last cleanup: after the processes are stopped
        agent.config = dataclasses.replace(
            agent.config, hooks=hooks, gate=dataclasses.replace(agent.config.gate, hooks=hooks)
        )
        agent.gate.config = dataclasses.replace(agent.gate.config, hooks=hooks)
        runner.hooks = hooks
    agents, left_out = find_agents(ctx.root, user_dir, trusted=trust.trusted)
    trust.ignored.extend([*ignored, *left_out])
    if depth < 1 or "task" in runner.registry:
        return
    host = SubagentHost(
        agent.backend, lambda: runner.registry, agent.system, agent.config, agents, hooks, max_depth=depth,
        backend_for=backend_for,
    )  # fmt: skip
    runner.registry.register(task_spec(host))
    ctx.state[HOST_KEY] = host
