"""The grounder narrows each turn: the task's tools, the project's real values, no repeats, honest endings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from asi_agent.backends.guide import TurnPlan
from asi_agent.grounding import Grounder, GrounderConfig
from asi_agent.grounding.choices import exclude_repeat
from asi_agent.grounding.guide import NOTHING_FOUND
from asi_agent.grounding.task import classify, language, quoted
from asi_agent.messages import Message, ToolCall
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "calc"
    (root / "src").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n")
    (root / "config.toml").write_text('name = "calc"\nport = 8080\n')
    (root / "src" / "cart.py").write_text("class Cart:\n    pass\n")
    (root / "tests" / "test_calc.py").write_text("from calc import add\n")
    return root


@pytest.fixture
def grounder(project: Path) -> Grounder:
    ctx = ToolContext(root=project, journal=Journal(project / ".asi"), session_id="t")
    return Grounder(ctx, default_registry())


def _tools(plan: TurnPlan) -> dict[str, dict[str, Any]]:
    return {t["function"]["name"]: t["function"]["parameters"] for t in plan.tools}


async def _after(grounder: Grounder, task: str, call: ToolCall) -> list[Message]:
    """The conversation after the model made `call` and it really ran."""
    runner = ToolRunner(grounder.registry, grounder.ctx)
    outcome = await runner.execute(runner.prepare(call))
    return [
        Message("user", task),
        Message("assistant", "", (call,)),
        outcome.message(),
    ]


@pytest.mark.parametrize(
    ("task", "intent"),
    [
        ("Show me the contents of calc.py.", "show"),
        ("List the files in the src folder.", "list"),
        ("Where is the function mul defined?", "find"),
        ("What port is set in config.toml?", "answer"),
        ("Fix the bug in calc.py: return `a + b`, not `a - b`.", "edit"),
        ("Create a file hello.txt containing `hi`.", "create"),
        ("Run the tests.", "test"),
        ("显示 calc.py 的内容", "show"),
    ],
)
def test_the_intent_is_read_from_the_task(task: str, intent: str) -> None:
    assert classify(task) == intent


def test_language_and_quoted_values() -> None:
    assert language("显示 calc.py 的内容") == "zh"
    assert language("Show me calc.py") == "en"
    assert quoted("change `a - b` to \"a + b\" or 'x'") == ["a - b", "a + b", "x"]


async def test_a_file_the_task_names_is_the_only_path_offered(grounder: Grounder) -> None:
    plan = await grounder.plan([Message("user", "Show me the contents of calc.py.")])
    assert list(_tools(plan)) == ["read_file"]
    assert _tools(plan)["read_file"]["properties"]["path"]["enum"] == ["calc.py"]
    assert not plan.allow_answer  # nothing has been read yet
    assert "Project files:" in plan.system and "return a - b" in plan.system  # tree and the small file
    assert plan.system.endswith("Answer in English.")
    assert plan.example and plan.example[0][0] == "user"


async def test_with_no_file_named_the_paths_are_files_holding_the_tasks_words(grounder: Grounder) -> None:
    async def paths(task: str) -> list[str]:
        plan = await grounder.plan([Message("user", task)])
        offered: list[str] = _tools(plan)["read_file"]["properties"]["path"]["enum"]
        return offered

    assert await paths("What does the cart module hold?") == ["src/cart.py"]
    assert await paths("Which port is configured?") == ["config.toml"]
    # No file holds a word of the task: the project's files, ranked.
    assert set(await paths("What is the colour of the sky?")) == {
        "calc.py",
        "config.toml",
        "src/cart.py",
        "tests/test_calc.py",
    }


async def test_folders_are_real_folders(grounder: Grounder) -> None:
    plan = await grounder.plan([Message("user", "List the files in the src folder.")])
    assert _tools(plan)["list_directory"]["properties"]["path"]["enum"] == ["src"]
    plan = await grounder.plan([Message("user", "List the files of the project.")])
    assert _tools(plan)["list_directory"]["properties"]["path"]["enum"] == ["."]


async def test_a_definition_found_once_is_read_where_it_is(grounder: Grounder) -> None:
    plan = await grounder.plan([Message("user", "Where is the function mul defined?")])
    assert _tools(plan)["read_file"]["properties"] == {
        "path": {"enum": ["calc.py"]},
        "startLine": {"enum": [5]},
        "endLine": {"enum": [8]},
    }


async def test_symbols_come_from_the_index(grounder: Grounder) -> None:
    (grounder.ctx.root / "src" / "fast.py").write_text("def mul(a, b):\n    return a * b\n")
    plan = await grounder.plan([Message("user", "Where is the function mul defined?")])
    # Two definitions: not one exact answer, so the model looks it up among the index's symbols.
    assert _tools(plan)["find_code_location"]["properties"]["search"]["enum"] == ["mul"]
    plan = await grounder.plan([Message("user", "Where is the function nosuchthing defined?")])
    assert "find_code_location" not in _tools(plan)


async def test_after_a_read_the_edit_is_closed_to_text_in_that_file(project: Path) -> None:
    # A bigger local model: when the request states no edit the reader derives, it may make the change itself.
    ctx = ToolContext(root=project, journal=Journal(project / ".asi"), session_id="t")
    grounder = Grounder(ctx, default_registry(), GrounderConfig(quote_answers=False))
    task = "Fix the bug in calc.py: where it has `a - b` we want `a + b`."  # no edit the reader derives
    first = await grounder.plan([Message("user", task)])
    assert list(_tools(first)) == ["read_file"]
    messages = await _after(grounder, task, ToolCall("c1", "read_file", {"path": "calc.py"}))
    plan = await grounder.plan(messages)
    replace = _tools(plan)["replace_text"]["properties"]
    assert replace["path"]["enum"] == ["calc.py"]
    assert replace["oldText"]["enum"] == ["a - b"]  # the quoted value that occurs in the file
    assert all(old in (grounder.ctx.root / "calc.py").read_text() for old in replace["oldText"]["enum"])
    assert replace["newText"]["enum"] == ["a + b"]
    assert "read_file" not in _tools(plan)  # the only file was read: repeating it is not offered
    assert not plan.allow_answer  # an edit task is answered only after the change


async def test_after_the_change_only_a_quoted_answer_is_left(grounder: Grounder) -> None:
    task = "In config.toml, change `port = 8080` to `port = 9090`."
    messages = await _after(grounder, task, ToolCall("c1", "read_file", {"path": "config.toml"}))
    call = ToolCall(
        "c2", "replace_text", {"path": "config.toml", "oldText": "port = 8080", "newText": "port = 9090"}
    )
    messages += (await _after(grounder, task, call))[1:]
    plan = await grounder.plan(messages)
    assert plan.tools == [] and plan.allow_answer
    assert plan.answer["enum"][0].startswith("Replaced") or "config.toml" in plan.answer["enum"][0]
    assert grounder.judge(messages, plan.answer["enum"][0]) is None


async def test_an_identical_repeat_is_not_offered(grounder: Grounder) -> None:
    task = "Fix the wrong return in calc.py: where it has `a - b` we want `a + b`."
    messages = await _after(grounder, task, ToolCall("c1", "read_file", {"path": "calc.py"}))
    failed = ToolCall("c2", "replace_text", {"path": "calc.py", "oldText": "a - b", "newText": "a + b"})
    messages += [
        Message("assistant", "", (failed,)),
        Message(
            "tool", "ERROR: the file changed on disk", tool_call_id="c2", name="replace_text", outcome="error"
        ),
    ]
    plan = await grounder.plan(messages)
    assert "replace_text" not in _tools(plan)  # its only call is the one that just failed
    # Nothing left to write with: reading on would loop; the answer the judge turns into STOP ends it.
    assert _tools(plan) == {} and plan.allow_answer
    assert grounder.judge(messages, "calc.py") == "the task asks for a change and no change was made"


async def test_an_edit_whose_new_text_is_not_stated_is_never_invented(grounder: Grounder) -> None:
    task = "Fix the bug in calc.py."
    messages = await _after(grounder, task, ToolCall("c1", "read_file", {"path": "calc.py"}))
    plan = await grounder.plan(messages)
    # No new text to close newText to: a free one would be invented (or copied from the worked example).
    assert "replace_text" not in _tools(plan)
    reason = grounder.judge(messages, "calc.py (6 lines)")
    assert reason == "the task asks for a change and no change was made"


def test_a_repeat_is_excluded_variant_by_variant() -> None:
    schema = {
        "type": "function",
        "function": {
            "name": "t",
            "parameters": {
                "type": "object",
                "properties": {"a": {"enum": ["x", "y"]}, "b": {"enum": ["p", "q"]}, "c": {"type": "string"}},
            },
        },
    }
    narrowed = exclude_repeat(schema, {"a": "x", "b": "p", "c": "free"})
    assert narrowed is not None
    variants = narrowed["function"]["parameters"]["anyOf"]
    assert [v["properties"]["a"]["enum"] for v in variants] == [["y"], ["x"]]
    assert [v["properties"]["b"]["enum"] for v in variants] == [["p", "q"], ["q"]]
    free_only = {
        "type": "function",
        "function": {"name": "t", "parameters": {"properties": {"c": {"type": "string"}}}},
    }
    assert exclude_repeat(free_only, {"c": "same"}) is None  # nothing closed could change: not offered
    assert exclude_repeat(schema, None) is schema


async def test_the_answer_quotes_what_was_read(grounder: Grounder) -> None:
    task = "What port is set in config.toml?"
    messages = await _after(grounder, task, ToolCall("c1", "read_file", {"path": "config.toml"}))
    plan = await grounder.plan(messages)
    assert plan.tools == [] and plan.allow_answer
    assert plan.answer["enum"][0] == "port = 8080"
    show = await _after(grounder, "Show me config.toml", ToolCall("c1", "read_file", {"path": "config.toml"}))
    assert (await grounder.plan(show)).answer["enum"] == ['name = "calc"\nport = 8080']


async def test_a_bigger_model_answers_freely_and_sees_every_parameter(project: Path) -> None:
    ctx = ToolContext(root=project, journal=Journal(project / ".asi"), session_id="t")
    grounder = Grounder(ctx, default_registry(), GrounderConfig(quote_answers=False, all_parameters=True))
    messages = await _after(
        grounder, "What port is set in config.toml?", ToolCall("c1", "read_file", {"path": "config.toml"})
    )
    plan = await grounder.plan(messages)
    assert plan.answer["type"] == "string" and "enum" not in plan.answer
    first = await grounder.plan([Message("user", "Show me calc.py")])
    assert set(_tools(first)["read_file"]["properties"]) == {"path", "startLine", "endLine"}


async def test_honest_ending(grounder: Grounder) -> None:
    task = "What port is set in config.toml?"
    assert grounder.judge([Message("user", task)], "port 8080") is not None  # nothing was read
    messages = await _after(grounder, task, ToolCall("c1", "read_file", {"path": "config.toml"}))
    assert grounder.judge(messages, "port = 8080") is None
    assert grounder.judge(messages, "The moon is made of cheese") is not None
    edit = "Fix the bug in calc.py: return `a + b`, not `a - b`."
    read = await _after(grounder, edit, ToolCall("c1", "read_file", {"path": "calc.py"}))
    assert (
        grounder.judge(read, "def add(a, b): return a - b")
        == "the task asks for a change and no change was made"
    )


async def test_a_chinese_task_gets_chinese_tools_and_reply_language(grounder: Grounder) -> None:
    plan = await grounder.plan([Message("user", "显示 calc.py 的内容")])
    assert plan.system.endswith("用中文回答。")
    description = plan.tools[0]["function"]["description"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in description)


async def test_a_large_project_offers_its_most_relevant_subset(tmp_path: Path) -> None:
    root = tmp_path / "big"
    for index in range(500):
        folder = root / f"pkg{index % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{index}.py").write_text("x = 1\n")
    ctx = ToolContext(root=root, journal=Journal(root / ".asi"), session_id="t")
    plan = await Grounder(ctx, default_registry()).plan([Message("user", "What is in mod137?")])
    paths = _tools(plan)["read_file"]["properties"]["path"]["enum"]
    assert len(paths) == 12 and paths[0] == "pkg17/mod137.py"
    assert "Project files:" not in plan.system  # too many files for the first prompt


async def test_with_nothing_to_work_from_the_only_answer_ends_stop(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    ctx = ToolContext(root=root, journal=Journal(root / ".asi"), session_id="t")
    grounder = Grounder(ctx, default_registry())
    messages = [Message("user", "Show me the contents of greet.py.")]
    plan = await grounder.plan(messages)
    assert plan.tools == [] and plan.allow_answer
    assert plan.answer == {"enum": [NOTHING_FOUND]}
    assert grounder.judge(messages, NOTHING_FOUND) is not None


def _admits(parameters: dict[str, Any], arguments: dict[str, Any]) -> bool:
    """Whether a grounded schema's closed parameters (or one of its variants) admit these arguments."""
    if "anyOf" in parameters:
        return any(_admits(variant, arguments) for variant in parameters["anyOf"])
    closed = {n: p["enum"] for n, p in parameters.get("properties", {}).items() if "enum" in p}
    return all(arguments.get(name) in values for name, values in closed.items())


