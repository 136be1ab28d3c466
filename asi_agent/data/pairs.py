"""Preference pairs (spec §6.2) and error-correction samples (§6.3) from §5.1 samples.

A pair shares its `messages` (the state), then has a `chosen` and a `rejected` assistant turn. Chosen is
a legal call the run really made, or, against a call the policy refused as harmful, a reply that does
not run it and asks instead (`unsafe_call`). Rejected is, by preference, what the model really did at
that point (`source: transcript`); else a mistake sessions really made with the same tool
(`source: mistakes`: a wrong tool name or an invented parameter from any session, a wrong path or a
failed call from the same one); only when no session made one, an edit of the legal call
(`source: derived`). After a tool error, the run's own closing answer put right after the error is the
answer that ignores it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from asi_agent.data.transcript import harmful_refusal, legal_after, legal_before, result_failed
from asi_agent.tools.registry import ToolRegistry

__all__ = ["IGNORED_ERROR_REPLY", "MistakePool", "failure_samples", "mistake_pool", "preference_pairs"]

IGNORED_ERROR_REPLY = "The change has been applied successfully and everything works.\nAGENT_STATUS: DONE"
"""The rejected answer of an `ignored_error` pair when the run has no closing answer of its own."""

MistakePool = dict[str, list[dict[str, Any]]]
"""Real mistakes by the tool the model meant: `{"kind", "call": {"name", "arguments"}, "sample"}`."""

_PATH_ERRORS = ("no such file", "does not exist", "not found", "is outside the project", "is a directory")
"""How a tool's error says the path was wrong."""

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
            return not result_failed(message.get("content"))
    return False


def _result(messages: list[dict[str, Any]], call_id: str) -> Mapping[str, Any]:
    return next((m for m in messages if m.get("role") == "tool" and m.get("tool_call_id") == call_id), {})


def _mistake_kind(call: Mapping[str, Any], error: str, registry: ToolRegistry) -> str:
    if call["name"] not in registry:
        return "wrong_tool_name"
    if not legal_after(registry, call["name"], call["arguments"]):
        return "invented_parameters"
    return "wrong_path" if any(mark in error.lower() for mark in _PATH_ERRORS) else "failed_call"


def mistake_pool(samples: Iterable[Mapping[str, Any]], registry: ToolRegistry) -> MistakePool:
    """Every mistaken call of these samples (kept with `--mistakes keep`) under the tool the model meant:
    its own name when registered, else the tool of the call that succeeded next. Calls the policy refused
    as harmful are no tool mistake and stay out."""
    pool: MistakePool = {}
    for sample in samples:
        messages: list[dict[str, Any]] = sample["messages"]
        for index, message in enumerate(messages):
            for call in _calls(message):
                result = _result(messages, call["id"])
                if not result or _ok(messages, call["id"]) or harmful_refusal(result.get("permission")):
                    continue
                meant = call["name"] if call["name"] in registry else _next_good(messages, index)
                if meant is None:
                    continue
                kind = _mistake_kind(call, str(result.get("content") or ""), registry)
                entry = {"name": call["name"], "arguments": call["arguments"]}
                pool.setdefault(meant, []).append({"kind": kind, "call": entry, "sample": sample.get("id")})
    return pool


def _next_good(messages: list[dict[str, Any]], index: int) -> str | None:
    later = [c["name"] for m in messages[index + 1 :] for c in _calls(m) if _ok(messages, c["id"])]
    return later[0] if later else None


def preference_pairs(
    sample: Mapping[str, Any], registry: ToolRegistry, pool: MistakePool | None = None
) -> Iterator[dict[str, Any]]:
    """Every pair a §5.1 sample yields: refused harmful calls, real mistakes, then one pair per good call
    (its rejection from `pool` when sessions made a mistake with that tool)."""
    messages: list[dict[str, Any]] = sample["messages"]
    replayed = 0
    for index, message in enumerate(messages):
        calls = _calls(message)
        if message.get("role") != "assistant" or not calls:
            continue
        refusal = next((_result(messages, c["id"]) for c in calls if _refused(messages, c["id"])), None)
        if refusal is not None:
            yield _pair(sample, index, _ask(calls, refusal), message, "transcript", kind="unsafe_call")
            continue
        if all(_ok(messages, c["id"]) for c in calls):
            if all(legal_before(registry, c["name"], c["arguments"]) for c in calls):
                rejected, source = _rejection(message, registry, pool or {}, sample.get("id"), replayed)
                yield _pair(sample, index, message, rejected, source)
                replayed += 1
            continue
        fix = _correction(messages, index, registry)
        if fix is not None:
            # The fix's own words answer the error the model saw; in the state before the mistake only
            # its calls belong.
            chosen = {**fix, "content": None}
            kind = _kind(messages, message, registry)
            yield _pair(sample, index, chosen, message, "transcript", kind=kind)
            error_at = _first_error(messages, index)
            if error_at is not None:
                rejected = {"role": "assistant", "content": _closing(messages)}
                yield _pair(sample, error_at + 1, fix, rejected, "transcript", kind="ignored_error")


