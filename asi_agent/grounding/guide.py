"""The grounder: each turn, the tools the task's intent needs, their arguments closed to the project.

Tools by intent (read → answer; list → answer; find → answer; read → replace_text → answer;
create_file → answer; run_tests → answer); once the intent's goal is met only an answer is left, and
for a small model that answer quotes the result it rests on. An identical repeat of the previous call
is never offered. The first prompt carries the file tree of a small project and the small files the task
names, plus a worked example.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from asi_agent.backends.guide import TurnPlan, latest_task_index, result_ok, run_results, unfounded_answer
from asi_agent.grounding.answers import answer_options, fitting_texts, question_words
from asi_agent.grounding.choices import close_parameter, exclude_repeat, quote_lines, ranked_lines
from asi_agent.grounding.examples import worked_example
from asi_agent.grounding.project import ProjectView
from asi_agent.grounding.questions import unquotable
from asi_agent.grounding.steps import CANNOT, REFUSED, UNCLEAR, RequestPlan, forced_schema, framed
from asi_agent.grounding.strict import strict_schema
from asi_agent.grounding.task import Intent, classify, language, quoted, words
from asi_agent.messages import Message, RawCall, ToolCall
from asi_agent.tools.base import ToolContext
from asi_agent.tools.registry import ToolRegistry

__all__ = ["Grounder", "GrounderConfig", "latest_task"]

WRITE_TOOLS = frozenset({"create_file", "replace_text", "replace_lines", "insert_line", "delete_lines"})
_FIXED_TOOLS: dict[str, tuple[str, ...]] = {
    "list": ("list_directory",),
    "create": ("create_file",),
    "test": ("run_tests",),
}
NOTHING_FOUND = "Nothing in the project fits the task."
UNSURE = "No exact answer:"
"""How the embedded model's answer to a question it could only guess at begins (the run then ends STOP)."""
"""The embedded model's only answer when no tool result succeeded (the run then ends STOP)."""
_ROLE = "You are asi-agent, a coding assistant. You work on the project below through its tools."
_REPLY_LANGUAGE = {"en": "Answer in English.", "zh": "用中文回答。"}


@dataclass(frozen=True, slots=True, kw_only=True)
class GrounderConfig:
    """How far the grounder narrows."""

    quote_answers: bool = True
    """The answer must quote the result it rests on (a tiny model); False lets it write freely."""
    all_parameters: bool = False
    """Offer every parameter of a tool, not just the ones that matter (a bigger model)."""
    max_choices: int = 12
    """Most values offered for one parameter: a large project offers its most relevant subset."""
    max_answers: int = 4
    """Most answers offered to a question: the lines of the result that fit it best."""
    tree_files: int = 40
    """Projects with at most this many files get their file list in the first prompt."""
    inline_bytes: int = 1500
    """Files the task names that are at most this big get their text in the first prompt."""


def latest_task(messages: Sequence[Message]) -> str:
    """The text of the task being worked on: the latest user turn the runtime did not write."""
    index = latest_task_index(messages)
    return messages[index].content if index >= 0 else ""


