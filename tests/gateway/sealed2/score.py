"""Score the gateway on its second sealed set (run once, after the last reader change; see SOURCES.md).

    python tests/gateway/sealed2/score.py [--json bench/results/gateway-sealed2.json]

Same runner as the first set (`tests/gateway/sealed_runner.py`): `asi-agent serve --emulate always` in
front of a local OpenAI-compatible server that answers with each case's reply, one `chat.completions`
request per case through the official `openai` SDK. Prints, per family and in total, the replies given
exactly, silent drops and calls taken from cut-off replies, then the misses; `--json` also records the
score with the commit it was taken at. Misses do not fail it: the first score is the one reported.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent.parent
sys.path[:0] = [str(TESTS), str(TESTS / "calls"), str(HERE)]

from cases import CASES, FAMILIES  # noqa: E402
from corpus.case import Case  # noqa: E402
from gateway.sealed_runner import record, score  # noqa: E402

EXTRA_NAMES = ("broken",)
"""Names only the set's malformed replies use, offered so that a miss is the reader's, not the tool list's."""


def family(case: Case) -> str:
    """The model family of a case."""
    return FAMILIES[case.source]


def main() -> None:
    """Send every reply of the second sealed set through the gateway and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the score, with the commit, to this file")
    args = parser.parse_args()
    result = score(CASES, family, EXTRA_NAMES)
    print(result.table())
    print("\nMisses:\n" + "\n".join(result.misses))
    if args.json:
        record(result, args.json, "gateway-sealed2", "python tests/gateway/sealed2/score.py")


if __name__ == "__main__":
    main()