async def test_a_call_made_earlier_in_the_task_is_not_offered_again(grounder: Grounder) -> None:
    """grep_search, read_file, then the same grep_search again: no turn may offer a call the task already
    made (since its latest write), not only the one just made — the gate would refuse it anyway."""
    task = "Search for the word pass"
    first = _tools(await grounder.plan([Message("user", task)]))
    assert "grep_search" in first
    search = {n: p["enum"][0] for n, p in first["grep_search"]["properties"].items() if "enum" in p}
    messages = await _after(grounder, task, ToolCall("c1", "grep_search", search))
    read = ToolCall("c2", "read_file", {"path": "src/cart.py"})
    runner = ToolRunner(grounder.registry, grounder.ctx)
    outcome = await runner.execute(runner.prepare(read))
    messages += [Message("assistant", "", (read,)), outcome.message()]
    later = _tools(await grounder.plan(messages))
    assert "grep_search" not in later or not _admits(later["grep_search"], search)
    assert "read_file" not in later or not _admits(later["read_file"], {"path": "src/cart.py"})


def test_several_earlier_calls_are_excluded_one_after_the_other() -> None:
    schema = {
        "type": "function",
        "function": {
            "name": "grep_search",
            "parameters": {
                "type": "object",
                "properties": {"pattern": {"enum": ["a", "b", "c"]}, "path": {"enum": [".", "src"]}},
            },
        },
    }
    once = exclude_repeat(schema, {"pattern": "a", "path": "."})
    twice = exclude_repeat(once, {"pattern": "b", "path": "."}) if once else None
    assert twice is not None
    parameters = twice["function"]["parameters"]
    assert not _admits(parameters, {"pattern": "a", "path": "."})
    assert not _admits(parameters, {"pattern": "b", "path": "."})
    assert _admits(parameters, {"pattern": "c", "path": "."}) and _admits(
        parameters, {"pattern": "a", "path": "src"}
    )
