import pytest

from asi_agent.policy.approval import mode_action

EXPECTED = {
    "ask": {"read": "allow", "write": "ask", "execute": "ask", "network": "ask"},
    "auto-edit": {"read": "allow", "write": "allow", "execute": "ask", "network": "ask"},
    "plan": {"read": "allow", "write": "deny", "execute": "deny", "network": "deny"},
    "yolo": {"read": "allow", "write": "allow", "execute": "allow", "network": "allow"},
}


@pytest.mark.parametrize("mode", list(EXPECTED))
@pytest.mark.parametrize("risk", ["read", "write", "execute", "network"])
def test_mode_by_class(mode, risk):
    assert mode_action(mode, risk) == EXPECTED[mode][risk]
