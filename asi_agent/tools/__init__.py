"""Tools: arguments models (`args`), built-ins (`catalog`), schemas (`schema`), the registry (`registry`).

The tools themselves live in one subpackage per family: `files`, `search`, `code`, `exec`, `quality`;
shared helpers (`paths`, `ignore`) and the two `moss_*` tools (`moss`) stay here.

Only the light base types are re-exported here, so importing a tool module stays cheap.
"""

from asi_agent.tools.base import Risk, ToolArgs, ToolContext, ToolSpec

__all__ = ["Risk", "ToolArgs", "ToolContext", "ToolSpec"]
