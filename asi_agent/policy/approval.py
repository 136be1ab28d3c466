"""Approval modes: what runs, what asks the person, what is refused, per class of call.

mode        read    write   execute  network
ask         allow   ask     ask      ask
auto-edit   allow   allow   ask      ask
plan        allow   deny    deny     deny
yolo        allow   allow   allow    allow
"""

from __future__ import annotations

from typing import Literal

from asi_agent.config import Approval
from asi_agent.tools.base import Risk

__all__ = ["mode_action"]

_TABLE: dict[Approval, dict[Risk, Literal["allow", "ask", "deny"]]] = {
    "ask": {"read": "allow", "write": "ask", "execute": "ask", "network": "ask"},
    "auto-edit": {"read": "allow", "write": "allow", "execute": "ask", "network": "ask"},
    "plan": {"read": "allow", "write": "deny", "execute": "deny", "network": "deny"},
    "yolo": {"read": "allow", "write": "allow", "execute": "allow", "network": "allow"},
}


def mode_action(mode: Approval, risk: Risk) -> Literal["allow", "ask", "deny"]:
    """The mode's answer for a call of one class, before any rule."""
    return _TABLE[mode][risk]
