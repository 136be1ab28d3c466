"""The permission layer: a pure decision around tool execution (`decide`), policies and presets."""

from asi_agent.policy.engine import Decision, classify, decide
from asi_agent.policy.model import PRESETS, Policy, Rule, load_policy

__all__ = ["PRESETS", "Decision", "Policy", "Rule", "classify", "decide", "load_policy"]
