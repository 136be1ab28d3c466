"""The rules of the destructive-command classifier, by program: one registry over the rule families.

Each checker reads one program's arguments (already unquoted, with wrappers such as `sudo` or `env`
removed by `danger.py`) and returns a `Finding`, or None when nothing in them is destructive.
Families: files (`danger_files`), git (`danger_git`), the machine (`danger_system`), infrastructure
and data (`danger_infra`). How paths are judged lives in `danger_paths`.
"""

from __future__ import annotations

from asi_agent.policy.danger_common import Checker, RuleContext
from asi_agent.policy.danger_files import FILE_RULES
from asi_agent.policy.danger_git import GIT_RULES
from asi_agent.policy.danger_infra import INFRA_RULES
from asi_agent.policy.danger_paths import Finding, Level, worst, write_target
from asi_agent.policy.danger_system import SYSTEM_RULES, device_tool

__all__ = ["RULES", "Checker", "Finding", "Level", "RuleContext", "rule_for", "worst", "write_target"]

RULES: dict[str, Checker] = {**FILE_RULES, **GIT_RULES, **SYSTEM_RULES, **INFRA_RULES}


def rule_for(program: str) -> Checker | None:
    """The checker of `program`, if it has one (`mkfs.ext4` uses the `mkfs` family's)."""
    name = program.lower()  # case-insensitive file systems run `RM` as `rm`
    if name.startswith("mkfs"):
        return device_tool
    return RULES.get(name)