class Grounder:
    """A `Guide` for one run in one project (see the module docstring)."""

    def __init__(
        self, ctx: ToolContext, registry: ToolRegistry, config: GrounderConfig | None = None
    ) -> None:
        self.ctx, self.registry = ctx, registry
        self.config = config or GrounderConfig()
        self._view: ProjectView | None = None
        self._symbols: dict[str, list[str]] = {}
        self._fitting: dict[str, list[str]] = {}  # per task: files holding its words, kept until a write
        self._requests: dict[tuple[str, int], RequestPlan] = {}

    @property
    def view(self) -> ProjectView:
        """The project's files, walked on first use and again after a write."""
        if self._view is None:
            self._view = ProjectView.scan(self.ctx.root)
        return self._view

    async def plan(self, messages: Sequence[Message]) -> TurnPlan:
        """The tools, answer and prompt of the next turn: the request's next planned step, its summary
        once every step is done, or (no plan, or a step failed) the tools of its intent."""
        task = latest_task(messages)
        intent, lang = classify(task), language(task)
        request = self._request_plan(messages, task)  # before a write of this task changes the files
        results = run_results(messages)
        if any(call and call.name in WRITE_TOOLS for _, call in results):
            self._view = None  # a write may have added a file
            self._fitting.clear()
        system = self._orientation(task, lang)
        own = self.config.quote_answers
        if (step := request.next_step(results)) is not None:
            return TurnPlan(tools=[forced_schema(step)], allow_answer=False, system=system, own_system=own)
        if request.done(results) and not request.open_ended:
            summary = {"enum": [request.summary(results)]}
            return TurnPlan(tools=[], allow_answer=True, answer=summary, system=system, own_system=own)
        if request.unclear and not results:
            unclear = {"enum": [request.unclear]}
            return TurnPlan(tools=[], allow_answer=True, answer=unclear, system=system, own_system=own)
        made = _goal_met(intent, results) and not request.steps  # the model's own change, not a planned one
        if own and intent in ("edit", "create") and request.beyond(results) and not made:
            # No exact step left for a change: the tiny model is never left to write text nobody stated.
            ending = {"enum": [request.cannot(results)]}
            return TurnPlan(tools=[], allow_answer=True, answer=ending, system=system, own_system=own)
        done = _goal_met(intent, results)
        earlier_calls = _calls_since_write(results)
        schemas: list[dict[str, Any]] = []
        if not done:
            for name in await self._tools(intent, task, results):
                schema = await self._grounded(name, task, results, lang)
                for earlier in (call for call in earlier_calls if call.name == name):
                    schema = exclude_repeat(schema, earlier.arguments) if schema is not None else None
                if schema is not None:
                    schemas.append(schema)
        succeeded = any(result_ok(result) for result, _ in results)
        if (
            intent in ("edit", "create")
            and succeeded
            and not any(schema["function"]["name"] in WRITE_TOOLS for schema in schemas)
        ):
            schemas = []  # nothing left to write with: reading on would loop; the answer ends it honestly
        allow = done or not schemas or (succeeded and intent not in ("edit", "create"))
        return TurnPlan(
            tools=schemas,
            allow_answer=allow,
            answer=self._answer(intent, task, results),
            system=system,
            example=worked_example(lang, edit=intent in ("edit", "create")),
            own_system=own,
        )

    def _request_plan(self, messages: Sequence[Message], task: str) -> RequestPlan:
        """The plan of the task being worked on, built on its first turn (and kept for its later turns)."""
        key = (task, latest_task_index(messages))
        if key not in self._requests:
            self._requests = {key: RequestPlan.build(task, self.view)}
        return self._requests[key]

    def judge(self, messages: Sequence[Message], answer: str) -> str | None:
        """Why the answer cannot end the task as DONE (an edit with no change, or invented text)."""
        if answer in UNCLEAR.values() or answer.startswith(UNSURE) or CANNOT in answer or REFUSED in answer:
            return answer.rstrip(".")
        plan = self._requests.get((latest_task(messages), latest_task_index(messages)))
        if plan is not None and plan.answer is not None and answer == plan.answer:
            return None  # worked out from the files, and the read it rests on was made
        intent = classify(latest_task(messages))
        results = run_results(messages)
        if intent in ("edit", "create") and not _goal_met(intent, results):
            return "the task asks for a change and no change was made"
        return unfounded_answer(messages, answer)

    def framed(self, messages: Sequence[Message], calls: Sequence[RawCall]) -> tuple[RawCall, ...]:
        """The model's calls, the step it was left a sentence of framed by the step's planned text."""
        plan = self._requests.get((latest_task(messages), latest_task_index(messages)))
        step = plan.next_step(run_results(messages)) if plan is not None else None
        return tuple(calls) if step is None else tuple(framed(step, call) for call in calls)

    # -- the tools of a turn --------------------------------------------------------------------

    async def _tools(
        self, intent: Intent, task: str, results: Sequence[tuple[Message, ToolCall | None]]
    ) -> list[str]:
        if intent in _FIXED_TOOLS:
            return list(_FIXED_TOOLS[intent])
        if intent == "edit":
            return ["replace_text", "read_file"] if _read_paths(results) else ["read_file"]
        if intent == "find":
            return (
                ["find_code_location"] if await self._task_symbols(task) else ["grep_search", "file_search"]
            )
        return ["read_file"] if self.view.mentioned_files(task) else ["read_file", "grep_search"]

    async def _grounded(
        self, name: str, task: str, results: Sequence[tuple[Message, ToolCall | None]], lang: str
    ) -> dict[str, Any] | None:
        schema = strict_schema(self.registry.get(name), lang, all_parameters=self.config.all_parameters)
        if name == "replace_text":
            return self._replace(schema, task, results)
        if name == "create_file":
            return self._create(schema, task)
        if name == "find_code_location":  # a symbol the index knows: look it up exactly
            found = close_parameter(
                schema, "search", (await self._task_symbols(task))[: self.config.max_choices]
            )
            return _with_default(found, "searchType", "exact")
        closed = self._closed_values(name, task)
        return schema if closed is None else close_parameter(schema, *closed)

    def _closed_values(self, name: str, task: str) -> tuple[str, list[str]] | None:
        """The parameter of a reading tool closed to the project's values, and those values."""
        view, limit = self.view, self.config.max_choices
        stems = {f.rsplit("/", 1)[-1].split(".")[0].lower() for f in view.files}
        table: dict[str, tuple[str, Callable[[], list[str]]]] = {
            "read_file": ("path", lambda: self._read_choices(task)),
            # A task that names no folder means the project itself.
            "list_directory": ("path", lambda: view.mentioned_dirs(task)[:limit] or ["."]),
            "grep_search": ("pattern", lambda: self._patterns(task)[:limit]),
            "file_search": ("pattern", lambda: [w for w in words(task) if w.lower() in stems][:limit]),
        }
        entry = table.get(name)
        return (entry[0], entry[1]()) if entry else None

    def _read_choices(self, task: str) -> list[str]:
        """Files the task names; else those holding a value it quotes; else those holding its words; else
        the best-ranked files."""
        view, limit = self.view, self.config.max_choices
        if named := view.mentioned_files(task):
            return named[:limit]
        if task not in self._fitting:
            texts = [(f, text) for f in view.files[:300] if (text := view.small_text(f, 100_000))]
            values = quoted(task)
            holding = [f for f, text in texts if any(v in text for v in values)]
            self._fitting[task] = holding or fitting_texts(texts, question_words(task))
        return self._fitting[task][:limit] or view.ranked_files(task, limit)

    def _patterns(self, task: str) -> list[str]:
        """Quoted values and task words that occur in some project file (as escaped regular expressions)."""
        candidates = [*quoted(task), *words(task)]
        texts = [view for view in (self.view.small_text(f, 100_000) for f in self.view.files[:300]) if view]
        return [re.escape(c) for c in candidates if any(c in text for text in texts)]

    async def _task_symbols(self, task: str) -> list[str]:
        """Symbols of the code index that the task names (the index is built on first use)."""
        if task not in self._symbols:
            from asi_agent.tools.code.sessionindex import open_index  # noqa: PLC0415  # sqlite, only when needed

            index = await open_index(self.ctx)
            wanted = [w.lower() for w in words(task)]
            marks = ",".join("?" * len(wanted)) or "''"
            with index.lock:
                rows = index.conn.execute(
                    f"SELECT DISTINCT name FROM symbols WHERE lower(name) IN ({marks})", wanted
                ).fetchall()
            self._symbols[task] = sorted({str(row[0]) for row in rows}, key=lambda s: wanted.index(s.lower()))
        return self._symbols[task]

    def _replace(
        self, schema: dict[str, Any], task: str, results: Sequence[tuple[Message, ToolCall | None]]
    ) -> dict[str, Any] | None:
        values = quoted(task)
        variants: list[dict[str, Any]] = []
        for path in _read_paths(results)[:3]:
            text = self.view.small_text(path, 200_000) or ""
            # A value the task quotes that occurs in the file is what to replace; else lines with its words.
            olds = [v for v in values if v in text] or ranked_lines(text, words(task), values, 8)
            narrowed = close_parameter(close_parameter(schema, "path", [path]) or schema, "oldText", olds)
            if narrowed is None:
                continue
            news = [v for v in values if v not in text]
            if not news:  # a new text the request does not state would be invented (or the example's)
                continue
            narrowed = close_parameter(narrowed, "newText", news) or narrowed
            variants.append(narrowed["function"]["parameters"])
        if not variants:
            return None
        schema["function"]["parameters"] = variants[0] if len(variants) == 1 else {"anyOf": variants}
        return schema

    def _create(self, schema: dict[str, Any], task: str) -> dict[str, Any] | None:
        names = self.view.new_files(task)
        if names:
            schema = close_parameter(schema, "path", names) or schema
        else:
            prop = schema["function"]["parameters"]["properties"]["path"]
            prop["pattern"] = r"^[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$"
        contents = [v for v in quoted(task) if v not in names]
        if not contents and self.config.quote_answers:
            return None  # content the request does not state would be invented (or the example's)
        return close_parameter(schema, "content", contents) or schema

    # -- the answer and the prompt -------------------------------------------------------------

    def _answer(
        self, intent: Intent, task: str, results: Sequence[tuple[Message, ToolCall | None]]
    ) -> dict[str, Any]:
        free = {"type": "string", "minLength": 1, "maxLength": 2000}
        good = [(result.content, call) for result, call in results if result_ok(result)]
        if not self.config.quote_answers:
            return free
        if not good:  # nothing to quote: the one honest answer, which the judge turns into STOP
            return {"enum": [NOTHING_FOUND]}
        latest, call = good[-1]
        if intent in ("edit", "create", "test"):
            return {"enum": [latest.splitlines()[0] if intent != "test" else latest[-1500:]]}
        if intent in ("show", "list"):  # answered by the whole result
            return {"enum": [quote_lines(latest)[:3000] or latest[:3000]]}
        return {"enum": self._quoted_answer(task, latest, call)}

    def _quoted_answer(self, task: str, latest: str, call: ToolCall | None) -> list[str]:
        """The lines of the result that answer the question whole, or the one honest "no exact answer"."""
        if (reason := unquotable(task)) is not None:
            return [f"{UNSURE} {reason}."]
        tool = call.name if call else None
        words, quotes, limit = question_words(task), quoted(task), self.config.max_answers
        # Only a line that holds the whole question is an answer; anything less would be a guess.
        exact = answer_options(latest, tool, words, quotes, limit, whole=True)
        if not exact:
            options = answer_options(latest, tool, words, quotes, 1)
            closest = f" The closest line: {_one_line(options[0])}" if options else ""
            return [f"{UNSURE} no line of the result holds everything the question asks.{closest}"]
        return exact

    def _orientation(self, task: str, lang: str) -> str:
        parts: list[str] = [_ROLE] if self.config.quote_answers else []
        tree = self.view.tree(self.config.tree_files)
        if tree is not None:
            parts.append(f"Project files:\n{tree}")
        for path in self.view.mentioned_files(task)[:2]:
            text = self.view.small_text(path, self.config.inline_bytes)
            if text is not None:
                parts.append(f"Content of {path}:\n{text.rstrip()}")
        parts.append(_REPLY_LANGUAGE.get(lang, _REPLY_LANGUAGE["en"]))
        return "\n\n".join(parts)


