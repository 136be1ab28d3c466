"""Earned endings: what the runtime checks before a run may end DONE (README: "How a run ends").

A `Verifier` watches one run's events and, when the model ends, checks what it can:

- `files_parse`: every file the run changed still parses (a file that did not parse before the run is
  not held to it);
- `change_made`: a request that asks for a change (as `grounding.request` reads it) left at least one file
  different from how the run found it — through the edit tools (the journal) or a command (the project's
  files, and git's own, are stamped before the run's first command and compared);
- `tests_pass`: in a run that edited files, the agent's last test run did not fail, and a failed run was
  repeated after the last edit;
- `reply_complete`: the answer the run ends on does not continue a reply cut for repeating itself (one
  continued after the token limit is whole);
- `tool_evidence`: something backs the ending — at least one tool call succeeded (not required: a plain
  answer stays DONE, unverified).

A failed required check is told to the model once; if it still fails, the run ends STOP.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from asi_agent.events import Check, ToolFinished
from asi_agent.handoff import is_plan_task
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.ignore import iter_project_entries

__all__ = ["Verifier", "nag_text", "test_outcome"]

Parser = Callable[[str, str], str | None]
"""(path relative to the project, text) → why the text does not parse, or None."""

_TEST_COMMAND = re.compile(
    r"(^|[\s;&|(])(pytest|py\.test|python3? -m (pytest|unittest)|npm (run )?test|yarn test|pnpm test|"
    r"go test|cargo test|jest|vitest|mocha|tox|nox|make test)\b"
)
_FAILED_COUNT = re.compile(r"\b([1-9]\d*) (failed|errors?)\b")
_SNAPSHOT_LIMIT = 20_000  # entries; a bigger project is compared on what was seen first
_GIT_FILES = ("config", "HEAD", "index", "packed-refs", "FETCH_HEAD", "ORIG_HEAD")
Stamps = dict[str, tuple[int, int]]
"""Each file of the project: (size, modification time in ns)."""


def project_stamps(root: Path) -> Stamps:
    """The size and modification time of the project's files (ignore rules apply) and of git's own."""
    stamps: Stamps = {}
    for count, entry in enumerate(iter_project_entries(root)):
        if count >= _SNAPSHOT_LIMIT:
            break
        if not entry.is_dir:
            _stamp(stamps, entry.path, root)
    git = root / ".git"
    for name in _GIT_FILES:
        _stamp(stamps, git / name, root)
    heads = git / "refs" / "heads"
    if heads.is_dir():
        for ref in heads.rglob("*"):
            _stamp(stamps, ref, root)
    return stamps


def _stamp(stamps: Stamps, path: Path, root: Path) -> None:
    try:
        st = path.stat()
    except OSError:
        return
    if path.is_file():
        stamps[path.relative_to(root).as_posix()] = (st.st_size, st.st_mtime_ns)


def test_outcome(event: ToolFinished) -> bool | None:
    """Whether a finished call was a test run that passed (True), failed (False), or no test run (None)."""
    if event.call.name == "run_tests":
        head = event.output.splitlines()[0] if event.output else ""
        if not event.ok or "timed out" in head or "failed before reporting" in head:
            return False
        return not _FAILED_COUNT.search(head) and " 0 passed" not in head
    if event.call.name == "run_terminal_cmd":
        command = str(event.call.arguments.get("command", ""))
        if not _TEST_COMMAND.search(command) or command.startswith("bg:"):
            return None
        code = re.search(r"exit code: (-?\d+)\s*$", event.output)
        return event.ok and code is not None and code[1] == "0"
    return None


@dataclass
class Verifier:
    """The checks of one run (one task); see the module docstring."""

    task: str
    root: Path
    journal: Journal
    session_id: str
    parses: Parser
    start_seq: int = 0
    calls_ok: int = 0
    _step: int = 0
    _last_edit: int = -1
    _tests: list[tuple[int, bool]] = field(default_factory=list)
    before_commands: Stamps | None = None
    """The project's files as they were before the run's first command (None: no command ran)."""
    answer_cut: bool = False
    """The reply the run would end on continues one cut for repeating itself."""
    nagged: set[str] = field(default_factory=set)
    """Checks the model was already told about."""
    planning: bool = False
    """A `plan`-mode run: it writes a plan and can change nothing, so no change is asked of it."""

    @classmethod
    def start(cls, task: str, root: Path, journal: Journal, session_id: str, parses: Parser) -> Verifier:
        """A verifier for a run starting now (changes recorded from here on are the run's)."""
        return cls(task, root, journal, session_id, parses, start_seq=journal.last_seq())

    def before_command(self) -> None:
        """A command is about to run: stamp the project's files first (once per run)."""
        if self.before_commands is None:
            self.before_commands = project_stamps(self.root)

    def observe(self, event: ToolFinished) -> None:
        """Take a finished call into account: a success, an edit, a test run."""
        self._step += 1
        self.calls_ok += event.ok
        if event.changed_files:
            self._last_edit = self._step
        outcome = test_outcome(event)
        if outcome is not None:
            self._tests.append((self._step, outcome))

    def checks(self) -> tuple[Check, ...]:
        """Every check that applies to the run so far."""
        found: list[Check] = []
        changed = self._changed()
        if changed:
            found.append(self._parse_check(changed))
        # The request reader costs ~80 ms to import: only when a run ends, not before its first request.
        from asi_agent.grounding.request import asks_for_change  # noqa: PLC0415

        if asks_for_change(self.task) and not self.planning and not is_plan_task(self.task):
            real = [path for path, (before, after) in changed.items() if before != after]
            real += [path for path in self._changed_by_commands() if path not in changed]
            detail = (
                f"changed {', '.join(real)}" if real else "the request asks for a change and no file changed"
            )
            found.append(Check("change_made", bool(real), detail))
        if self._tests and self._last_edit >= 0:  # tests run only to report on them are not held to passing
            found.append(self._test_check())
        found.append(
            Check(
                "reply_complete",
                not self.answer_cut,
                "the answer continues a reply cut for repeating itself"
                if self.answer_cut
                else "no reply cut off",
            )
        )
        evidence = f"{self.calls_ok} tool call(s) succeeded" if self.calls_ok else "no tool call succeeded"
        found.append(Check("tool_evidence", self.calls_ok > 0, evidence, required=False))
        return tuple(found)

    def _changed(self) -> dict[str, tuple[bytes | None, bytes | None]]:
        """Each path this run changed: its content before the run's first change of it, and now."""
        firsts: dict[str, bytes | None] = {}
        for entry in self.journal.since(self.start_seq):
            if entry.session_id == self.session_id and entry.path not in firsts:
                firsts[entry.path] = None if entry.before is None else self.journal.blob(entry.before)
        result: dict[str, tuple[bytes | None, bytes | None]] = {}
        for path, before in firsts.items():
            target = self.root / path
            try:
                now: bytes | None = target.read_bytes() if target.is_file() else None
            except OSError:
                now = None
            result[path] = (before, now)
        return result

    def _changed_by_commands(self) -> list[str]:
        """Files that differ from the stamps taken before the first command (added and removed ones too)."""
        if self.before_commands is None:
            return []
        now = project_stamps(self.root)
        before = self.before_commands
        return sorted(path for path in before.keys() | now.keys() if before.get(path) != now.get(path))

    def _parse_check(self, changed: dict[str, tuple[bytes | None, bytes | None]]) -> Check:
        problems: list[str] = []
        for path, (before, now) in changed.items():
            if now is None:
                continue
            if before is not None and self._problem(path, before) is not None:
                continue  # it did not parse before the run: not held to it
            problem = self._problem(path, now)
            if problem is not None:
                problems.append(f"{path} does not parse ({problem})")
        detail = "; ".join(problems) if problems else f"{len(changed)} changed file(s) parse"
        return Check("files_parse", not problems, detail)

    def _problem(self, path: str, data: bytes) -> str | None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None  # not text: nothing to parse
        return self.parses(path, text)

    def _test_check(self) -> Check:
        step, passed = self._tests[-1]
        if not passed and step > self._last_edit:
            return Check("tests_pass", False, "the last test run failed")
        if not passed:
            return Check("tests_pass", False, "the tests failed and were not run again after the last edit")
        after = "" if step > self._last_edit else " (before the last edit)"
        return Check("tests_pass", True, f"the last test run passed{after}")


def nag_text(failed: list[Check]) -> str:
    """The one message that tells the model what keeps the run from ending DONE."""
    reasons = "; ".join(f"{check.name}: {check.detail}" for check in failed)
    return (
        f"Not done yet, the runtime's checks failed: {reasons}. Fix this and check it, or, if it cannot "
        "be done, say why and end with AGENT_STATUS: STOP."
    )
