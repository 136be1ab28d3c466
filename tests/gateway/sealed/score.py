"""Score the gateway on its sealed set (run once; see SOURCES.md).

    python tests/gateway/sealed/score.py [--json bench/results/gateway-sealed1.json]

Starts `asi-agent serve --emulate always` in front of a local OpenAI-compatible server that answers
each request with the case's reply (and any second ask with a plain sentence), sends every case through
the official `openai` SDK and prints, per family and in total: replies given exactly, silent drops and
calls taken from cut-off replies; then the misses. The runner is shared with the second set
(`tests/gateway/sealed_runner.py`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent.parent
sys.path[:0] = [str(TESTS), str(TESTS / "calls"), str(HERE)]

from cases import CASES  # noqa: E402
from corpus.case import Case  # noqa: E402
from gateway.sealed_runner import record, score  # noqa: E402

EXTRA_NAMES = ("func", "bad", "calc", "foo", "test_function", "refresh")
"""Names the set's malformed replies use, offered so that a miss is the reader's, not the tool list's."""


def family(case: Case) -> str:
    """The model family of a case, from its source file's name."""
    return case.source.rsplit("/", 1)[-1].removeprefix("test_").removesuffix("_tool_parser.py")


def main() -> None:
    """Send every sealed reply through the gateway and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the score, with the commit, to this file")
    args = parser.parse_args()
    result = score(CASES, family, EXTRA_NAMES)
    print(result.table())
    print("\nMisses:\n" + "\n".join(result.misses))
    if args.json:
        record(result, args.json, "gateway-sealed1", "python tests/gateway/sealed/score.py")


if __name__ == "__main__":
    main()
