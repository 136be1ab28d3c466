"""The contract is rendered once per tool set and reused while clients send the same tools: a changed
tool set — even one that differs only in a value `==` takes for another (`1`, `1.0`, `true`) — gets
its own contract at once, and the one before comes back with its tools."""

from __future__ import annotations

import copy
from typing import Any

from gateway.conftest import Gateway
from gateway.test_openai_sdk import ASK, client, upstream_text


def _tools(default: Any, description: str = "Read a text file") -> list[dict[str, Any]]:
    limit = {"type": "integer", "default": default}
    parameters = {"type": "object", "properties": {"path": {"type": "string"}, "limit": limit}}
    function = {
        "name": "read_file",
        "description": description,
        "parameters": parameters | {"required": ["path"]},
    }
    return [{"type": "function", "function": function}]


def _contract(gateway: Gateway, tools: list[dict[str, Any]]) -> str:
    gateway.upstream.reply("Nothing to read.")
    client(gateway).chat.completions.create(model="m", messages=ASK, tools=tools)  # type: ignore[arg-type]
    return upstream_text(gateway)


def test_the_contract_follows_every_change_of_the_tools(gateway: Gateway) -> None:
    first = _contract(gateway, _tools(1))
    assert "limit?: integer = 1" in first and "Read a text file" in first
    assert _contract(gateway, copy.deepcopy(_tools(1))) == first  # the same tools, sent again
    assert "limit?: integer = true" in _contract(gateway, _tools(True))
    assert "limit?: integer = 1.0" in _contract(gateway, _tools(1.0))
    assert "Read a file as text" in _contract(gateway, _tools(1, "Read a file as text"))
    assert _contract(gateway, _tools(1)) == first
