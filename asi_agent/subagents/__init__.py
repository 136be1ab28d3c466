"""Child agents: agent definitions and the `task` tool that starts them."""

from asi_agent.subagents.definitions import BUILTIN, AgentDefinition, find_agents
from asi_agent.subagents.task import HOST_KEY, SubagentHost, TaskArgs, listed_task_spec, task_spec

__all__ = [
    "BUILTIN",
    "HOST_KEY",
    "AgentDefinition",
    "SubagentHost",
    "TaskArgs",
    "find_agents",
    "listed_task_spec",
    "task_spec",
]
