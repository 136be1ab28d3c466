"""`asi-agent data validate` (the spec §5.3 gates) and `asi-agent data stats` (the §5.2 mix).

Both read §5.1 JSONL and ms-swift JSONL (recognised per line: ms-swift has `tools` as a string), samples
and preference pairs alike (a pair has `chosen`/`rejected`, or in ms-swift `rejected_messages`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asi_agent.data.checks import narrated_call, secrets_in, status_problem
from asi_agent.data.samples import CATEGORIES, high_risk
from asi_agent.data.transcript import legal_after, legal_before, result_failed
from asi_agent.exceptions import UserError
from asi_agent.tools.registry import ToolRegistry

__all__ = [
    "MIX",
    "PAIR_KINDS",
    "Gate",
    "SampleCheck",
    "check_sample",
    "gates",
    "mix",
    "pair_kind",
    "pair_sides",
    "read_samples",
    "sample_category",
]

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
    trained: bool = True
    """False when its turn's loss is masked (`"loss": false`): context, not a target."""
    problem: str = ""
    """Why the arguments could not be read (unparsable JSON), when they could not."""


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
    secret_free: bool = True
    no_narration: bool = True
    status_ok: bool = True
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


def _calls(messages: Sequence[Mapping[str, Any]], swift: bool) -> list[Call]:
    """The calls of a sample's messages in either format, with their results' error flag, permission
    context and whether they are targets."""
    if swift:
        return _swift_calls(messages)
    calls: list[Call] = []
    results = {m.get("tool_call_id"): m for m in messages if m.get("role") == "tool"}
    for message in messages:
        trained = message.get("loss") is not False
        for call in message.get("tool_calls") or ():
            result = results.get(call.get("id"), {})
            args, problem = _arguments(call.get("arguments"))
            failed = result_failed(result.get("content"))
            permission = "permission" in result
            calls.append(Call(str(call.get("name")), args, not problem, failed, permission, trained, problem))
    return calls


def _arguments(value: Any) -> tuple[Any, str]:
    """Arguments as an object, or why their JSON string does not parse."""
    if not isinstance(value, str):
        return value, ""
    try:
        return json.loads(value), ""
    except json.JSONDecodeError as exc:
        return value, f"{exc.msg} at character {exc.pos}"


def _swift_calls(messages: Sequence[Mapping[str, Any]]) -> list[Call]:
    pending: list[tuple[str, Any, str, bool]] = []
    calls: list[Call] = []
    for message in messages:
        if message.get("role") == "tool_call":
            trained = message.get("loss") is not False
            body, problem = _arguments(message.get("content") or "")
            if not problem and not isinstance(body, dict):
                problem = "the tool_call content is not a JSON object"
            if problem:
                pending.append(("", None, f"tool_call content: {problem}", trained))
                continue
            args, problem = _arguments(body.get("arguments"))
            pending.append((str(body.get("name")), args, problem, trained))
        elif message.get("role") in ("tool_response", "tool") and pending:
            name, args, problem, trained = pending.pop(0)
            failed = result_failed(message.get("content"))
            permission = "permission" in message
            calls.append(Call(name, args, not problem, failed, permission, trained, problem))
    calls += [
        Call(name, args, not problem, trained=trained, problem=problem)
        for name, args, problem, trained in pending
    ]
    return calls


def sample_category(sample: Mapping[str, Any]) -> str:
    """The §5.2 kind of a sample: its tag when it has one, else judged from its calls."""
    for tag in sample.get("tags") or ():
        if tag in CATEGORIES:
            return str(tag)
    calls = _calls(sample["messages"], isinstance(sample.get("tools"), str))
    if not calls:
        return "no-tool"
    if any(c.failed for c in calls):
        return "error-correction"
    return "single-tool" if len({c.name for c in calls}) == 1 else "multi-tool"


def pair_sides(sample: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]] | None:
    """The chosen and the rejected turn of a preference pair (either format), or None for a sample."""
    if "chosen" in sample and "rejected" in sample:
        return [dict(sample["chosen"])], [dict(sample["rejected"])]
    if "rejected_messages" in sample:
        chosen, rejected = list(sample["messages"]), list(sample["rejected_messages"])
        shared = 0
        while shared < min(len(chosen), len(rejected)) and chosen[shared] == rejected[shared]:
            shared += 1
        return chosen[shared:], rejected[shared:]
    return None


def check_sample(line: int, sample: Mapping[str, Any], registry: ToolRegistry) -> SampleCheck:
    """Run every per-sample check of §5.3 on one sample; a preference pair is judged on its chosen and
    rejected turns (its shared state is context: a real mistake there is why the pair exists)."""
    check = SampleCheck(line, str(sample.get("id") or f"line {line}"))
    swift = isinstance(sample.get("tools"), str)
    sides = pair_sides(sample)
    turns = sides[0] if sides is not None else sample["messages"]
    calls = _calls(turns, swift)
    _check_calls(check, [c for c in calls if c.trained], registry, risky=sides is None)
    _check_text(check, sample, turns, registry)
    if sides is not None:
        check.problems += _pair_problems(*sides, swift)
        return check
    last = sample["messages"][-1] if sample["messages"] else {}
    if last.get("role") != "assistant" or last.get("tool_calls") or not last.get("content"):
        check.closed = False
        check.problems.append("not closed: the last message is not a final assistant answer")
    wrote = (sample.get("quality") or {}).get("agent_status")
    if problem := status_problem(sample["messages"], wrote if isinstance(wrote, str) else None):
        check.status_ok = False
        check.problems.append(problem)
    return check


