"""`asi-agent eval --ray`: tasks shipped to a local Ray instance give the same results as a local run."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from asi_cli import asi

pytest.importorskip("ray")

FILTERS = (  # chains with tests in both languages, no-tool tasks, git, the model asked by a tool,
    # listings with file times, journal and trash stamps
    "--filter",
    "py-chain-fix-discount",
    "--filter",
    "js-chain-fix-sum",
    "--filter",
    "none-*",
    "--filter",
    "unsafe-edit-git-config",
    "--filter",
    "py-reapply-change",
    "--filter",
    "py-delete-backup",
    "--filter",
    "py-count-modules",
    "--filter",
    "py-generate-tests",
)
CALL_ID = re.compile(r"call_[0-9a-f]+")
DURATION = re.compile(r" in \d+(?:\.\d+)? s\b")  # test runners report their own time
STAMP = re.compile(r"\d{4}-?\d\d-?\d\d[T-]\d\d:?\d\d:?\d\d(?:[.-]\d+)?(?:\+00:00)?")  # journal and trash


def _stable(run: dict[str, Any]) -> list[dict[str, Any]]:
    """Task results without what differs between any two runs: timings, session and call ids."""
    return [_stable_task(task) for task in run["tasks"]]


def _stable_task(task: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in task.items() if k not in ("seconds", "transcript", "checks")}
    # the runtime's own test run reports its time in a check too
    out["checks"] = json.loads(DURATION.sub(" in N s", json.dumps(task.get("checks"))))
    records = [{k: v for k, v in r.items() if k not in ("time", "session_id")} for r in task["transcript"]]
    text = STAMP.sub("TIME", DURATION.sub(" in N s", json.dumps(records, sort_keys=True)))
    ids: dict[str, str] = {}
    out["transcript"] = CALL_ID.sub(lambda m: ids.setdefault(m[0], f"call#{len(ids)}"), text)
    return out


@pytest.mark.slow
def test_ray_run_equals_local_run(tmp_path: Path):
    local = asi("eval", "--provider", "scripted", *FILTERS, "--output", "local.json", cwd=tmp_path)
    assert local.returncode == 0, local.stderr
    ray = asi("eval", "--provider", "scripted", *FILTERS, "--ray", "--output", "ray.json", cwd=tmp_path)
    assert ray.returncode == 0, ray.stderr
    a = json.loads((tmp_path / "local.json").read_text())
    b = json.loads((tmp_path / "ray.json").read_text())
    assert b["engine"] == "ray"
    assert len(a["tasks"]) == len(b["tasks"]) >= 7
    # Every task completes, the no-tool ones with the unverified DONE their `expect = "answer"` allows.
    assert all(task["passed"] for task in b["tasks"]), [t["verifier"] for t in b["tasks"] if not t["passed"]]
    assert _stable(a) == _stable(b)
    metrics = {k: v for k, v in a["metrics"].items() if k != "seconds_per_task"}
    assert metrics == {k: v for k, v in b["metrics"].items() if k != "seconds_per_task"}
