"""Score the gateway on its fifth sealed set (run once, after the last reader change; see SOURCES.md).

    python tests/gateway/sealed5/score.py [--json bench/results/gateway-sealed5.json]

The runner (`tests/gateway/sealed_runner.py`, shared by every set) starts `asi-agent serve --emulate always`
in front of a local OpenAI-compatible server that answers with each case's reply, sends one
`chat.completions` request per case through the official `openai` SDK and prints the table, then the misses.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent.parent
sys.path[:0] = [str(TESTS), str(TESTS / "calls"), str(HERE)]

import cases  # noqa: E402
from gateway.sealed_runner import main  # noqa: E402

EXTRA_NAMES: tuple[str, ...] = ()
"""Names only the set's malformed replies use: none here (every cut-off reply names a tool that a whole
reply of the set also calls), so the tool list is the calls' names alone."""

if __name__ == "__main__":
    main(cases, "gateway-sealed5", EXTRA_NAMES, __doc__ or "")