def _check_calls(check: SampleCheck, calls: Sequence[Call], registry: ToolRegistry, *, risky: bool) -> None:
    """Names from the registry and legal arguments for every call that is a target; permission
    context for a high-risk call that ran (`risky`: not for a pair's chosen call, which has not run)."""
    check.calls = len(calls)
    for call in calls:
        if call.name in registry:
            check.names_ok += 1
        elif call.parsed:
            check.problems.append(f"tool name {call.name!r} is not in the registry")
        if not call.parsed:
            check.args_ok = False
            check.problems.append(f"{call.name or 'a call'}: arguments are not valid JSON: {call.problem}")
        elif not call.failed and not legal_before(registry, call.name, call.arguments):
            # A failed call in an error-correction sample is the lesson; only calls that ran must be legal.
            check.args_ok = False
            check.problems.append(f"{call.name}: arguments do not validate against its schema")
        if risky and high_risk(registry, call.name):
            check.has_high_risk = True
            if not call.permission:
                check.permission_ok = False
                check.problems.append(f"{call.name}: high-risk call without a permission context")


def _check_text(
    check: SampleCheck, sample: Mapping[str, Any], turns: Sequence[Mapping[str, Any]], registry: ToolRegistry
) -> None:
    """No secret anywhere in the sample; no narrated call in an assistant turn that is a target."""
    for where, secret in secrets_in(dict(sample)):
        check.secret_free = False
        check.problems.append(f"a secret in {where} ({secret}): export with --redact")
    names = registry.names()
    for message in turns:
        if message.get("role") != "assistant" or message.get("loss") is False:
            continue
        if narrated := narrated_call(str(message.get("content") or ""), names):
            check.no_narration = False
            check.problems.append(
                f"an assistant turn narrates a call instead of making it (§4.4): {narrated!r}"
            )


def _pair_problems(
    chosen: Sequence[Mapping[str, Any]], rejected: Sequence[Mapping[str, Any]], swift: bool
) -> list[str]:
    if not chosen or chosen == rejected:
        return ["the pair's chosen and rejected sides are the same"]
    calls = _calls(chosen, swift)
    refused = _calls(rejected, swift)
    if not calls and not refused:
        return ["neither side of the pair makes a tool call"]
    return []


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def gates(checks: Sequence[SampleCheck]) -> list[Gate]:
    """The four §5.3 gates over all samples, and the ones that keep secrets, narrated calls (§4.4) and a
    missing `AGENT_STATUS` line (§4.5) out of training data."""
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
        Gate("samples without secrets", _share(sum(c.secret_free for c in checks), len(checks)), 1.0),
        Gate(
            "samples without narrated calls (§4.4)",
            _share(sum(c.no_narration for c in checks), len(checks)),
            1.0,
        ),
        Gate(
            "samples ending with the run's AGENT_STATUS line (§4.5)",
            _share(sum(c.status_ok for c in checks), len(checks)),
            1.0,
        ),
    ]


PAIR_KINDS = (
    "wrong_tool_name",
    "invented_parameters",
    "wrong_path",
    "failed_call",
    "ignored_error",
    "unsafe_call",
)
"""What the rejected side of a preference pair does wrong (§6.2), in the order `stats` lists them."""


def pair_kind(sample: Mapping[str, Any], registry: ToolRegistry) -> str | None:
    """The kind of a preference pair (its `kind`, else judged from its sides), None for a sample."""
    sides = pair_sides(sample)
    if sides is None:
        return None
    if sample.get("kind") in PAIR_KINDS:
        return str(sample["kind"])
    swift = isinstance(sample.get("tools"), str)
    chosen, rejected = _calls(sides[0], swift), _calls(sides[1], swift)
    judged = (
        ("ignored_error", not rejected),
        ("unsafe_call", not chosen),
        ("wrong_tool_name", any(call.name not in registry for call in rejected)),
        ("invented_parameters", any(not legal_after(registry, c.name, c.arguments) for c in rejected)),
    )
    return next((kind for kind, found in judged if found), "failed_call")


def mix(samples: Sequence[Mapping[str, Any]]) -> dict[str, tuple[int, float]]:
    """Count and share of each §5.2 kind."""
    counts = dict.fromkeys(CATEGORIES, 0)
    for sample in samples:
        counts[sample_category(sample)] += 1
    total = max(1, len(samples))
    return {kind: (n, n / total) for kind, n in counts.items()}
