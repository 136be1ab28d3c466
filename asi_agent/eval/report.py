"""What `asi-agent eval` shows: a progress bar while it runs, a table at the end, and comparisons."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from asi_agent.eval.metrics import METRICS
from asi_agent.exceptions import UserError

__all__ = ["Progress", "compare_table", "load_run", "results_table", "task_difference"]

_BAR = 28
_RATES = {key for key, _ in METRICS if key.endswith(("_rate", "_repair")) or key == "tasks_with_violations"}


class Progress:
    """A one-line progress bar on a terminal; silent when the stream is not one."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total, self.stream = total, stream
        self.done = self.passed = 0
        self.enabled = stream.isatty()
        self.results: list[dict[str, Any]] = []
        """Every result so far, in the order the tasks finished."""

    def advance(self, result: dict[str, Any]) -> None:
        """One more task finished."""
        self.results.append(result)
        self.done += 1
        self.passed += bool(result.get("passed"))
        if not self.enabled:
            return
        filled = _BAR * self.done // max(1, self.total)
        bar = "█" * filled + "·" * (_BAR - filled)
        line = f"\r{bar} {self.done}/{self.total}  passed {self.passed}  {str(result.get('id', ''))[:30]:<30}"
        self.stream.write(line)
        if self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def _value(key: str, value: object) -> str:
    if value is None:
        return "-"
    if key in _RATES and isinstance(value, int | float):
        return f"{100 * value:.1f}%"
    return f"{value:g}" if isinstance(value, float) else str(value)


def results_table(run: Mapping[str, Any]) -> str:
    """One row per task run, then the metrics."""
    rows = [("task", "ok", "status", "expect", "calls", "legal", "viol.", "turns", "tokens", "sec")]
    for r in run["tasks"]:
        name = r["id"] + (f" #{r['repeat'] + 1}" if run.get("repeat", 1) > 1 else "")
        rows.append(
            (
                name,
                "PASS" if r["passed"] else "fail",
                _status(r),
                str(r.get("expect", "verified")),
                f"{r['calls_ok']}/{r['calls']}",
                f"{r['legal_before']}/{r['legal_after']}",
                str(r["violations"]),
                str(r["turns"]),
                str(r["prompt_tokens"] + r["completion_tokens"]),
                f"{r['seconds']:.1f}",
            )
        )
    lines = _columns(rows)
    metrics = run["metrics"]
    lines.append("")
    lines.append(
        f"model: {run.get('model', '?')}   runs: {metrics['runs']}   passed: {metrics['passed']}"
        f"   unverified DONE: {metrics['unverified_done']}"
    )
    width = max(len(label) for _, label in METRICS)
    lines += [f"  {label:<{width}}  {_value(key, metrics.get(key))}" for key, label in METRICS]
    return "\n".join(lines)


def _status(result: Mapping[str, Any]) -> str:
    """The ending as the table shows it: a DONE the runtime did not verify says so."""
    status = str(result["status"])
    return f"{status} (unverified)" if status == "DONE" and not result["verified"] else status


def _columns(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]


def load_run(path: Path) -> dict[str, Any]:
    """An eval result file written with `--output`."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}: not JSON: {exc}") from None
    if not isinstance(data, dict) or "metrics" not in data or "tasks" not in data:
        raise UserError(f"{path}: not an eval result (written by `asi-agent eval --output`)")
    return data


def task_difference(a: Mapping[str, Any], b: Mapping[str, Any], names: tuple[str, str]) -> str | None:
    """How the task sets of two runs differ (ids, and how often each ran), None when they are the same."""
    count_a, count_b = Counter(r["id"] for r in a["tasks"]), Counter(r["id"] for r in b["tasks"])
    if count_a == count_b:
        return None
    only_a, only_b = sorted(set(count_a) - set(count_b)), sorted(set(count_b) - set(count_a))
    parts = [
        f"{len(ids)} task(s) only in {name} ({_some(ids)})"
        for ids, name in ((only_a, names[0]), (only_b, names[1]))
        if ids
    ]
    repeats = sorted(t for t in set(count_a) & set(count_b) if count_a[t] != count_b[t])
    if repeats:
        parts.append(f"{len(repeats)} task(s) run a different number of times ({_some(repeats)})")
    return f"{names[0]} and {names[1]} ran different tasks: " + "; ".join(parts)


def _some(ids: Sequence[str]) -> str:
    return ", ".join(ids[:5]) + (f", … {len(ids) - 5} more" if len(ids) > 5 else "")


def _delta(key: str, a: object, b: object) -> str:
    if not isinstance(a, int | float) or not isinstance(b, int | float):
        return ""
    diff = b - a
    if key in _RATES:
        return f"{100 * diff:+.1f} pt"
    return f"{diff:+.3g}"


def compare_table(a: Mapping[str, Any], b: Mapping[str, Any], names: tuple[str, str]) -> str:
    """Metric by metric, then every task whose verdict or calls differ."""
    rows = [("metric", names[0], names[1], "change")]
    for key, label in METRICS:
        va, vb = a["metrics"].get(key), b["metrics"].get(key)
        rows.append((label, _value(key, va), _value(key, vb), _delta(key, va, vb)))
    lines = _columns(rows)
    per_a = _by_task(a)
    per_b = _by_task(b)
    task_rows = [("task", names[0], names[1], "calls ok", "violations")]
    for task in sorted(set(per_a) | set(per_b)):
        ra, rb = per_a.get(task), per_b.get(task)
        if ra == rb:
            continue
        task_rows.append(
            (
                task,
                _verdict(ra),
                _verdict(rb),
                f"{_get(ra, 'calls_ok')} → {_get(rb, 'calls_ok')}",
                f"{_get(ra, 'violations')} → {_get(rb, 'violations')}",
            )
        )
    lines.append("")
    if len(task_rows) == 1:
        lines.append("every task has the same verdict, calls and violations in both runs")
    else:
        lines += _columns(task_rows)
    return "\n".join(lines)


def _by_task(run: Mapping[str, Any]) -> dict[str, tuple[int, int, int, int]]:
    """Per task id (repeats summed): passed runs, runs, calls ok, violations."""
    out: dict[str, tuple[int, int, int, int]] = {}
    for r in run["tasks"]:
        p, n, ok, v = out.get(r["id"], (0, 0, 0, 0))
        out[r["id"]] = (p + bool(r["passed"]), n + 1, ok + int(r["calls_ok"]), v + int(r["violations"]))
    return out


def _verdict(row: tuple[int, int, int, int] | None) -> str:
    if row is None:
        return "absent"
    passed, runs = row[0], row[1]
    return ("PASS" if passed == runs else "fail") if runs == 1 else f"{passed}/{runs} passed"


def _get(row: tuple[int, int, int, int] | None, key: str) -> str:
    if row is None:
        return "-"
    return str(row[2] if key == "calls_ok" else row[3])
