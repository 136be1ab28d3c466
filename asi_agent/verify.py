"""Earned endings: what the runtime checks before a run may end DONE (README: "How a run ends").

A `Verifier` watches one run's events and, when the model ends, checks what it can:

- `files_parse`: every file the run changed still parses (a file that did not parse before the run is
  not held to it);
- `change_made`: a request that asks for a change (as `grounding.request` reads it) left at least one file
  different from how the run found it — through the edit tools (the journal) or a command (the project's
  files, and git's own, are stamped before the run's first command and compared);
- `tests_pass`: in a run that edited files, the agent's last test run did not fail, and a failed run was
  repeated after the last edit; tests that failed before the run's first change as well (its baseline,
  `verify_baseline`) do not fail it, unless the request is about them;
- `reply_complete`: the answer the run ends on does not continue a reply cut for repeating itself (one
  continued after the token limit is whole);
- `steps_done`: a request of several steps had each done (`verify_steps`);
- `answer_backed`: a plain answer states only what the run's tool results show (not required);
- `tool_evidence`: something backs the ending — at least one tool call succeeded (not required: a plain
  answer stays DONE, unverified).

With `verify = "tests"` (the default), a run that changed source files has the project's tests run by the
runtime itself before DONE (`verify_tests`), unless the agent's own last test run came after its last edit;
their outcome is the `tests_pass` check. `verify = "parse"` keeps every check but that run; `"off"` checks
nothing (no run is then verified).

A failed required check is told to the model once; if it still fails, the run ends STOP.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from asi_agent.events import AgentEvent, Baseline, Check, Status, ToolFinished
from asi_agent.gate import Gate
from asi_agent.handoff import is_plan_task
from asi_agent.refusals import refusal_report
from asi_agent.toolrun import Outcome, Prepared, ToolRunner
from asi_agent.tools.exec.testcmd import SOURCE_SUFFIXES, TestRun, detect_tests
from asi_agent.tools.files.journal import Journal
from asi_agent.verify_baseline import (
    after_check,
    agent_baseline,
    compared,
    take_baseline,
    whole_suite,
    writes_source,
)
from asi_agent.verify_stamps import Stamps, project_stamps
from asi_agent.verify_steps import answer_check, kept, steps_check
from asi_agent.verify_tests import OwnRun, own_test_run

__all__ = ["Verifier", "VerifyConfig", "VerifyMode", "nag_text", "test_outcome"]

VerifyMode = Literal["tests", "parse", "off"]
OWN_TESTS_TIMEOUT = 300.0
"""Seconds the runtime's own test run may take in all (the affected tests first, then the suite)."""
_SHOWN_OUTPUT = 4_000


@dataclass(frozen=True, slots=True)
class VerifyConfig:
    """What the runtime checks before DONE (configuration `verify`, `test_command`)."""

    mode: VerifyMode = "tests"
    test_command: str | None = None
    """The command that runs the project's tests; None detects it (`tools.exec.testcmd`)."""
    timeout: float = OWN_TESTS_TIMEOUT


Parser = Callable[[str, str], str | None]
"""(path relative to the project, text) → why the text does not parse, or None."""

