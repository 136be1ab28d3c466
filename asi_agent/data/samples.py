"""Training samples from conversations: the spec §5.1 JSONL form and the ms-swift agent form.

§5.1 sample: `messages` (system, user, assistant with `tool_calls` of `{id, name, arguments}`,
`role: tool` results, a closing assistant answer), plus `tools`, `tags` (the §5.2 category, the tools
used, `asi_v1`) and `quality`. The system text and `tools` are what the run's model requests carried
(the transcript's `request` records), byte for byte; a result's content is the text the model read. A
high-risk call's result carries `permission`: what the policy decided and why (spec §5.3). A mistaken
reply kept as context has `"loss": false`.

ms-swift sample (docs/spec/ms-swift-agent-data-format.md): `tools` as a JSON string, `tool_call`
messages whose content is the JSON string `{"name", "arguments"}`, `tool_response` messages whose
content is the raw result text, `loss` on the messages of a masked turn.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from asi_agent.data.checks import STATUS_LINE
from asi_agent.data.transcript import CallView, Conversation, legal_before, runtime_nag
from asi_agent.prompts import BASE
from asi_agent.tools.registry import ToolRegistry

__all__ = [
    "CATEGORIES",
    "FALLBACK_SYSTEM",
    "MISTAKES",
    "NARRATION",
    "asi_sample",
    "category",
    "high_risk",
    "swift_messages",
    "to_swift",
]

FALLBACK_SYSTEM = BASE.format(root="<project>")
"""The system message of a sample from a transcript that did not record its requests (only exported on
request): the runtime's base prompt, the project folder as a mark. Recorded runs export what was sent."""

CATEGORIES = ("single-tool", "multi-tool", "error-correction", "no-tool")
"""The §5.2 kinds of samples, in the spec's order."""

MISTAKES = ("drop", "mask", "keep")
"""What `--mistakes` does with a rejected reply: leave it out with its result, keep it with its loss
masked (`"loss": false`, the per-message field ms-swift's preprocessing reads), keep it as a target."""

NARRATION = ("drop", "keep")
"""What `--narration` does with the text of an assistant turn that calls tools (§4.1: calls alone)."""


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
        return {
            "risk": risk,
            "action": d.get("action"),
            "by": d.get("by"),
            "rule": d.get("rule"),
            "reason": d.get("reason"),
        }
    return {"risk": risk, "action": "not-run", "by": "runtime", "reason": call.output[:200]}


def asi_sample(
    conv: Conversation,
    registry: ToolRegistry,
    *,
    extra_tags: Sequence[str] = (),
    mistakes: str = "mask",
    narration: str = "drop",
) -> dict[str, Any]:
    """The §5.1 sample of a conversation; calls appear as the runtime understood them (after repair).

    The system text and tools are those the run's requests sent; tool results are the text the model
    read. A mistaken reply (a call rejected or failed, an ending the runtime's checks turned back, call
    text it could not read) is handled as `mistakes` says; with "drop", its results and the runtime's
    answer to it go too.
    """
    messages: list[dict[str, Any]] = [{"role": "system", "content": conv.system or FALLBACK_SYSTEM}]
    dropped: set[str] = set()
    skip_nag = False
    for index, message in enumerate(conv.messages):
        role = message.get("role")
        if role == "assistant":
            out, gone = _assistant(message, conv, _turned_back(conv.messages, index), mistakes, narration)
            dropped |= gone
            skip_nag = out is None
            if out is not None:
                messages.append(out)
        elif role == "tool":
            if str(message.get("tool_call_id") or "") not in dropped:
                messages.append(_tool(message, conv, registry))
        elif not (skip_nag and runtime_nag(message) == "correction"):
            messages.append({"role": role, "content": message.get("content") or ""})
    kept = [call for call in conv.calls if call.id not in dropped]
    trained = [call for call in kept if not (mistakes == "mask" and call.mistake)]
    kind = category(kept)
    mode = ["text-mode"] if conv.text_mode else []
    tags = [kind, *dict.fromkeys(call.name for call in kept), *mode, *extra_tags, "asi_v1"]
    return {
        "id": conv.id,
        "messages": messages,
        "tools": conv.tools if conv.tools is not None else registry.schemas(),
        "tags": tags,
        "quality": {
            "schema_valid": all(legal_before(registry, c.name, c.arguments) for c in trained),
            "tools_from_registry": all(c.name in registry for c in trained),
            "closed": conv.closed,
            "mistakes": {"calls": sum(c.mistake for c in conv.calls), "handled": mistakes},
            "agent_status": _status(conv),
        },
    }


