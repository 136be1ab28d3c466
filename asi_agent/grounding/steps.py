"""A request's plan of steps, followed turn by turn: each step a call with every argument decided.

Built once per task from the request reader (`grounding.request`) and the project's files
(`grounding.derive`): "run the tests" clauses become `run_tests`, the edits the request states become the
calls that make them. Each turn offers the first step that has not yet succeeded — as the one possible
reply, so the model decodes nothing that grounding already knows — and when every step has succeeded the
answer says what was done. A step that fails ends the plan: the turn goes back to the model.
A request that asks for a change but names nothing to change by (no file, no quoted text, no value, no
name the project holds) is unclear: the run ends STOP with a suggestion of how to phrase it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asi_agent.backends.guide import result_ok
from asi_agent.grounding.clauses import asks_for_change, clauses
from asi_agent.grounding.derive import PlannedCall, plan_calls
from asi_agent.grounding.project import ProjectView
from asi_agent.grounding.questions import answer_question
from asi_agent.grounding.repair import repairs
from asi_agent.grounding.request import Edit, edits
from asi_agent.grounding.task import language, quoted, words
from asi_agent.messages import Message, RawCall, ToolCall
from asi_agent.refusals import refusal_report

__all__ = ["CANNOT", "REFUSED", "SENTENCE", "UNCLEAR", "RequestPlan", "forced_schema", "framed"]

UNCLEAR = {
    "en": (
        "I can't tell what to change: the request names no file, text or value. Say what to change and "
        "how, for example: in app.py, change `Hi` to `Welcome`."
    ),
    "zh": (
        "看不出要改什么：请求里没有文件、文本或值。"
        "请说明改哪里、改成什么，例如：把 app.py 里的 `Hi` 改成 `Welcome`。"
    ),
}
SENTENCE = r"^[A-Z][a-z]+( [a-z_]{1,20}){1,11}[.]$"
"""What the model may write where a step leaves it a sentence (a docstring's words): one sentence of
words, 2 to 12 of them, ending at its one full stop (no quote: a quote in a pattern breaks llama.cpp's
grammar of the JSON string; no digits: a tiny model would run on with numbers)."""
CANNOT = "Could not work out the exact change"
REFUSED = "Not done: "
"""How the answer begins when a step of the plan was refused (the run then ends STOP)."""
"""How the answer begins when a change request is left with no exact step (the run then ends STOP)."""
_COVERED = re.compile(
    r"\b(?:callers?|calls?|usages?|uses|references?|imports?|call sites?)\b|调用|引用|用到|导入",
    re.IGNORECASE,
)
_RUN_TESTS = re.compile(r"\b(?:run|execute|rerun)\b.{0,20}\btests?\b|运行测试|跑(?:一下)?测试", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class RequestPlan:
    """The steps of one task, and whether the request is too unclear to act on."""

    root: Path
    steps: tuple[PlannedCall, ...]
    open_ended: bool
    """Some change clause states no edit ("fix what fails"): after the steps the model goes on."""
    unclear: str | None
    answer: str | None = None
    """For a question the files answer exactly (`grounding.questions`): the answer, once its read is made."""

    @classmethod
    def build(cls, task: str, view: ProjectView) -> RequestPlan:
        """Read the request and work its edits out on the project's files."""
        steps: list[PlannedCall] = []
        parts = clauses(task)
        if parts and not parts[0].change and _RUN_TESTS.search(parts[0].text):
            steps.append(PlannedCall("run_tests", {}))
        if not asks_for_change(task) and (answered := answer_question(task, view)) is not None:
            return cls(view.root, (answered.step,), False, None, answered.answer)
        stated = edits(task)
        steps.extend(plan_calls(stated, view, task))
        if not stated:  # "fix the failing test": the change the tests' assertions settle, if any
            for fix in repairs(task, view):
                edit = Edit("returns", new=fix.expression, target=fix.function, context=task)
                stated.append(edit)
                steps.extend(plan_calls([edit], view, fix.path))
        renames = any(edit.kind == "rename" for edit in stated)
        changes = [c for c in parts if c.change and not (renames and _COVERED.search(c.text))]
        open_ended = bool(changes) and len(stated) < len(changes)
        if not stated and any(PlannedCall("run_tests", {}) == step for step in steps[:1]):
            open_ended = True
        return cls(view.root, tuple(steps), open_ended, _unclear(task, view) if not stated else None)

    def next_step(self, results: Sequence[tuple[Message, ToolCall | None]]) -> PlannedCall | None:
        """The first step not yet done; None when all are done or one of them failed."""
        for step in self.steps:
            outcome = self._outcome(step, results)
            if outcome is None:
                return step
            if not outcome:
                return None
        return None

    def failed(self, results: Sequence[tuple[Message, ToolCall | None]]) -> bool:
        """Whether a step was tried and did not succeed."""
        return any(self._outcome(step, results) is False for step in self.steps)

    def done(self, results: Sequence[tuple[Message, ToolCall | None]]) -> bool:
        """Whether there were steps and every one has succeeded."""
        return bool(self.steps) and all(self._outcome(step, results) for step in self.steps)

    def _outcome(self, step: PlannedCall, results: Sequence[tuple[Message, ToolCall | None]]) -> bool | None:
        """True when the step's call succeeded (or its file already reads as the step leaves it), False
        when it was made and failed, None when it is still to be made."""
        seen: bool | None = None
        for result, call in results:
            if call is not None and _same(step, call):
                if result_ok(result):
                    return True
                seen = False
        if seen is None and step.after is not None:
            try:
                now = (self.root / str(step.arguments["path"])).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return None
            return True if now.rstrip("\n") == step.after.rstrip("\n") else None
        return seen

    def beyond(self, results: Sequence[tuple[Message, ToolCall | None]]) -> bool:
        """Whether the request needs a change no step of the plan makes: no steps, a step failed, or the
        steps are done and a clause is left that states no edit."""
        return not self.steps or self.failed(results) or (self.done(results) and self.open_ended)

    def cannot(self, results: Sequence[tuple[Message, ToolCall | None]]) -> str:
        """The honest answer for `beyond`: what was done, and that the rest could not be worked out (or,
        when a step was refused, that it was, and the flag that allows it)."""
        done = self.summary(results) if self.answer is None else ""
        for result, call in results:
            planned = call is not None and any(_same(step, call) for step in self.steps)
            refused = refusal_report(call.name, result.outcome or "ok", result.body) if call else None
            if planned and refused is not None:
                text = f"{REFUSED}{refused}."
                return f"{done}\n{text}" if done else text
        hint = "say what to change and how, for example: in app.py, change `Hi` to `Welcome`"
        text = f"{CANNOT} from the request; {hint}."
        return f"{done}\n{text}" if done else text

    def summary(self, results: Sequence[tuple[Message, ToolCall | None]]) -> str:
        """The answer of a question; for changes, what the steps did, one line each."""
        if self.answer is not None:
            return self.answer
        lines = []
        for step in self.steps:
            for result, call in results:
                if call is not None and _same(step, call) and result_ok(result):
                    lines.append(result.content.splitlines()[0] if result.content else step.name)
                    break
        return "\n".join(dict.fromkeys(lines))


def forced_schema(step: PlannedCall) -> dict[str, Any]:
    """A tool schema that admits exactly the step's call."""
    properties: dict[str, dict[str, Any]] = {
        name: {"enum": [value]} for name, value in step.arguments.items()
    }
    # What the model writes (a docstring's words): one sentence; `framed` puts the planned text around it.
    properties.update({key: {"type": "string", "pattern": SENTENCE} for key in step.open})
    return {
        "type": "function",
        "function": {
            "name": step.name,
            "description": "",
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": list(properties),
                "additionalProperties": False,
            },
        },
    }