_TEST_COMMAND = re.compile(
    r"(^|[\s;&|(])(pytest|py\.test|python3? -m (pytest|unittest)|npm (run )?test|yarn test|pnpm test|"
    r"go test|cargo test|jest|vitest|mocha|tox|nox|make test)\b"
)
_FAILED_COUNT = re.compile(r"\b([1-9]\d*) (failed|errors?)\b")
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
    config: VerifyConfig = field(default_factory=VerifyConfig)
    calls_ok: int = 0
    _step: int = 0
    _last_edit: int = -1
    _tests: list[tuple[int, bool]] = field(default_factory=list)
    _own: dict[int, TestRun] = field(default_factory=dict)
    """The runtime's own test runs, by step."""
    _not_run: str = ""
    """Why the runtime's own test run was not run (refused), since the last edit."""
    _why_not: str = "not allowed"
    _seen: str = ""
    _refused: str = ""
    """The run's first refused call, reported with what would allow it."""
    """The successful tool results of the run (bounded), for `answer_backed`."""
    answer: str = ""
    """The answer the run would end on."""
    before_commands: Stamps | None = None
    """The project's files as they were before the run's first command (None: no command ran)."""
    answer_cut: bool = False
    """The reply the run would end on continues one cut for repeating itself."""
    nagged: set[str] = field(default_factory=set)
    """Checks the model was already told about."""
    planning: bool = False
    """A `plan`-mode run: it writes a plan and can change nothing, so no change is asked of it."""
    baseline: Baseline | None = None
    """The project's tests before the run's first change of a source file (None: not looked for)."""
    _baseline_due: bool = True
    _suite_run: ToolFinished | None = None
    """The agent's run of the whole suite, when nothing that may change files ran since."""

    @classmethod
    def start(  # noqa: PLR0917  (the five of every run, and its configuration)
        cls,
        task: str,
        root: Path,
        journal: Journal,
        session_id: str,
        parses: Parser,
        config: VerifyConfig | None = None,
    ) -> Verifier:
        """A verifier for a run starting now (changes recorded from here on are the run's)."""
        return cls(task, root, journal, session_id, parses, journal.last_seq(), config or VerifyConfig())

    def before_command(self) -> None:
        """A command is about to run: stamp the project's files first (once per run)."""
        if self.before_commands is None:
            self.before_commands = project_stamps(self.root)

    async def before_batch(
        self, batch: Sequence[Prepared | Outcome], gate: Gate, runner: ToolRunner
    ) -> AsyncIterator[AgentEvent]:
        """Calls are about to run: before the first that may change a source file, take the baseline; before
        the first command, stamp the project's files (`before_command`)."""
        if any(isinstance(item, Prepared) and item.spec.risk == "execute" for item in batch):
            self.before_command()  # a command may change files other than through the edit tools' journal
            self._suite_run = None
        if not self._baseline_due or self.config.mode != "tests" or not any(map(writes_source, batch)):
            return
        self._baseline_due = False
        plan = detect_tests(self.root, [], self.config.test_command)
        if plan is None:
            return
        if plan.command is None and self._suite_run is not None:
            self.baseline = agent_baseline(plan.label, self._suite_run)
            if self.baseline is not None:
                return
        async for item in take_baseline(plan, gate, runner, self.config.timeout):
            if isinstance(item, Baseline):
                self.baseline = item
            else:
                yield item

    def observe(self, event: ToolFinished) -> None:
        """Take a finished call into account: a success, an edit, a test run."""
        self._step += 1
        self.calls_ok += event.ok
        if event.ok:
            self._seen = kept(self._seen, event.output)
        elif not self._refused:
            self._refused = refusal_report(event.call.name, event.result, event.output) or ""
        if event.changed_files:
            self._last_edit = self._step
            self._not_run = ""
            self._suite_run = None
        elif whole_suite(event):
            self._suite_run = event
        outcome = test_outcome(event)
        if outcome is not None:
            self._tests.append((self._step, outcome))

    async def before_done(
        self, status: str, answer: str, gate: Gate, runner: ToolRunner
    ) -> AsyncIterator[AgentEvent]:
        """The model would end with `status` on `answer`: before DONE, run the project's tests when due."""
        self.answer = answer
        if status != "DONE" or self.config.mode != "tests" or self._not_run or not self._tests_due():
            return
        changed = [*self._changed(), *self._changed_by_commands()]
        plan = detect_tests(self.root, changed, self.config.test_command)
        if plan is None:
            return
        if self._failed_before():  # the whole suite, as the baseline ran it, to compare the two
            plan = replace(plan, affected=())
        async for item in own_test_run(plan, gate, runner, self.config.timeout):
            if not isinstance(item, OwnRun):
                yield item
            elif item.run is None:
                self._not_run, self._why_not = f"{plan.label}: {item.not_run}", "not allowed"
            elif item.run.empty:  # no tests found: nothing to hold the run to, nothing verified
                self._not_run, self._why_not = f"{plan.label}: no tests were collected", "no tests"
            else:
                self._step += 1
                self._own[self._step] = item.run
                self._tests.append((self._step, item.run.passed))
                if self.baseline is not None and self.baseline.taken:
                    self.baseline = compared(self.baseline, item.run)

    def _failed_before(self) -> bool:
        """Whether the tests failed before the run's first change (in its baseline)."""
        return self.baseline is not None and self.baseline.taken and not self.baseline.passed

    def _tests_due(self) -> bool:
        """Source files changed, and the agent's last test run (if any) came before its last edit — or
        failed after it, in a project whose tests failed before the change too (to tell old failures from
        new ones, the runtime runs them as it ran the baseline)."""
        if self._tests and self._tests[-1][0] > self._last_edit:
            step, passed = self._tests[-1]
            return not passed and step not in self._own and self._failed_before()
        changed = [p for p, (before, now) in self._changed().items() if before != now]
        changed += self._changed_by_commands()
        return any(Path(path).suffix in SOURCE_SUFFIXES for path in changed)

    def ending_checks(self, status: str) -> tuple[Check, ...] | None:
        """The checks of an ending with `status`: DONE is checked, other endings are not (None)."""
        return self.checks() if status == "DONE" else None

    def checks(self) -> tuple[Check, ...]:
        """Every check that applies to the run so far."""
        if self.config.mode == "off":
            return ()
        found: list[Check] = []
        changed = self._changed()
        if changed:
            found.append(self._parse_check(changed))
        # The request reader costs ~80 ms to import: only when a run ends, not before its first request.
        from asi_agent.grounding.request import asks_for_change  # noqa: PLC0415

        real = [path for path, (before, after) in changed.items() if before != after]
        real += [path for path in self._changed_by_commands() if path not in changed]
        planning = self.planning or is_plan_task(self.task)  # a plan changes nothing, and is asked no change
        change_asked = asks_for_change(self.task) and not planning
        if change_asked:
            detail = (
                f"changed {', '.join(real)}" if real else "the request asks for a change and no file changed"
            )
            detail += f"; {self._refused}" if self._refused and not real else ""
            found.append(Check("change_made", bool(real), detail))
        if self._tests and self._last_edit >= 0:  # tests run only to report on them are not held to passing
            found.append(self._test_check())
        elif self._not_run:
            not_run = f"not run ({self._why_not}): {self._not_run}"
            found.append(Check("tests_pass", False, not_run, required=False))
        tested = bool(self._tests) and self._tests[-1][0] > self._last_edit
        answered = bool(self.answer)
        steps = (
            None
            if planning
            else steps_check(self.task, edited=bool(real), tested_after_edit=tested, answered=answered)
        )
        found += [steps] if steps is not None else []
        found.append(
            Check(
                "reply_complete",
                not self.answer_cut,
                "the answer continues a reply cut for repeating itself"
                if self.answer_cut
                else "no reply cut off",
            )
        )
        if not change_asked and not real:
            found.append(answer_check(self.answer, self._seen, self.task))
        evidence = f"{self.calls_ok} tool call(s) succeeded" if self.calls_ok else "no tool call succeeded"
        found.append(Check("tool_evidence", self.calls_ok > 0, evidence, required=False))
        return tuple(found)

    def settled(self, status: Status, answer: str, checks: tuple[Check, ...] | None) -> tuple[Status, str]:
        """The ending a run gets: a DONE whose required checks still fail (after the model was told)
        becomes STOP, its result "Not verified (…). <answer>"."""
        failed = [check for check in checks or () if check.required and not check.ok]
        if status != "DONE" or not failed:
            return status, answer
        reasons = "; ".join(f"{check.name}: {check.detail}" for check in failed)
        return "STOP", f"Not verified ({reasons}). {answer}".strip()

    def nag_text(self, failed: list[Check]) -> str:
        """`nag_text`, with the failures of the runtime's own test run when they are what failed."""
        text = nag_text(failed)
        step, passed = self._tests[-1] if self._tests else (0, True)
        if not passed and step in self._own and any(check.name == "tests_pass" for check in failed):
            text += f"\n\nThe runtime's test run:\n{self._own[step].output[-_SHOWN_OUTPUT:]}"
        return text

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
        if step in self._own:
            return after_check(self._own[step], self.baseline, self.task)
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
