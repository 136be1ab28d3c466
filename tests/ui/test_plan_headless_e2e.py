"""Headless `--approval plan`: the model is told it plans, the plan is printed, the run exits 0."""

from __future__ import annotations

import json
from pathlib import Path

from ext_run import scripted_run

from asi_agent.handoff import PLAN_NOTE

STEPS = [
    {"id": "1", "content": "Read calc.py", "status": "pending"},
    {"id": "2", "content": "Make add return a + b", "status": "pending"},
]


def test_plan_mode_prints_the_plan_and_exits_0(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    calls = [
        {"name": "read_file", "arguments": {"path": "calc.py"}},
        {"name": "todo_write", "arguments": {"todos": STEPS}},
        {"name": "replace_text", "arguments": {"path": "calc.py", "oldText": "a - b", "newText": "a + b"}},
    ]

    proc = scripted_run(root, calls, "--approval", "plan", replies_after=["Two steps.\nAGENT_STATUS: DONE"])

    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith("Two steps.\n\nPlan:\n1. Read calc.py\n2. Make add return a + b\n")
    assert "replace_text refused: plan mode is read-only" in proc.stderr
    assert (root / "calc.py").read_text().endswith("a - b\n")
    [transcript] = (root / ".asi" / "sessions").glob("*.jsonl")
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    task = next(r["message"]["content"] for r in records if r.get("type") == "message")
    assert task == "Do the task."
    system = next(r["system"] for r in records if r.get("type") == "request")
    assert system.endswith(PLAN_NOTE)
