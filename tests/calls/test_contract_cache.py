"""The contract kept for the last tool set is the contract of that tool set only: a list the caller
changes in place after use gets a new one (the cache holds its own copy)."""

from __future__ import annotations

from asi_agent.calls.style import CallStyle


def test_a_contract_follows_a_tool_list_changed_in_place():
    tools = [{"type": "function", "function": {"name": "read_file", "description": "Read a text file"}}]
    style = CallStyle.choose("asi", "m")
    assert "Read a text file" in style.contract(tools)
    tools[0]["function"]["description"] = "Read any file"  # the caller's own list, changed after use
    assert "Read any file" in style.contract(tools)
    assert "Read a text file" not in style.contract(tools)
