"""Training samples from conversations: the spec §5.1 JSONL form and the ms-swift agent form.

§5.1 sample: `messages` (system, user, assistant with `tool_calls` of `{id, name, arguments}`,
`role: tool` results, a closing assistant answer), plus `tools` (the registry's schemas, locale
included), `tags` (the §5.2 category, the tools used, `asi_v1`) and `quality`. A high-risk call's
result carries `permission`: what the policy decided and why (spec §5.3).

ms-swift sample (docs/spec/ms-swift-agent-data-format.md): `tools` as a JSON string, `tool_call`
messages whose content is the JSON string `{"name", "arguments"}`, `tool_response` messages whose
content is a JSON string.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from asi_agent.data.transcript import CallView, Conversation, legal_before
from asi_agent.prompts import BASE
from asi_agent.tools.registry import ToolRegistry

__all__ = [
    "CATEGORIES",
    "SYSTEM_PROMPT",
    "asi_sample",
    "category",
    "high_risk",
    "swift_messages",
    "to_swift",
]

SYSTEM_PROMPT = BASE.format(root="<project>") + (
    "\nCalls that delete files, run commands or reach the network are checked by the permission policy "
    "first; a refused call comes back as an error: do not retry it, choose another way or stop."
)
"""The system message of exported samples: the runtime's own, with the project folder as a mark."""

CATEGORIES = ("single-tool", "multi-tool", "error-correction", "no-tool")
"""The §5.2 kinds of samples, in the spec's order."""


def category(calls: Sequence[CallView]) -> str:
    """The §5.2 kind: no call; a failed call (and what followed); one tool; several tools."""
    if not calls:
        return "no-tool"
    if any(not call.ok for call in calls):
        return "error-correction"
    return "single-tool" if len({call.name for call in calls}) == 1 else "multi-tool"


def high_risk(registry: ToolRegistry, name: str) -> bool:
    """Deleting, running commands, reaching the network (spec §5.3)."""
    if name not in registry:
        return False
    spec = registry.get(name)
    return spec.risk in ("execute", "network") or name == "delete_file"


def _permission(call: CallView, registry: ToolRegistry) -> dict[str, Any]:
    risk = registry.get(call.name).risk
    if call.decision is not None:
        d = call.decision
        return {"risk": risk, "action": d.get("action"), "by": d.get("by"), "reason": d.get("reason")}
    return {"risk": risk, "action": "not-run", "by": "runtime", "reason": call.output[:200]}


def asi_sample(
    conv: Conversation, registry: ToolRegistry, *, extra_tags: Sequence[str] = ()
) -> dict[str, Any]:
    """The §5.1 sample of a conversation; calls appear as the runtime understood them (after repair)."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM_PROMPT}]
    for message in conv.messages:
        role = message.get("role")
        if role == "assistant":
            messages.append(_assistant(message, conv))
        elif role == "tool":
            messages.append(_tool(message, conv, registry))
        else:
            messages.append({"role": role, "content": message.get("content") or ""})
    kind = category(conv.calls)
    tags = [kind, *dict.fromkeys(call.name for call in conv.calls), *extra_tags, "asi_v1"]
    exported = [(c.name, c.arguments) for c in conv.calls]
    return {
        "id": conv.id,
        "messages": messages,
        "tools": registry.schemas(),
        "tags": tags,
        "quality": {
            "schema_valid": all(legal_before(registry, name, args) for name, args in exported),
            "tools_from_registry": all(name in registry for name, _ in exported),
            "closed": conv.closed,
        },
    }


def _assistant(message: Mapping[str, Any], conv: Conversation) -> dict[str, Any]:
    calls = []
    for raw in message.get("tool_calls") or ():
        view = conv.call(str(raw["id"]))
        name, arguments = (view.name, view.arguments) if view else (raw["name"], raw.get("arguments") or {})
        calls.append({"id": str(raw["id"]), "name": name, "arguments": arguments})
    out: dict[str, Any] = {"role": "assistant", "content": message.get("content") or None}
    if calls:
        out["tool_calls"] = calls
    return out


def _tool(message: Mapping[str, Any], conv: Conversation, registry: ToolRegistry) -> dict[str, Any]:
    call_id = str(message.get("tool_call_id") or "")
    view = conv.call(call_id)
    out: dict[str, Any] = {
        "role": "tool",
        "tool_call_id": call_id,
        "name": view.name if view else message.get("name"),
        "content": message.get("content") or "",
    }
    if view and high_risk(registry, view.name):
        out["permission"] = _permission(view, registry)
    return out


def swift_messages(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """§5.1 messages in ms-swift roles: `tool_call` / `tool_response`, JSON-string contents."""
    out: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        if role == "assistant" and message.get("tool_calls"):
            if message.get("content"):
                out.append({"role": "assistant", "content": message["content"]})
            for call in message["tool_calls"]:
                body = {"name": call["name"], "arguments": call["arguments"]}
                out.append({"role": "tool_call", "content": json.dumps(body, ensure_ascii=False)})
        elif role == "tool":
            body = {"name": message.get("name"), "content": message.get("content") or ""}
            if "permission" in message:
                body["permission"] = message["permission"]
            out.append({"role": "tool_response", "content": json.dumps(body, ensure_ascii=False)})
        else:
            out.append({"role": str(role), "content": message.get("content") or ""})
    return out


def to_swift(sample: Mapping[str, Any]) -> dict[str, Any]:
    """An ms-swift agent sample from a §5.1 sample."""
    return {
        "tools": json.dumps(sample["tools"], ensure_ascii=False),
        "messages": swift_messages(sample["messages"]),
    }
