"""Preference pairs (spec §6.2) and error-correction samples (§6.3) from §5.1 samples.

A pair shares its `messages` (the state), then has a `chosen` and a `rejected` assistant message.
Chosen is always a legal call the run really made; rejected is, by preference, a call the model
really got wrong at that point (`source: transcript`), else one derived from the legal call: a wrong
tool name, an invented parameter, or — after a tool error — an answer that ignores the error.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from asi_agent.data.transcript import legal_after, legal_before
from asi_agent.tools.registry import ToolRegistry

__all__ = ["IGNORED_ERROR_REPLY", "failure_samples", "preference_pairs"]

IGNORED_ERROR_REPLY = "The change has been applied successfully and everything works.\nAGENT_STATUS: DONE"
"""The rejected answer of an `ignored_error` pair: carrying on as if the failed call had worked."""

_WRONG_NAMES = {
    "read_file": "open_file",
    "grep_search": "search_text",
    "list_directory": "ls",
    "replace_text": "edit_file",
    "create_file": "write_file",
    "run_terminal_cmd": "execute_shell",
    "run_tests": "pytest",
    "file_search": "find_files",
}


def _calls(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    return list(message.get("tool_calls") or ())


def _ok(messages: list[dict[str, Any]], call_id: str) -> bool:
    """Whether the tool result of a call is not an error."""
    for message in messages:
        if message.get("role") == "tool" and message.get("tool_call_id") == call_id:
            return not str(message.get("content") or "").startswith("ERROR:")
    return False


def preference_pairs(sample: Mapping[str, Any], registry: ToolRegistry) -> Iterator[dict[str, Any]]:
    """Every pair a §5.1 sample yields: real mistakes first, then one derived pair per good call."""
    messages: list[dict[str, Any]] = sample["messages"]
    derived = 0
    for index, message in enumerate(messages):
        calls = _calls(message)
        if message.get("role") != "assistant" or not calls:
            continue
        if all(_ok(messages, c["id"]) for c in calls):
            if all(legal_before(registry, c["name"], c["arguments"]) for c in calls):
                yield _pair(sample, index, message, _derived(message, registry, derived), "derived")
                derived += 1
            continue
        fix = _correction(messages, index, registry)
        if fix is not None:
            # The fix's own words answer the error the model saw; in the state before the mistake only
            # its calls belong.
            chosen = {**fix, "content": None}
            yield _pair(sample, index, chosen, message, "transcript", kind=_kind(message, registry))
            error_at = _first_error(messages, index)
            if error_at is not None:
                rejected = {"role": "assistant", "content": IGNORED_ERROR_REPLY}
                yield _pair(sample, error_at + 1, fix, rejected, "derived", kind="ignored_error")


def _first_error(messages: list[dict[str, Any]], index: int) -> int | None:
    """The index of the last tool result answering the assistant message at `index`."""
    last = None
    for j in range(index + 1, len(messages)):
        if messages[j].get("role") != "tool":
            break
        last = j
    return last


def _correction(messages: list[dict[str, Any]], index: int, registry: ToolRegistry) -> dict[str, Any] | None:
    """The next assistant message whose calls are all legal and succeeded."""
    for message in messages[index + 1 :]:
        calls = _calls(message)
        if message.get("role") != "assistant" or not calls:
            continue
        if all(_ok(messages, c["id"]) and legal_before(registry, c["name"], c["arguments"]) for c in calls):
            return message
    return None


def _kind(message: Mapping[str, Any], registry: ToolRegistry) -> str:
    for call in _calls(message):
        if call["name"] not in registry:
            return "wrong_tool_name"
        if not legal_after(registry, call["name"], call["arguments"]):
            return "invented_parameters"
    return "failed_call"


def _derived(message: Mapping[str, Any], registry: ToolRegistry, turn: int) -> dict[str, Any]:
    """A plausible wrong version of a legal call: alternately another tool name or an invented parameter."""
    bad = copy.deepcopy(dict(message))
    call = bad["tool_calls"][0]
    if turn % 2 == 0:
        name = _WRONG_NAMES.get(call["name"], call["name"].replace("_", "") + "Tool")
        call["name"] = name if name not in registry else name + "_v2"
        bad["kind"] = "wrong_tool_name"
    else:
        call["arguments"] = {**call["arguments"], "options": {"force": True, "verbose": True}}
        bad["kind"] = "invented_parameters"
    return bad


def _pair(
    sample: Mapping[str, Any],
    index: int,
    chosen: Mapping[str, Any],
    rejected: Mapping[str, Any],
    source: str,
    *,
    kind: str | None = None,
) -> dict[str, Any]:
    rejected = dict(rejected)
    kind = kind or rejected.pop("kind", "failed_call")
    rejected.pop("kind", None)
    return {
        "id": f"{sample.get('id', '')}:{index}:{kind}",
        "messages": sample["messages"][:index],
        "chosen": {k: v for k, v in chosen.items() if k in ("role", "content", "tool_calls")},
        "rejected": {k: v for k, v in rejected.items() if k in ("role", "content", "tool_calls")},
        "kind": kind,
        "source": source,
        "tools": sample["tools"],
    }


def failure_samples(sample: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """§6.3: a sample for each failed call later corrected — the whole closed conversation, with the
    failed call, its error and the correcting call named in `correction`."""
    messages: list[dict[str, Any]] = sample["messages"]
    for index, message in enumerate(messages):
        for call in _calls(message):
            if _ok(messages, call["id"]):
                continue
            error = next(
                (
                    m["content"]
                    for m in messages
                    if m.get("role") == "tool" and m.get("tool_call_id") == call["id"]
                ),
                "",
            )
            fixed = _fixed(messages, index, call["name"])
            if fixed is None:
                continue
            tags = [t for t in sample.get("tags", []) if t not in ("single-tool", "multi-tool", "no-tool")]
            if "error-correction" not in tags:
                tags.insert(0, "error-correction")
            yield {
                **sample,
                "id": f"{sample.get('id', '')}:{call['id']}",
                "tags": tags,
                "correction": {"failed": call, "error": error, "corrected": fixed},
            }


def _fixed(messages: list[dict[str, Any]], index: int, name: str) -> dict[str, Any] | None:
    """The first later call that succeeded, preferring the same tool."""
    later = [c for m in messages[index + 1 :] for c in _calls(m) if _ok(messages, c["id"])]
    same = [c for c in later if c["name"] == name]
    found = same or later
    return found[0] if found else None
