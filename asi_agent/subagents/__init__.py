"""Child agents: agent definitions and the `task` tool that starts them."""

from asi_agent.subagents.definitions import BUILTIN, AgentDefinition, find_agents
from asi_agent.subagents.task import HOST_KEY, SubagentHost, TaskArgs, task_spec

__all__ = ["BUILTIN", "HOST_KEY", "AgentDefinition", "SubagentHost", "TaskArgs", "find_agents", "task_spec"]
