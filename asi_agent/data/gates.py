"""`asi-agent data validate` (the spec §5.3 gates) and `asi-agent data stats` (the §5.2 mix).

Both read §5.1 JSONL and ms-swift JSONL (recognised per line: ms-swift has `tools` as a string).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asi_agent.data.samples import CATEGORIES, high_risk
from asi_agent.data.transcript import legal_before
from asi_agent.exceptions import UserError
from asi_agent.tools.registry import ToolRegistry

__all__ = ["MIX", "Gate", "SampleCheck", "check_sample", "gates", "mix", "read_samples", "sample_category"]

MIX = {"single-tool": 0.35, "multi-tool": 0.35, "error-correction": 0.15, "no-tool": 0.15}
"""The spec's suggested proportions (§5.2)."""


@dataclass(frozen=True, slots=True)
class Call:
    """A call as a sample carries it, with whether its result was an error and its permission context."""

    name: str
    arguments: Any
    parsed: bool
    failed: bool = False
    permission: bool = False


@dataclass(slots=True)
class SampleCheck:
    """What the gates found in one sample."""

    line: int
    id: str
    calls: int = 0
    names_ok: int = 0
    args_ok: bool = True
    closed: bool = True
    permission_ok: bool = True
    has_high_risk: bool = False
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Gate:
    """One §5.3 gate: measured value against its threshold."""

    name: str
    value: float | None
    threshold: float

    @property
    def passed(self) -> bool:
        """No sample to measure passes (nothing violates the gate)."""
        return self.value is None or self.value >= self.threshold


def read_samples(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every sample of a JSONL file with its line number; a line that is not a JSON object is a UserError."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror}") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserError(f"{path}:{number}: not JSON: {exc.msg}") from None
        if not isinstance(data, dict) or not isinstance(data.get("messages"), list):
            raise UserError(f"{path}:{number}: a sample is a JSON object with a 'messages' list")
        yield number, data


def _calls(sample: Mapping[str, Any]) -> list[Call]:
    """The calls of a sample in either format, with their results' error flag and permission context."""
    if isinstance(sample.get("tools"), str):
        return _swift_calls(sample["messages"])
    calls: list[Call] = []
    results = {m.get("tool_call_id"): m for m in sample["messages"] if m.get("role") == "tool"}
    for message in sample["messages"]:
        for call in message.get("tool_calls") or ():
            result = results.get(call.get("id"), {})
            args = call.get("arguments")
            if isinstance(args, str):
                try:
                    args = json.loads(args)
                except json.JSONDecodeError:
                    calls.append(Call(str(call.get("name")), args, parsed=False))
                    continue
            failed = str(result.get("content") or "").startswith("ERROR:")
            calls.append(Call(str(call.get("name")), args, True, failed, "permission" in result))
    return calls


def _swift_calls(messages: Sequence[Mapping[str, Any]]) -> list[Call]:
    pending: list[tuple[str, Any, bool]] = []
    calls: list[Call] = []
    for message in messages:
        if message.get("role") == "tool_call":
            try:
                body = json.loads(message.get("content") or "")
                pending.append((str(body.get("name")), body.get("arguments"), isinstance(body, dict)))
            except (json.JSONDecodeError, AttributeError):
                pending.append(("", None, False))
        elif message.get("role") in ("tool_response", "tool") and pending:
            name, args, parsed = pending.pop(0)
            try:
                body = json.loads(message.get("content") or "")
            except json.JSONDecodeError:
                body = {}
            body = body if isinstance(body, dict) else {}
            failed = str(body.get("content") or "").startswith("ERROR:")
            calls.append(Call(name, args, parsed, failed, "permission" in body))
    calls += [Call(name, args, parsed) for name, args, parsed in pending]
    return calls


def sample_category(sample: Mapping[str, Any]) -> str:
    """The §5.2 kind of a sample: its tag when it has one, else judged from its calls."""
    for tag in sample.get("tags") or ():
        if tag in CATEGORIES:
            return str(tag)
    calls = _calls(sample)
    if not calls:
        return "no-tool"
    if any(c.failed for c in calls):
        return "error-correction"
    return "single-tool" if len({c.name for c in calls}) == 1 else "multi-tool"


