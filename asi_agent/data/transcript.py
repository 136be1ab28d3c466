"""Reading a session transcript back as a conversation with one verdict per tool call.

A transcript (`.asi/sessions/<id>.jsonl`) keeps every assistant message with the calls exactly as the
model wrote them, a `decision` record per gated call and a `result` record per call carrying the call
after name and alias repair. From these, each call gets what spec §8 measures: did it run without
error, were its arguments legal before alias repair and after it, and was it a safety violation (the
policy blocked it as harmful, or it tried to leave the project) — a call refused only because nobody could
answer its approval question is counted apart (`unapproved`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asi_agent.exceptions import ModelFixableError
from asi_agent.messages import Message, ResultKind
from asi_agent.tools.registry import ToolRegistry
from asi_agent.wire import legacy_result

__all__ = [
    "CallView",
    "Conversation",
    "harmful_refusal",
    "legal_after",
    "legal_before",
    "load_records",
    "read_conversation",
    "result_failed",
    "runtime_nag",
    "unapproved",
]

_BOUNDARY_KINDS = frozenset({"PermissionDeniedError"})
"""The error kinds of a refused path (tools/paths.py): the call tried to leave the project or write where
no tool may write."""


@dataclass(frozen=True, slots=True)
class CallView:
    """One tool call of a conversation, with its verdicts."""

    id: str
    raw_name: str
    raw_arguments: Any
    name: str
    """The name after repair (the registry's, when it resolved)."""
    arguments: dict[str, Any]
    """The arguments after alias repair (as raw when the call was rejected)."""
    ok: bool
    output: str
    legal_before: bool
    legal_after: bool
    violation: bool
    """The policy blocked it as harmful, or it tried to leave the project (not: nobody could approve it)."""
    decision: Mapping[str, Any] | None = None
    answered: bool = True
    """Whether the transcript has the call's result."""

    @property
    def unapproved(self) -> bool:
        """Refused only because nobody could answer its approval question (no terminal)."""
        return unapproved(self.decision)

    @property
    def mistake(self) -> bool:
        """A call the runtime rejected or that failed: unknown tool, invalid arguments, refused, an error."""
        return not self.ok


@dataclass(slots=True)
class Conversation:
    """A whole run: its messages (transcript form), calls, ending and cost."""

    id: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    calls: list[CallView] = field(default_factory=list)
    status: str = "unfinished"
    result: str = ""
    verified: bool = False
    """Whether the runtime backed the ending (a transcript from before verified endings: False)."""
    turns: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    system: str | None = None
    """The system text of the run's first model request, as sent (None: the transcript predates it)."""
    tools: list[dict[str, Any]] | None = None
    """The tool schemas the run's requests offered, in the order first offered."""
    text_mode: bool = False
    """Whether a request carried the calls as text (the tools described in the system text, results
    framed as user turns by the call dialect) rather than natively."""

    @property
    def task(self) -> str:
        """The first user message."""
        return next((m.get("content") or "" for m in self.messages if m.get("role") == "user"), "")

    def call(self, call_id: str) -> CallView | None:
        """The call with this id."""
        return next((c for c in self.calls if c.id == call_id), None)

    @property
    def cut_off(self) -> bool:
        """Whether a reply was cut at the token limit or for repeating itself (the runtime asked again)."""
        return any(runtime_nag(m) == "cut-off" for m in self.messages)

    @property
    def unanswered(self) -> list[CallView]:
        """The calls with no result in the transcript."""
        return [call for call in self.calls if not call.answered]

    @property
    def closed(self) -> bool:
        """Whether the conversation ends with an assistant answer that makes no call (spec §5.3)."""
        last = self.messages[-1] if self.messages else {}
        return last.get("role") == "assistant" and not last.get("tool_calls") and bool(last.get("content"))


def load_records(path: Path) -> list[dict[str, Any]]:
    """The records of a JSONL transcript; a torn line (crash mid-write) is skipped."""
    records: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return records


def read_conversation(
    records: Iterable[Mapping[str, Any]], registry: ToolRegistry, ident: str
) -> Conversation:
    """The conversation of a transcript, every call judged against `registry`."""
    conv = Conversation(ident)
    raw: dict[str, dict[str, Any]] = {}
    results: dict[str, dict[str, Any]] = {}
    decisions: dict[str, Mapping[str, Any]] = {}
    order: list[str] = []
    for record in records:
        kind = record.get("type")
        if kind == "message":
            message = Message.from_dict(record["message"]).to_dict()  # typed fields, older ones too
            conv.messages.append(message)
            for call in message.get("tool_calls") or ():
                raw[str(call["id"])] = call
                order.append(str(call["id"]))
            if message.get("role") == "tool" and message.get("tool_call_id"):
                kept = results.setdefault(str(message["tool_call_id"]), {})
                kept.setdefault("content", message["content"])
                kept.setdefault("error_kind", message.get("error_kind"))
                kept.setdefault("outcome", message.get("outcome"))
        elif kind == "result":
            call = record.get("call") or {}
            results[str(call.get("id"))] = {**results.get(str(call.get("id")), {}), **record}
        elif kind == "decision":
            decisions[str((record.get("call") or {}).get("id"))] = record
        elif kind == "usage":
            conv.prompt_tokens += int(record.get("prompt_tokens") or 0)
            conv.completion_tokens += int(record.get("completion_tokens") or 0)
        elif kind == "request":
            _add_request(conv, record)
        elif kind == "finished":
            conv.status = str(record.get("status", conv.status))
            conv.result = str(record.get("result") or "")
            conv.turns = int(record.get("turns") or 0)
            conv.verified = record.get("verified") is True
    conv.calls = [_view(raw[i], results.get(i, {}), decisions.get(i), registry) for i in order]
    return conv


def result_failed(content: object) -> bool:
    """Whether an exported sample's tool result reports an error or a refusal (a sample keeps only the
    text the model read, rendered by `asi_agent.wire`)."""
    return legacy_result(str(content or "")) != "ok"


def harmful_refusal(decision: Mapping[str, Any] | None) -> bool:
    """Whether the policy refused a call because of what it would do (a destructive command, a path out of
    the project, a deny rule), not because of the mode or because nobody could answer its question."""
    if decision is None or decision.get("action") != "deny" or decision.get("by") != "policy":
        return False
    return not str(decision.get("rule") or "").startswith("mode ") and "nobody can" not in str(
        decision.get("reason") or ""
    )


def unapproved(decision: Mapping[str, Any] | None) -> bool:
    """Whether a call was refused only because its approval question had nobody to answer it."""
    return (
        decision is not None
        and decision.get("action") == "deny"
        and "nobody can" in str(decision.get("reason") or "")
    )


def runtime_nag(message: Mapping[str, Any]) -> str | None:
    """ "cut-off" for the runtime's request to continue a cut reply, "correction" for its answer to a
    rejected reply, None for any other message."""
    if message.get("role") != "user":
        return None
    note = message.get("note")
    if "origin" not in message:  # a message as an older transcript kept it
        note = Message.from_dict(dict(message)).note
    if note == "cut_off":
        return "cut-off"
    return "correction" if note in ("checks", "unparsed") else None


def _add_request(conv: Conversation, record: Mapping[str, Any]) -> None:
    """The first request's system text; every request's tools, each new one after those seen."""
    if conv.system is None and isinstance(record.get("system"), str):
        conv.system = record["system"]
    conv.text_mode |= record.get("tool_mode") == "text"
    tools = record.get("tools")
    if not isinstance(tools, list):
        return
    conv.tools = conv.tools if conv.tools is not None else []
    seen = {_tool_name(tool) for tool in conv.tools}
    conv.tools += [tool for tool in tools if _tool_name(tool) not in seen]


def _tool_name(tool: Any) -> str:
    return str(((tool or {}).get("function") or {}).get("name", "")) if isinstance(tool, dict) else ""


def _view(
    call: Mapping[str, Any],
    result: Mapping[str, Any],
    decision: Mapping[str, Any] | None,
    registry: ToolRegistry,
) -> CallView:
    repaired = result.get("call") or call
    content = str(result.get("content") or "")
    ok = bool(result.get("ok", False))
    kind: ResultKind = result.get("outcome") or ("ok" if ok else "error")
    output = Message("tool", content, outcome=kind).body
    # A refusal at the gate is judged by its decision (harmful, or only unapproved); other refused paths
    # are the tools' own: the call tried to leave the project.
    refused = decision is not None and decision.get("action") == "deny"
    boundary = not ok and (kind == "refused" or result.get("error_kind") in _BOUNDARY_KINDS)
    return CallView(
        id=str(call["id"]),
        raw_name=str(call.get("name", "")),
        raw_arguments=call.get("arguments"),
        name=str(repaired.get("name", call.get("name", ""))),
        arguments=dict(repaired.get("arguments") or {}),
        ok=ok,
        output=output,
        legal_before=legal_before(registry, str(call.get("name", "")), call.get("arguments")),
        legal_after=legal_after(registry, str(call.get("name", "")), call.get("arguments")),
        violation=harmful_refusal(decision) or (boundary and not refused),
        decision=decision,
        answered="content" in result,
    )


def legal_before(registry: ToolRegistry, name: str, arguments: object) -> bool:
    """Exact registry name, exact parameter names, and valid values: legal with no repair at all."""
    if name not in registry or not isinstance(arguments, Mapping):
        return False
    spec = registry.get(name)
    if spec.parameters is not None:
        known = set((spec.parameters.get("properties") or {}).keys())
    else:
        fields = spec.args.model_fields
        known = set(fields)
        if any(
            value is None and not fields[key].is_required()
            for key, value in arguments.items()
            if key in fields
        ):
            return False  # a null for "not given" is repaired, not legal
    if not set(arguments) <= known:
        return False
    return legal_after(registry, name, arguments)


def legal_after(registry: ToolRegistry, name: str, arguments: object) -> bool:
    """Valid once the runtime's name resolution and alias repair have run."""
    try:
        registry.validate(name, arguments)
    except (ModelFixableError, KeyError):
        return False
    return True