def _refused(messages: list[dict[str, Any]], call_id: str) -> bool:
    return harmful_refusal(_result(messages, call_id).get("permission"))


def _ask(calls: list[dict[str, Any]], refusal: Mapping[str, Any]) -> dict[str, Any]:
    """The reply that does not run a harmful call: what it would have done, why not, a question."""
    call = calls[0]
    arguments = call.get("arguments") or {}
    what = arguments.get("command") or arguments.get("path") or arguments.get("file_path")
    shown = f"{call['name']} ({what})" if what else call["name"]
    reason = str((refusal.get("permission") or {}).get("reason") or "it could do harm that cannot be undone")
    return {
        "role": "assistant",
        "content": f"I have not run {shown}: {reason}. It could do damage that cannot be undone. Do you "
        "want it done another way, or should I leave it?\nAGENT_STATUS: STOP",
    }


def _closing(messages: list[dict[str, Any]]) -> str:
    """The run's closing answer (what it claimed at the end), else the stock one."""
    last = messages[-1] if messages else {}
    if last.get("role") == "assistant" and not last.get("tool_calls") and last.get("content"):
        return str(last["content"])
    return IGNORED_ERROR_REPLY


def _rejection(
    message: Mapping[str, Any], registry: ToolRegistry, pool: MistakePool, sample: object, turn: int
) -> tuple[dict[str, Any], str]:
    """A wrong version of a legal call: a real mistake made with that tool when there is one (a path or
    a failure only from the same session), else a derived one."""
    call = message["tool_calls"][0]
    options = [
        entry
        for entry in pool.get(call["name"], ())
        if (entry["kind"] in ("wrong_tool_name", "invented_parameters") or entry["sample"] == sample)
        and entry["call"] != {"name": call["name"], "arguments": call["arguments"]}
    ]
    if not options:
        return _derived(message, registry, turn), "derived"
    entry = options[turn % len(options)]
    bad = copy.deepcopy(dict(message))
    bad["tool_calls"] = [{"id": call["id"], **copy.deepcopy(entry["call"])}]
    bad["kind"] = entry["kind"]
    return bad, "mistakes"


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


def _kind(messages: list[dict[str, Any]], message: Mapping[str, Any], registry: ToolRegistry) -> str:
    """What the first failed call of a reply did wrong."""
    for call in _calls(message):
        if not _ok(messages, call["id"]):
            return _mistake_kind(call, str(_result(messages, call["id"]).get("content") or ""), registry)
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
    failed call, its error and the correcting call named in `correction`; only the correcting turn is a
    target, every other assistant turn has `"loss": false`."""
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
                "messages": _train_only(messages, fixed["id"]),
                "tags": tags,
                "correction": {"failed": call, "error": error, "corrected": fixed},
            }


def _train_only(messages: list[dict[str, Any]], call_id: str) -> list[dict[str, Any]]:
    """The messages with every assistant turn but the one making call `call_id` masked (`"loss": false`):
    the mistake and the rest are context, the correction is the target (§6.3)."""
    out = []
    for message in messages:
        if message.get("role") != "assistant":
            out.append(message)
            continue
        kept = {k: v for k, v in message.items() if k != "loss"}
        out.append(kept if any(c["id"] == call_id for c in _calls(message)) else {**kept, "loss": False})
    return out


def _fixed(messages: list[dict[str, Any]], index: int, name: str) -> dict[str, Any] | None:
    """The first later call that succeeded, preferring the same tool."""
    later = [c for m in messages[index + 1 :] for c in _calls(m) if _ok(messages, c["id"])]
    same = [c for c in later if c["name"] == name]
    found = same or later
    return found[0] if found else None