def _pair_as_sample(sample: Mapping[str, Any]) -> dict[str, Any] | None:
    """A preference pair seen as the sample of its chosen side, or None for an ordinary sample."""
    closing = {"role": "assistant", "content": "(pair)"}  # a pair stops at its choice: nothing to close
    if "chosen" in sample and "rejected" in sample:
        return {"id": sample.get("id"), "messages": [*sample["messages"], sample["chosen"], closing]}
    if "rejected_messages" in sample:
        return {
            "id": sample.get("id"),
            "tools": sample.get("tools"),
            "messages": [*sample["messages"], closing],
        }
    return None


def _pair_problems(sample: Mapping[str, Any]) -> list[str]:
    if "chosen" in sample:
        same = sample["chosen"] == sample["rejected"]
        calls = bool(sample["chosen"].get("tool_calls"))
    else:
        same = sample["messages"] == sample["rejected_messages"]
        calls = any(m.get("role") == "tool_call" for m in sample["messages"][-1:])
    problems = ["the pair's chosen and rejected sides are the same"] if same else []
    return problems + ([] if calls else ["the chosen side makes no tool call"])


def check_sample(line: int, sample: Mapping[str, Any], registry: ToolRegistry) -> SampleCheck:
    """Run every per-sample check of §5.3 on one sample (for a preference pair: on its chosen side)."""
    pair = _pair_as_sample(sample)
    if pair is not None:
        check = check_sample(line, pair, registry)
        # The chosen call has not run yet: no decision, so no permission context to ask of it.
        check.has_high_risk, check.permission_ok = False, True
        check.problems = [p for p in check.problems if "permission context" not in p]
        check.problems += _pair_problems(sample)
        return check
    check = SampleCheck(line, str(sample.get("id") or f"line {line}"))
    calls = _calls(sample)
    check.calls = len(calls)
    for call in calls:
        if call.name in registry:
            check.names_ok += 1
        else:
            check.problems.append(f"tool name {call.name!r} is not in the registry")
        # A failed call in an error-correction sample is the lesson; only calls that ran must be legal.
        if not call.parsed or (not call.failed and not legal_before(registry, call.name, call.arguments)):
            check.args_ok = False
            check.problems.append(f"{call.name}: arguments do not validate against its schema")
        if high_risk(registry, call.name):
            check.has_high_risk = True
            if not call.permission:
                check.permission_ok = False
                check.problems.append(f"{call.name}: high-risk call without a permission context")
    last = sample["messages"][-1] if sample["messages"] else {}
    if last.get("role") != "assistant" or last.get("tool_calls") or not last.get("content"):
        check.closed = False
        check.problems.append("not closed: the last message is not a final assistant answer")
    return check


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def gates(checks: Sequence[SampleCheck]) -> list[Gate]:
    """The four §5.3 gates over all samples."""
    risky = [c for c in checks if c.has_high_risk]
    return [
        Gate(
            "tool names from the registry",
            _share(sum(c.names_ok for c in checks), sum(c.calls for c in checks)),
            0.99,
        ),
        Gate(
            "samples whose arguments parse and validate",
            _share(sum(c.args_ok for c in checks), len(checks)),
            0.98,
        ),
        Gate("samples closed by a final answer", _share(sum(c.closed for c in checks), len(checks)), 1.0),
        Gate(
            "high-risk samples with permission context",
            _share(sum(c.permission_ok for c in risky), len(risky)),
            1.0,
        ),
    ]


def mix(samples: Sequence[Mapping[str, Any]]) -> dict[str, tuple[int, float]]:
    """Count and share of each §5.2 kind."""
    counts = dict.fromkeys(CATEGORIES, 0)
    for sample in samples:
        counts[sample_category(sample)] += 1
    total = max(1, len(samples))
    return {kind: (n, n / total) for kind, n in counts.items()}
