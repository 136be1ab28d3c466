"""A project whose plugin tool blocks for two minutes: quitting must not wait for it.

A manifest's python tool runs in a sandboxed child process and is at least `execute`: the chats that use
this project start with `--yes`, so that the call runs without a question."""

from __future__ import annotations

import json
from pathlib import Path

SLOW_PLUGIN = '''
import time
from pathlib import Path
from asi_agent.sdk import BaseModel, PluginContext, tool

class Args(BaseModel):
    seconds: int

@tool(risk="execute")
def wait_a_while(args: Args, ctx: PluginContext) -> str:
    """Wait, blocking its thread (as an in-process model does while it writes)."""
    (ctx.root / "started").write_text("yes")
    time.sleep(args.seconds)
    return "waited"
'''


def slow_project(root: Path, tmp_path: Path) -> Path:
    """A project whose plugin tool blocks its thread for two minutes; returns the model's script."""
    (root / "plugins").mkdir()
    (root / "plugins" / "slow.py").write_text(SLOW_PLUGIN)
    entry = {
        "name": "wait_a_while",
        "description": "wait",
        "risk": "execute",
        "parameters": {
            "type": "object",
            "properties": {"seconds": {"type": "integer"}},
            "required": ["seconds"],
        },
        "run": {"type": "python", "entry": "slow:wait_a_while"},
    }
    (root / "moss-tools.json").write_text(json.dumps({"version": 1, "tools": [entry]}))
    model = tmp_path / "script.json"
    call = {"name": "wait_a_while", "arguments": {"seconds": 120}}
    model.write_text(json.dumps({"native": True, "replies": [{"text": "", "tool_calls": [call]}]}))
    return model
