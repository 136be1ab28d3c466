"""What a task's verifier needs, for `verify.py` scripts: `from asi_agent.eval.verifying import ...`.

A verifier runs with `{python}` — the interpreter asi-agent runs on — in the task's project copy, after
the agent has finished; exit code 0 accepts the work (the task is complete if the run also ended as its
`task.toml` `expect` says: by default DONE verified by the runtime). The run is read from the environment
the eval gives it: the final answer, the run's status and the calls made (with whether each succeeded).
Only the standard library is imported, so a verifier starts fast.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
from typing import Any, NoReturn

__all__ = ["ANSWER", "CALLS", "STATUS", "USED", "check", "fail", "run", "text"]

ANSWER: str = os.environ.get("ASI_EVAL_ANSWER", "")
"""The run's final answer."""
STATUS: str = os.environ.get("ASI_EVAL_STATUS", "")
"""How the run ended: DONE, STOP, MAX_TURNS, ..."""
CALLS: list[dict[str, Any]] = json.loads(os.environ.get("ASI_EVAL_CALLS", "[]"))
"""Every call of the run, in order: `{"name": ..., "ok": ...}`."""
USED: set[str] = {call["name"] for call in CALLS if call["ok"]}
"""The names of the tools that ran successfully."""


def fail(message: str) -> NoReturn:
    """End the verifier: the task is not complete, for the reason `message`."""
    print("FAIL:", message)
    sys.exit(1)


def check(condition: object, message: str) -> None:
    """`fail(message)` unless `condition` holds."""
    if not condition:
        fail(message)


def text(path: str | pathlib.Path) -> str:
    """A file of the project copy, as UTF-8 text."""
    return pathlib.Path(path).read_text(encoding="utf-8")


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    """Run a command in the project copy (60 s at most), capturing its output."""
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
