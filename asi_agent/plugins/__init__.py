"""Plugin tools: the `moss-tools.json` manifests, their runners (command, python, http), MCP servers,
and installed plugin packages (entry points of the `asi_agent.plugins` group, `installed.py`).

The CLI uses `build_registry` (built-ins + manifest tools + installed packages' tools),
`attach_mcp_servers` (at session start), `check_plugins` and `describe_tools` (`asi-agent tools
[--check]`); `asi-agent plugins` uses `installed`, `scaffold` and `adding`. Plugin authors use
`asi_agent.sdk` (and `asi_agent.sdk.testing` in their tests).
"""

from asi_agent.plugins.loader import (
    attach_mcp_servers,
    build_registry,
    check_plugins,
    describe_tools,
    load_plugin_tools,
)
from asi_agent.plugins.problems import MANIFEST_NAME, PluginProblem

__all__ = [
    "MANIFEST_NAME",
    "PluginProblem",
    "attach_mcp_servers",
    "build_registry",
    "check_plugins",
    "describe_tools",
    "load_plugin_tools",
]
