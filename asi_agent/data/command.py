"""`asi-agent data export | validate | stats`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from asi_agent.config import load_config, user_config_dir
from asi_agent.data.gates import (
    MIX,
    PAIR_KINDS,
    check_sample,
    gates,
    mix,
    pair_kind,
    pair_sides,
    read_samples,
)
from asi_agent.data.pairs import MistakePool, failure_samples, mistake_pool, preference_pairs
from asi_agent.data.redact import Redactor
from asi_agent.data.samples import asi_sample, swift_messages, to_swift
from asi_agent.data.transcript import Conversation, load_records, read_conversation
from asi_agent.exceptions import UserError
from asi_agent.plugins import build_registry
from asi_agent.tools.registry import ToolRegistry

__all__ = ["data_command"]

_LEFT_OUT = (
    "not finished DONE",
    "DONE not verified",
    "a reply was cut off or repeating",
    "a call without a result",
    "no final answer",
    "no recorded request",
)
"""Why `export` skips a run, in the order it asks: the ending, its proof (the runtime verified it, or an
eval passed it), a reply the runtime had to ask again for (cut at the token limit, or repeating itself),
a call nothing answered, the closing answer, and the request the model was sent (a transcript from
before requests were recorded: its system text and tools are unknown)."""


def data_command(args: argparse.Namespace) -> int:
    """Dispatch the `data` subcommands."""
    handlers = {"export": export, "validate": validate, "stats": stats}
    return handlers[args.data_command](args)


def _registry(root: Path, locale: str | None = None) -> ToolRegistry:
    config = load_config(root)
    registry, _ = build_registry(
        root,
        user_config_dir(),
        trusted=config.trust.trusted,
        locale=locale or config.tool_locale,
        disabled_plugins=config.disabled_plugins,
        extensions=config.tools == "all",  # exported samples use the ASI tools unless told otherwise
    )
    return registry


def _sources(args: argparse.Namespace, root: Path) -> list[Path]:
    given = [Path(s) for s in args.sources] or [root / ".asi" / "sessions"]
    files: list[Path] = []
    for path in given:
        if path.is_dir():
            files += sorted(path.glob("*.jsonl"))
        elif path.is_file():
            files.append(path)
        else:
            raise UserError(f"{path}: no such file or folder")
    if not files:
        raise UserError(f"no sessions in {', '.join(map(str, given))}; run a task first or name the files")
    return files


def conversations(
    files: list[Path], registry: ToolRegistry
) -> Iterator[tuple[Conversation, list[str], bool]]:
    """Every conversation in session files and eval result files, with tags from where it came and
    whether an eval proved it (`_proven`)."""
    for path in files:
        if path.suffix == ".json":
            run = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(run, dict) or "tasks" not in run:
                raise UserError(f"{path}: not an eval result (written by `asi-agent eval --output`)")
            for task in run["tasks"]:
                verdict = "eval:passed" if task.get("passed") else "eval:failed"
                ident = f"{task['id']}#{task.get('repeat', 0)}"
                yield read_conversation(task["transcript"], registry, ident), [verdict], _proven(task)
        else:
            records = load_records(path)
            if records and not any(r.get("type") in ("meta", "message") for r in records):
                raise UserError(f"{path}: not a session transcript; name the session files or their folder")
            yield read_conversation(records, registry, path.stem), [], False


def _proven(task: dict[str, Any]) -> bool:
    """Whether an eval task result proves its run: its verifier accepted the work and the run ended as
    the task expects (`passed`), by a runner that knew expected endings (`expect`; before that, `passed`
    meant the verifier alone, which a guessed answer can satisfy)."""
    return task.get("passed") is True and "expect" in task


def export(args: argparse.Namespace) -> int:
    """Write samples (or pairs, or failure samples) as JSONL."""
    root = Path(os.path.expanduser(args.cwd)).resolve()
    registry = _registry(root, args.locale)
    redactor = Redactor(project_roots=[root]) if args.redact else None
    skipped: Counter[str] = Counter()
    # Pairs and §6.3 samples find the mistakes themselves: they read every reply as it was.
    mistakes = "keep" if args.dpo or args.failures else args.mistakes
    runs = []
    for conv, tags, proven in conversations(_sources(args, root), registry):
        reason = None if args.include_unproven else _left_out(conv, proven)
        sample = asi_sample(conv, registry, extra_tags=tags, mistakes=mistakes, narration=args.narration)
        runs.append((conv, sample, reason))
    # Rejections are drawn from the mistakes of every session read, proven or not: a wrong name is wrong.
    pool = mistake_pool([sample for _, sample, _ in runs], registry) if args.dpo else {}
    written = mistaken = 0
    out: TextIO = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
    try:
        for conv, sample, reason in runs:
            if reason is not None:
                skipped[reason] += 1
            items = _items(sample, args, registry, pool, proven=reason is None)
            mistaken += sum(call.mistake for call in conv.calls) if reason is None else 0
            for item in items:
                shown = redactor.sample(item) if redactor else item
                out.write(json.dumps(shown, ensure_ascii=False) + "\n")
                written += 1
    finally:
        if args.output:
            out.close()
    note = _skip_note(skipped)
    if mistaken and not (args.dpo or args.failures):
        note += f"; {mistaken} mistaken call(s) {_DONE_WITH[args.mistakes]}"
    print(f"asi-agent: {written} {'pair' if args.dpo else 'sample'}(s) written{note}", file=sys.stderr)
    return 0


_DONE_WITH = {"drop": "dropped", "mask": "masked (loss: false)", "keep": "kept as targets"}


def _left_out(conv: Conversation, proven: bool) -> str | None:
    """Why a run is no training sample (one of `_LEFT_OUT`), or None when it is one.

    A run is proven when it ended DONE and the runtime verified it, or — from an eval result — when it
    ended DONE and the task `passed` (`proven`): a plain answer no call backs, proven by its verifier.
    A DONE nothing proves (no call at all, an invented answer) teaches the model to claim success, so it
    is left out like a failed run; so is a run with a reply cut at the token limit or for repeating
    itself (the cut reply and the runtime's request to continue would be in the sample), and a call with
    no result. A refusal (STOP) is left out even when its eval passed: the §5.2 kinds
    of samples have no refusal kind to export it as.
    """
    failed = (
        conv.status != "DONE",
        not (conv.verified or proven),
        conv.cut_off,
        bool(conv.unanswered),
        not conv.closed,
        conv.system is None or conv.tools is None,
    )
    return next((reason for reason, fails in zip(_LEFT_OUT, failed, strict=True) if fails), None)


def _skip_note(skipped: Counter[str]) -> str:
    """`; skipped 6: not finished DONE, 10: DONE not verified (...)`, reasons in `_LEFT_OUT` order."""
    if not skipped:
        return ""
    counts = ", ".join(f"{skipped[reason]}: {reason}" for reason in _LEFT_OUT if skipped[reason])
    return f"; skipped {counts} (--include-unproven keeps them)"


def _items(
    sample: dict[str, Any],
    args: argparse.Namespace,
    registry: ToolRegistry,
    pool: MistakePool,
    *,
    proven: bool,
) -> Iterator[dict[str, Any]]:
    """What one run gives: its sample, its §6.3 samples or its pairs. An unproven run gives nothing but
    the pairs against the calls the policy refused as harmful (the refusal is their proof)."""
    swift = args.format == "ms-swift"
    if args.dpo:
        for pair in preference_pairs(sample, registry, pool):
            if proven or pair["kind"] == "unsafe_call":
                yield _swift_pair(pair) if swift else pair
        return
    if not proven:
        return
    chosen = failure_samples(sample) if args.failures else iter([sample])
    for item in chosen:
        yield to_swift(item) if swift else item


def _swift_pair(pair: dict[str, Any]) -> dict[str, Any]:
    """A pair in ms-swift's RLHF form: `messages` ends with chosen, `rejected_messages` with rejected."""
    tools = json.dumps(pair["tools"], ensure_ascii=False)
    return {
        "tools": tools,
        "messages": swift_messages([*pair["messages"], pair["chosen"]]),
        "rejected_messages": swift_messages([*pair["messages"], pair["rejected"]]),
        "rejected_tools": tools,
    }


def validate(args: argparse.Namespace) -> int:
    """Report each sample's problems and the gates; exit 1 when a gate fails."""
    registry = _registry(Path(os.path.expanduser(args.cwd)).resolve())
    checks = [check_sample(line, sample, registry) for line, sample in read_samples(Path(args.file))]
    if not checks:
        raise UserError(f"{args.file}: no samples")
    for check in checks:
        if check.problems:
            print(f"line {check.line} ({check.id}): " + "; ".join(check.problems))
        elif not args.quiet:
            print(f"line {check.line} ({check.id}): ok")
    print()
    failed = False
    for gate in gates(checks):
        value = "n/a" if gate.value is None else f"{100 * gate.value:.1f}%"
        mark = "PASS" if gate.passed else "FAIL"
        failed |= not gate.passed
        print(f"{mark}  {gate.name}: {value} (needs ≥ {100 * gate.threshold:g}%)")
    print(f"{len(checks)} sample(s); {'a gate failed' if failed else 'all gates passed'}")
    return 1 if failed else 0


def stats(args: argparse.Namespace) -> int:
    """The §5.2 mix of a file against the suggested proportions; for preference pairs, what their
    rejected sides do wrong and where they come from."""
    samples = [sample for _, sample in read_samples(Path(args.file))]
    if not samples:
        raise UserError(f"{args.file}: no samples")
    pairs = [sample for sample in samples if pair_sides(sample) is not None]
    if pairs:
        _pair_stats(pairs, _registry(Path(os.path.expanduser(args.cwd)).resolve()))
    rest = [sample for sample in samples if pair_sides(sample) is None]
    if not rest:
        return 0
    if pairs:
        print()
    print(f"{'kind':<18} {'samples':>8} {'share':>7} {'suggested':>10} {'gap':>8}")
    for kind, (count, share) in mix(rest).items():
        gap = 100 * (share - MIX[kind])
        print(f"{kind:<18} {count:>8} {100 * share:>6.1f}% {100 * MIX[kind]:>9.0f}% {gap:>+7.1f}pt")
    print(f"{'total':<18} {len(rest):>8}")
    return 0


def _pair_stats(pairs: list[dict[str, Any]], registry: ToolRegistry) -> None:
    """The table of pair kinds, then the sources (a real mistake of a session, or derived)."""
    kinds = Counter(pair_kind(pair, registry) for pair in pairs)
    print(f"{'rejected side':<20} {'pairs':>6} {'share':>7}")
    for kind in PAIR_KINDS:
        print(f"{kind:<20} {kinds[kind]:>6} {100 * kinds[kind] / len(pairs):>6.1f}%")
    print(f"{'total pairs':<20} {len(pairs):>6}")
    sources = Counter(str(pair["source"]) for pair in pairs if "source" in pair)
    if sources:  # ms-swift pairs carry no source
        print("source: " + ", ".join(f"{count} {name}" for name, count in sorted(sources.items())))
