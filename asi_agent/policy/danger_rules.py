"""The rules of the destructive-command classifier, by program: one registry over the rule families.

Each checker reads one program's arguments (already unquoted, with wrappers such as `sudo` or `env`
removed by `danger.py`) and returns a `Finding`, or None when nothing in them is destructive.
Families: files (`danger_files`), git (`danger_git`), the machine (`danger_system`), infrastructure
and data (`danger_infra`), commands carried in options (`danger_carriers`), data and shells sent to
other hosts (`danger_network`), archives unpacked outside the project (`danger_archives`); where
several judge one program, the most severe finding wins. How paths are judged lives in `danger_paths`.
"""

from __future__ import annotations

from collections.abc import Sequence

from asi_agent.policy.danger_archives import ARCHIVE_RULES
from asi_agent.policy.danger_carriers import CARRIER_RULES
from asi_agent.policy.danger_common import Checker, RuleContext
from asi_agent.policy.danger_files import FILE_RULES
from asi_agent.policy.danger_git import GIT_RULES
from asi_agent.policy.danger_infra import INFRA_RULES
from asi_agent.policy.danger_network import NETWORK_RULES
from asi_agent.policy.danger_paths import Finding, Level, worst, write_target
from asi_agent.policy.danger_system import SYSTEM_RULES, device_tool

__all__ = ["RULES", "Checker", "Finding", "Level", "RuleContext", "rule_for", "worst", "write_target"]


def _merged(*tables: dict[str, Checker]) -> dict[str, Checker]:
    """One checker per program: where several families judge a program, the most severe finding wins."""
    merged: dict[str, list[Checker]] = {}
    for table in tables:
        for program, checker in table.items():
            merged.setdefault(program, []).append(checker)
    return {program: checks[0] if len(checks) == 1 else _all(checks) for program, checks in merged.items()}


def _all(checks: list[Checker]) -> Checker:
    def check(args: Sequence[str], ctx: RuleContext) -> Finding | None:
        return worst(c(args, ctx) for c in checks)

    return check


RULES: dict[str, Checker] = _merged(
    FILE_RULES, GIT_RULES, SYSTEM_RULES, INFRA_RULES, CARRIER_RULES, NETWORK_RULES, ARCHIVE_RULES
)


def rule_for(program: str) -> Checker | None:
    """The checker of `program`, if it has one (`mkfs.ext4` uses the `mkfs` family's)."""
    name = program.lower()  # case-insensitive file systems run `RM` as `rm`
    if name.startswith("mkfs"):
        return device_tool
    return RULES.get(name)