def _status(conv: Conversation) -> str | None:
    """The `AGENT_STATUS` the run's final answer ends with, None when it wrote none."""
    last = conv.messages[-1] if conv.messages else {}
    text = str(last.get("content") or "").rstrip() if last.get("role") == "assistant" else ""
    found = STATUS_LINE.fullmatch(text.rsplit("\n", 1)[-1].strip())
    return found[1] if found else None


def _turned_back(messages: Sequence[Mapping[str, Any]], index: int) -> bool:
    """Whether the runtime answered the reply at `index` with a correction (a rejected ending, unread
    call text)."""
    return index + 1 < len(messages) and runtime_nag(messages[index + 1]) == "correction"


def _assistant(
    message: Mapping[str, Any], conv: Conversation, turned_back: bool, mistakes: str, narration: str
) -> tuple[dict[str, Any] | None, set[str]]:
    """The exported assistant turn (None: dropped) and the ids of the calls dropped from it."""
    calls, dropped, mistaken = [], set(), turned_back
    for raw in message.get("tool_calls") or ():
        view = conv.call(str(raw["id"]))
        if view is not None and view.mistake:
            mistaken = True
            if mistakes == "drop":
                dropped.add(view.id)
                continue
        name, arguments = (view.name, view.arguments) if view else (raw["name"], raw.get("arguments") or {})
        calls.append({"id": str(raw["id"]), "name": name, "arguments": arguments})
    if mistakes == "drop" and (turned_back or (dropped and not calls)):
        return None, dropped
    text = message.get("content") or None
    out: dict[str, Any] = {"role": "assistant", "content": None if calls and narration == "drop" else text}
    if calls:
        out["tool_calls"] = calls
    # A turn the runtime wrote (the planner's reply, made without the model) is never a model target.
    if (mistaken and mistakes == "mask") or message.get("origin") == "runtime":
        out["loss"] = False
    return out, dropped


def _tool(message: Mapping[str, Any], conv: Conversation, registry: ToolRegistry) -> dict[str, Any]:
    """A tool result as the model read it; a high-risk call's result also carries the policy's decision."""
    call_id = str(message.get("tool_call_id") or "")
    view = conv.call(call_id)
    out: dict[str, Any] = {
        "role": "tool",
        "tool_call_id": call_id,
        "name": view.name if view else message.get("name"),
        "content": message.get("content") or "",
    }
    refused = view is not None and view.decision is not None and view.decision.get("action") == "deny"
    if view and view.name in registry and (high_risk(registry, view.name) or refused):
        out["permission"] = _permission(view, registry)
    return out


def swift_messages(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """§5.1 messages in ms-swift roles: `tool_call` contents as JSON strings, `tool_response` contents the
    result text the model read. A masked turn keeps `"loss": false` on each of its messages (ms-swift
    carries it onto the turn it assembles); `permission` stays beside a result (ms-swift drops the key
    before the template: the model never reads it)."""
    out: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        loss = {"loss": message["loss"]} if "loss" in message else {}
        if role == "assistant" and message.get("tool_calls"):
            if message.get("content"):
                out.append({"role": "assistant", "content": message["content"], **loss})
            for call in message["tool_calls"]:
                body = {"name": call["name"], "arguments": call["arguments"]}
                out.append({"role": "tool_call", "content": json.dumps(body, ensure_ascii=False), **loss})
        elif role == "tool":
            response = {"role": "tool_response", "content": message.get("content") or ""}
            if "permission" in message:
                response["permission"] = message["permission"]
            out.append(response)
        else:
            out.append({"role": str(role), "content": message.get("content") or "", **loss})
    return out


def to_swift(sample: Mapping[str, Any]) -> dict[str, Any]:
    """An ms-swift agent sample from a §5.1 sample."""
    return {
        "tools": json.dumps(sample["tools"], ensure_ascii=False),
        "messages": swift_messages(sample["messages"]),
    }
