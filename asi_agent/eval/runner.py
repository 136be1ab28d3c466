"""Running one eval task: a fresh copy of its fixture, the agent as `asi-agent run` builds it, the verifier.

The same function runs a task on this machine and inside a Ray worker, so both give the same result.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from asi_agent.assembly import assemble_agent, drive
from asi_agent.config import Approval, AsiConfig
from asi_agent.data.transcript import Conversation, read_conversation
from asi_agent.eval.reuse import backend_for, work_slot
from asi_agent.eval.suite import EvalTask, ending_matches
from asi_agent.events import AgentEvent, ApprovalRequested, RunFinished
from asi_agent.exceptions import UserError
from asi_agent.tools.registry import ToolRegistry
from asi_agent.trust import ProjectTrust
from asi_agent.vcs.gitcmd import git_command

__all__ = ["PROJECT_MARK", "EvalSettings", "run_task", "script_path"]

PROJECT_MARK = "<project>"
"""What the temporary project path is replaced with in stored transcripts (runs stay comparable)."""
TASK_MARK = "<task>"
"""What the task's folder is replaced with (it is elsewhere on a Ray worker than on this machine)."""
_VERIFIER_TAIL = 2000
FIXTURE_TIME = 1_700_000_000
"""The modification time every fixture file gets (2023-11-14), so listings do not depend on the copy."""


class EvalSettings(BaseModel):
    """How every task of one eval run is run."""

    model_config = ConfigDict(extra="forbid")

    config: dict[str, Any] = Field(default_factory=dict)
    """The merged runtime configuration (`AsiConfig` fields); tasks override approval and turns."""
    approval: Approval | None = None
    """Permission mode for every task; None keeps each task's own (`task.toml`)."""
    max_turns: int | None = Field(None, ge=1)
    """Turn limit for every task; None keeps each task's own."""


def script_path(task: EvalTask, settings: EvalSettings) -> Path:
    """The scripted backend's script of a task: `--model NAME` in the task folder (default script.json)."""
    return task.folder / str(settings.config.get("model") or "script.json")


def run_task(
    task: EvalTask, settings: EvalSettings, repeat: int = 0, base: Path | None = None
) -> dict[str, Any]:
    """Run one task in a fresh copy of its fixture and return its result (JSON-ready).

    With `base`, the copy goes to this worker's fixed folder under it (see `reuse`); else to a new
    temporary folder, removed afterwards.
    """
    if base is not None:
        return _run_in(task, settings, repeat, work_slot(base.resolve()))
    with tempfile.TemporaryDirectory(prefix=f"asi-eval-{task.id}-") as tmp:
        return _run_in(task, settings, repeat, Path(tmp).resolve() / "project")


def _run_in(task: EvalTask, settings: EvalSettings, repeat: int, root: Path) -> dict[str, Any]:
    if task.project.is_dir():
        shutil.copytree(task.project, root)
    else:
        root.mkdir(parents=True)  # git keeps no empty folders: no project/ is an empty fixture
    for path in root.rglob("*"):  # the same file times wherever the fixture was copied or unpacked
        os.utime(path, (FIXTURE_TIME, FIXTURE_TIME), follow_symlinks=False)
    if task.spec.git:
        _git_init(root)
    started = time.monotonic()
    end, records, registry, error = asyncio.run(_run_agent(task, settings, root))
    seconds = time.monotonic() - started
    records = _portable(records, root, task.folder.resolve())
    conv = read_conversation(records, registry, task.id)
    verifier_passed, verdict = _verify(task, root, end, conv) if end else (False, "")
    verified = end is not None and end.status == "DONE" and end.verified
    status = end.status if end else "ERROR"
    calls = conv.calls
    return {
        "id": task.id,
        "repeat": repeat,
        "tags": list(task.tags),
        # A DONE the runtime did not verify (no call at all, an invented answer) is unproven, however
        # well it reads: the task is complete only when the verifier accepts it and the run ended as the
        # task expects (a plain answer or a refusal is expected to end without the runtime's backing).
        "passed": verifier_passed and ending_matches(task.spec.expect, status, verified),
        "verifier_passed": verifier_passed,
        "expect": task.spec.expect,
        "status": status,
        "verified": verified,
        "checks": _checks(end, root),
        "error": error or (end.error if end else None),
        "turns": end.turns if end else 0,
        "prompt_tokens": conv.prompt_tokens,
        "completion_tokens": conv.completion_tokens,
        "seconds": round(seconds, 3),
        "calls": len(calls),
        "calls_ok": sum(c.ok for c in calls),
        "legal_before": sum(c.legal_before for c in calls),
        "legal_after": sum(c.legal_after for c in calls),
        "violations": sum(c.violation for c in calls),
        "unapproved": sum(c.unapproved for c in calls),
        "tools": [c.name for c in calls],
        "verifier": verdict.replace(str(root), PROJECT_MARK),
        "transcript": records,
    }


