"""Lifecycle hooks in Claude Code's format: commands run at `PreToolUse`, `PostToolUse`, `UserPromptSubmit`,
`Stop`, `SubagentStop`, `SessionStart`, `SessionEnd`, `PreCompact` and `Notification`.

`Hooks` is the one object the agent, the gate and the tool runner call at their hook points; what the
hooks decide is data (`Verdict`), which each point turns into the loop's own terms.
"""

from asi_agent.hooks.lifecycle import HookedAgent, Hooks
from asi_agent.hooks.process import Verdict, run_hook
from asi_agent.hooks.settings import EVENTS, PROJECT_FILES, HookCommand, load_hooks

__all__ = [
    "EVENTS", "PROJECT_FILES", "HookCommand", "HookedAgent", "Hooks", "Verdict", "load_hooks", "run_hook",
]  # fmt: skip