def _one_line(text: str, limit: int = 160) -> str:
    """The first non-empty line of `text`, cut at a word's end within `limit` characters (then "…")."""
    line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if len(line) <= limit:
        return line
    cut = line[:limit].rsplit(" ", 1)[0] if " " in line[:limit] else line[:limit]
    return f"{cut.rstrip(' ,;:')}…"


def _calls_since_write(results: Sequence[tuple[Message, ToolCall | None]]) -> list[ToolCall]:
    """The task's calls since its latest write: none of them can be made again (a write may change what
    a read returns, so reads before it can)."""
    made: list[ToolCall] = []
    for result, call in results:
        if call is None:
            continue
        made = [] if call.name in WRITE_TOOLS and _ok(result) else made  # a failed write changed nothing
        made.append(call)
    return made


def _ok(result: Message) -> bool:
    return result.ok


def _read_paths(results: Sequence[tuple[Message, ToolCall | None]]) -> list[str]:
    """Paths the run has read successfully, latest first."""
    paths = [
        str(call.arguments.get("path"))
        for result, call in results
        if call and call.name == "read_file" and result_ok(result)
    ]
    return list(dict.fromkeys(reversed(paths)))


def _with_default(schema: dict[str, Any] | None, name: str, value: str) -> dict[str, Any] | None:
    """`schema` with parameter `name` fixed to `value` (a one-item enum), offered even if it was not."""
    if schema is None:
        return None
    parameters = schema["function"]["parameters"]
    parameters["properties"][name] = {"type": "string", "enum": [value]}
    if name not in parameters["required"]:
        parameters["required"].append(name)
    return schema


def _goal_met(intent: Intent, results: Sequence[tuple[Message, ToolCall | None]]) -> bool:
    """Whether the run has what the intent needs: a change made, tests run, or something read."""
    names = [call.name for result, call in results if call and result_ok(result)]
    if intent in ("edit", "create"):
        return any(name in WRITE_TOOLS for name in names)
    if intent == "test":
        return any(call and call.name == "run_tests" for _, call in results)
    return bool(names)