def _checks(end: RunFinished | None, root: Path) -> list[dict[str, object]]:
    """What the runtime checked before the ending, with the project path masked as in the transcript."""
    if end is None:
        return []
    return [{**c.to_dict(), "detail": c.detail.replace(str(root), PROJECT_MARK)} for c in end.checks]


async def _run_agent(
    task: EvalTask, settings: EvalSettings, root: Path
) -> tuple[RunFinished | None, list[dict[str, Any]], ToolRegistry, str | None]:
    config = _task_config(task, settings)
    backend = backend_for(config)
    # No skills: an evaluation offers the same tools whoever runs it, whatever skills they installed.
    agent = assemble_agent(root, config, backend, cursor=task.spec.cursor, interactive=False, skills=False)
    end: RunFinished | None = None
    error: str | None = None
    try:
        end = await drive(agent, task.spec.instruction, _unattended)
    except UserError as exc:  # e.g. the model server went away mid-suite: this task failed, the rest go on
        error = str(exc)
    return end, list(agent.session.records()), agent.runner.registry, error


async def _unattended(event: AgentEvent) -> None:
    """Nobody watches an eval run; nobody can answer either (the gate refuses every ask before asking)."""
    if isinstance(event, ApprovalRequested):
        event.answer.set_result("no")


def _task_config(task: EvalTask, settings: EvalSettings) -> AsiConfig:
    data = dict(settings.config)
    data["approval"] = settings.approval or task.spec.approval
    data["max_turns"] = settings.max_turns or task.spec.max_turns
    if data.get("provider") == "scripted":
        data["model"] = str(script_path(task, settings))
    # the project is the suite's own fixture, copied to a temporary folder: its plugins are the task's
    return AsiConfig.model_validate(data).trusting(ProjectTrust(trusted=True))


def _git_init(root: Path) -> None:
    """The fixture copy as a one-commit repository; git runs nothing a fixture configures (`gitcmd`)."""
    git = git_command(root)
    if git is None:
        raise UserError("this eval task needs git (`git: true`), and no git program is installed")
    env = {"GIT_AUTHOR_NAME": "eval", "GIT_AUTHOR_EMAIL": "eval@example.invalid"}
    env |= {"GIT_COMMITTER_NAME": "eval", "GIT_COMMITTER_EMAIL": "eval@example.invalid"}
    # A fixed date gives the fixture commit the same id in every run: the model is shown it.
    env |= {"GIT_AUTHOR_DATE": f"@{FIXTURE_TIME} +0000", "GIT_COMMITTER_DATE": f"@{FIXTURE_TIME} +0000"}
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "--no-verify", "-m", "fixture"]):
        done = git.run(*command, env=env)
        if done.returncode != 0:
            raise subprocess.CalledProcessError(done.returncode, git.argv(*command), done.stdout, done.stderr)


def _portable(records: list[dict[str, Any]], root: Path, task: Path) -> list[dict[str, Any]]:
    """The transcript with the temporary project path and the task folder replaced by fixed marks."""
    text = json.dumps(records, ensure_ascii=False)
    text = text.replace(json.dumps(str(root))[1:-1], PROJECT_MARK)
    text = text.replace(json.dumps(str(task))[1:-1], TASK_MARK)
    loaded: list[dict[str, Any]] = json.loads(text)
    return loaded


def _verify(task: EvalTask, root: Path, end: RunFinished, conv: Conversation) -> tuple[bool, str]:
    """Run the task's verifier in the project copy; exit code 0 passes."""
    # Plain replacement, not str.format: a verifier's own code may hold braces.
    command = [
        part.replace("{python}", sys.executable).replace("{task}", str(task.folder))
        for part in task.spec.verify
    ]
    if task.needs_tool and not any(call.ok for call in conv.calls):
        return False, "FAIL: the task needs a tool and no call of this run succeeded"
    results = [{"name": c.name, "ok": c.ok, "arguments": c.arguments, "output": c.output} for c in conv.calls]
    with tempfile.TemporaryDirectory(prefix="asi-eval-results-") as tmp:
        # The result texts go in a file outside the project: an environment variable has a size limit.
        results_file = Path(tmp) / "results.json"
        results_file.write_text(json.dumps(results, ensure_ascii=False), encoding="utf-8")
        env = {
            **os.environ,
            "ASI_EVAL_ANSWER": end.result,
            "ASI_EVAL_STATUS": end.status,
            "ASI_EVAL_CALLS": json.dumps([{"name": c.name, "ok": c.ok} for c in conv.calls]),
            "ASI_EVAL_RESULTS": str(results_file),
        }
        try:
            done = subprocess.run(
                command,
                cwd=root,
                env=env,
                capture_output=True,
                text=True,
                timeout=task.spec.verify_timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return False, f"verifier timed out after {task.spec.verify_timeout:g} s"
        except OSError as exc:
            return False, f"verifier could not start: {exc}"
    output = (done.stdout + done.stderr).strip()
    return done.returncode == 0, output[-_VERIFIER_TAIL:]
