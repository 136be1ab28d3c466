"""Score the gateway on its third sealed set (run once, after the last reader change; see SOURCES.md).

    python tests/gateway/sealed3/score.py [--json bench/results/gateway-sealed3.json]

Same runner as the earlier sets (`tests/gateway/sealed_runner.py`): `asi-agent serve --emulate always` in
front of a local OpenAI-compatible server that answers with each case's reply, one `chat.completions`
request per case through the official `openai` SDK. Prints the headline table (families no earlier set
used), then the table of the family seen before (from a new source file), then the misses; `--json` also
records both with the commit the score was taken at. Misses do not fail it: the first score is the one
reported.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent.parent
sys.path[:0] = [str(TESTS), str(TESTS / "calls"), str(HERE)]

from cases import CASES, FAMILIES, SEEN_FAMILY_CASES  # noqa: E402
from corpus.case import Case  # noqa: E402
from gateway.sealed_runner import record, score  # noqa: E402

EXTRA_NAMES = ("func", "read_file", "one", "two")
"""Names only the set's malformed replies use, offered so that a miss is the reader's, not the tool list's."""


def family(case: Case) -> str:
    """The model family of a case."""
    return FAMILIES[case.source]


def _names(cases: tuple[Case, ...]) -> set[str]:
    return {name for case in cases for name, _ in case.calls}


def main() -> None:
    """Send every reply of the third sealed set through the gateway and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the score, with the commit, to this file")
    args = parser.parse_args()
    every_name = (*EXTRA_NAMES, *_names(CASES), *_names(SEEN_FAMILY_CASES))
    headline = score(CASES, family, every_name)
    seen = score(SEEN_FAMILY_CASES, family, every_name)
    print("Headline (families no earlier set used):\n" + headline.table())
    print("\nA family seen before, from a new source file (not in the headline):\n" + seen.table())
    print("\nMisses:\n" + "\n".join(headline.misses + seen.misses))
    if args.json:
        command = "python tests/gateway/sealed3/score.py"
        record(headline, args.json, "gateway-sealed3", command)
        entry = json.loads(args.json.read_text(encoding="utf-8"))
        entry["seen_family"] = seen.as_json()
        args.json.write_text(json.dumps(entry, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