def framed(step: PlannedCall, call: RawCall) -> RawCall:
    """The model's call of a step it writes a sentence of, with the step's planned text around the
    sentence; any other call as it is."""
    arguments = call.arguments
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError:
            return call
    if not step.open or call.name != step.name or not isinstance(arguments, dict):
        return call
    given = dict(arguments)
    for name, (before, after) in step.open.items():
        if isinstance(given.get(name), str):
            given[name] = f"{before}{given[name]}{after}"
    return RawCall(call.id, call.name, given)


def _same(step: PlannedCall, call: ToolCall) -> bool:
    if not step.open:
        return call.name == step.name and dict(call.arguments) == step.arguments
    given = dict(call.arguments)
    written = [(given.pop(name, None), around) for name, around in step.open.items()]
    framed_ok = all(
        isinstance(text, str) and text.startswith(before) and text.endswith(after)
        for text, (before, after) in written
    )
    return call.name == step.name and given == step.arguments and framed_ok


def _unclear(task: str, view: ProjectView) -> str | None:
    """The suggestion for a change request with nothing to act on, else None."""
    if not asks_for_change(task) or quoted(task) or view.mentioned_files(task) or view.new_files(task):
        return None
    if re.search(r"\d", task):
        return None
    names = [w for w in words(task) if len(w) > 3]
    texts = [text for f in view.files[:300] if (text := view.small_text(f, 100_000))]
    if any(re.search(rf"\b{re.escape(name)}\b", text) for name in names for text in texts):
        return None
    return UNCLEAR[language(task)]
