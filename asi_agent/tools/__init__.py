"""Tools: arguments models (`args`), built-ins (`catalog`), schemas (`schema`), the registry (`registry`).

Only the light base types are re-exported here, so importing a tool module stays cheap.
"""

from asi_agent.tools.base import Risk, ToolArgs, ToolContext, ToolSpec

__all__ = ["Risk", "ToolArgs", "ToolContext", "ToolSpec"]
