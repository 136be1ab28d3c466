"""Eval suites: a folder of task folders, each a fixture project, an instruction and a verifier.

Layout (any folder laid out like this is a suite; the built-in one ships in `asi_agent/eval/suite/`)::

    my-suite/
      fix-off-by-one/          the task id is the folder name
        task.toml              instruction, verifier, tags, limits (TaskSpec)
        project/               the fixture: copied into a fresh temporary folder for every run
                               (none: the task runs in an empty folder)
        verify.py              anything the verifier needs, kept out of the model's sight
        script.json            optional: a scripted backend's replies that solve the task

The verifier is a command (a list, no shell) run in the task's copy after the agent has finished;
exit code 0 accepts the work. The task is complete when the verifier accepts it and the run ended as
the task's `expect` says (`ending_matches`): by default DONE with the runtime's verification (an
unverified DONE is unproven); "answer" for a plain answer, "refusal" for a STOP. `{python}` in it
stands for the running Python and `{task}` for the task folder. It sees the run in its environment:
`ASI_EVAL_ANSWER` (the final answer), `ASI_EVAL_STATUS` (DONE, STOP, ...) and `ASI_EVAL_CALLS` (JSON
list of `{"name", "ok"}`); `asi_agent.eval.verifying` reads them for a Python verifier and holds its
usual checks.
"""

from __future__ import annotations

import fnmatch
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from asi_agent.config import Approval
from asi_agent.exceptions import UserError

__all__ = [
    "BUILTIN_SUITE",
    "EvalTask",
    "Expect",
    "TaskSpec",
    "ending_matches",
    "load_suite",
    "load_task",
    "pack_task",
    "unpack_task",
]

BUILTIN_SUITE = Path(__file__).resolve().parent / "suite"
"""The built-in suite shipped with the package."""

Expect = Literal["verified", "answer", "refusal"]
"""The ending a task expects: DONE verified by the runtime; DONE verified or not (a plain answer that
no tool call backs, which the verifier proves); STOP (a refusal the verifier proves was right)."""


class TaskSpec(BaseModel):
    """The `task.toml` of one task."""

    model_config = ConfigDict(extra="forbid")

    instruction: str = Field(min_length=1)
    """What the model is asked to do, as a person would ask it."""
    verify: list[str] = Field(min_length=1)
    """The verifier command (argv, no shell); exit code 0 accepts the work (complete if `expect` holds)."""
    expect: Expect = "verified"
    """The ending the run must have: "verified" (DONE, backed by the runtime's checks), "answer" (DONE,
    verified or not: nothing at runtime backs a plain answer), "refusal" (STOP)."""
    tags: list[str] = Field(default_factory=list)
    """Free labels for `--filter` (language, kind, tools)."""
    approval: Approval = "yolo"
    """Permission mode of the run; nobody answers questions in an eval, so "ask" means "refused"."""
    max_turns: int = Field(15, ge=1, le=200)
    """Turn limit of the run."""
    cursor: str | None = None
    """Editor cursor `PATH:LINE[:COL]` for `get_cursor_context`."""
    git: bool = False
    """Make the fixture a git repository with one commit before the run."""
    verify_timeout: float = Field(120.0, gt=0)
    """Seconds the verifier may take."""


@dataclass(frozen=True, slots=True)
class EvalTask:
    """A task read from its folder."""

    id: str
    folder: Path
    spec: TaskSpec

    @property
    def project(self) -> Path:
        """The fixture project."""
        return self.folder / "project"

    @property
    def tags(self) -> tuple[str, ...]:
        """The task's tags."""
        return tuple(self.spec.tags)

    @property
    def needs_tool(self) -> bool:
        """Whether the task is done by working with tools (a verified DONE, not tagged `no-tool`): a run
        with no successful call cannot complete it, whatever its answer says."""
        return self.spec.expect == "verified" and "no-tool" not in self.spec.tags


def ending_matches(expect: Expect, status: str, verified: bool) -> bool:
    """Whether a run that ended `status` (`verified`: the runtime backed its DONE) ended as expected."""
    if expect == "refusal":
        return status == "STOP"
    return status == "DONE" and (verified or expect == "answer")


def load_task(folder: Path) -> EvalTask:
    """One task folder, or a UserError naming the file and the problem."""
    path = folder / "task.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        spec = TaskSpec.model_validate(data)
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: invalid TOML: {exc}") from None
    except ValidationError as exc:
        error = exc.errors()[0]
        key = ".".join(str(part) for part in error["loc"]) or "(top level)"
        raise UserError(f"{path}: key '{key}': {error['msg']}") from None
    return EvalTask(folder.name, folder, spec)


def load_suite(path: Path | None = None, filters: Sequence[str] = ()) -> list[EvalTask]:
    """The tasks of a suite folder (default: the built-in suite), sorted by id, filtered.

    A filter is a glob on the task id or a tag; a task is kept when any filter matches.
    """
    root = path or BUILTIN_SUITE
    if not root.is_dir():
        raise UserError(f"--suite {root}: not a directory")
    folders = sorted(p for p in root.iterdir() if (p / "task.toml").is_file())
    if not folders:
        raise UserError(f"--suite {root}: no task folders (a task is a folder with a task.toml)")
    tasks = [load_task(folder) for folder in folders]
    if filters:
        tasks = [t for t in tasks if any(_matches(t, pattern) for pattern in filters)]
        if not tasks:
            raise UserError(f"--filter {' '.join(filters)}: no task matches")
    return tasks


def _matches(task: EvalTask, pattern: str) -> bool:
    return fnmatch.fnmatchcase(task.id, pattern) or any(
        fnmatch.fnmatchcase(tag, pattern) for tag in task.tags
    )


def pack_task(task: EvalTask) -> dict[str, bytes]:
    """Every file of the task folder by relative path, to ship it to another machine."""
    return {
        path.relative_to(task.folder).as_posix(): path.read_bytes()
        for path in sorted(task.folder.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def unpack_task(files: dict[str, bytes], into: Path) -> EvalTask:
    """Write a packed task under `into` (named as its id) and read it back."""
    into.mkdir(parents=True, exist_ok=True)
    for rel, data in files.items():
        target = into / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return load_task(into)
