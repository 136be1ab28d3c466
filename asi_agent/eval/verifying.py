"""What a task's verifier needs, for `verify.py` scripts: `from asi_agent.eval.verifying import ...`.

A verifier runs with `{python}` — the interpreter asi-agent runs on — in the task's project copy, after
the agent has finished; exit code 0 accepts the work (the task is complete if the run also ended as its
`task.toml` `expect` says: by default DONE verified by the runtime). The run is read from the environment
the eval gives it: the final answer, the run's status and the calls made (with whether each succeeded,
their arguments and the result text the model read). An answer is only worth what the run found: `stated`
accepts a fact when the answer gives it and a successful tool result of this run showed it. Only the
standard library is imported, so a verifier starts fast.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
from typing import Any, NoReturn

__all__ = [
    "ANSWER",
    "CALLS",
    "OUTPUTS",
    "STATUS",
    "USED",
    "check",
    "fail",
    "number",
    "run",
    "shown",
    "stated",
    "text",
]

ANSWER: str = os.environ.get("ASI_EVAL_ANSWER", "")
"""The run's final answer."""
STATUS: str = os.environ.get("ASI_EVAL_STATUS", "")
"""How the run ended: DONE, STOP, MAX_TURNS, ..."""
CALLS: list[dict[str, Any]] = json.loads(os.environ.get("ASI_EVAL_CALLS", "[]"))
"""Every call of the run, in order: `{"name": ..., "ok": ...}`."""
USED: set[str] = {call["name"] for call in CALLS if call["ok"]}
"""The names of the tools that ran successfully."""


def _results() -> list[dict[str, Any]]:
    path = os.environ.get("ASI_EVAL_RESULTS")
    if not path:
        return []
    loaded: list[dict[str, Any]] = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    return loaded


OUTPUTS: list[str] = [str(call.get("output") or "") for call in _results() if call.get("ok")]
"""The result texts of the calls that succeeded, as the model read them."""


def fail(message: str) -> NoReturn:
    """End the verifier: the task is not complete, for the reason `message`."""
    print("FAIL:", message)
    sys.exit(1)


def check(condition: object, message: str) -> None:
    """`fail(message)` unless `condition` holds."""
    if not condition:
        fail(message)


def shown(fact: str, *, tool: str | None = None) -> bool:
    """Whether a successful tool result of this run (of `tool`, when named) shows `fact`."""
    results = [c for c in _results() if c.get("ok") and (tool is None or c.get("name") == tool)]
    return any(fact in str(call.get("output") or "") for call in results)


def number(value: int) -> bool:
    """Whether the answer states `value` as a number of its own (not inside another number)."""
    return re.search(rf"(?<![\d.]){value}(?![\d.]\d)", ANSWER) is not None


def stated(fact: str, *, seen: str | None = None, tool: str | None = None) -> None:
    """Fail unless the answer gives `fact` and a successful tool result of this run showed `seen`
    (default: `fact` itself): a fact the run never read is a guess, however right."""
    check(fact in ANSWER, f"the answer does not give {fact!r}")
    where = f"a {tool} result" if tool else "a tool result"
    check(shown(seen or fact, tool=tool), f"{seen or fact!r} does not come from {where} of this run")


def text(path: str | pathlib.Path) -> str:
    """A file of the project copy, as UTF-8 text."""
    return pathlib.Path(path).read_text(encoding="utf-8")


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    """Run a command in the project copy (60 s at most), capturing its output."""
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
