"""Score the parser on the sealed part of the corpus (run once; see SOURCES.md).

    python tests/calls/sealed/score.py

Prints, per source project and in total: replies parsed exactly, silent drops (a call-like reply that
gave neither a call nor a problem), and calls run from replies that were cut off (a reply that must be
reported gave a call).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from cases import CASES  # noqa: E402
from corpus.case import judge  # noqa: E402

from asi_agent.calls import parse_reply  # noqa: E402


def main() -> None:
    """Parse every sealed reply and print the table."""
    totals: Counter[str] = Counter()
    exact: Counter[str] = Counter()
    silent: Counter[str] = Counter()
    cut_run: Counter[str] = Counter()
    misses: list[str] = []
    for case in CASES:
        project = case.source.split()[0]
        reply = parse_reply(case.reply, case.schemas())
        calls = [(call.name, call.arguments) for call in reply.calls]
        ok, dropped = judge(case, calls, len(reply.problems), reply.text)
        totals[project] += 1
        exact[project] += ok
        silent[project] += dropped
        cut_run[project] += case.problem and bool(calls)
        if not ok:
            misses.append(f"- {project}: `{case.reply[:90]!r}` -> {calls} problems={len(reply.problems)}")
    print("| project | replies | exact | silent drops | calls run from cut-off replies |")
    print("|---|---|---|---|---|")
    for project in sorted(totals):
        print(
            f"| {project} | {totals[project]} | {exact[project]} | {silent[project]} | {cut_run[project]} |"
        )
    n, e = sum(totals.values()), sum(exact.values())
    print(f"| **all** | {n} | {e} ({e / n:.1%}) | {sum(silent.values())} | {sum(cut_run.values())} |")
    print("\nMisses:\n" + "\n".join(misses))


if __name__ == "__main__":
    main()
