"""A question's answers are the few lines of a result that fit it best, never the whole file around them."""

from __future__ import annotations

from pathlib import Path

from asi_agent.grounding import Grounder
from asi_agent.grounding.answers import answer_options, question_words, result_units
from asi_agent.messages import Message, ToolCall
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry

GREET = '''"""A tiny module."""


def greet(name):
    return "Hello, " + name + "!"


if __name__ == "__main__":
    print(greet("world"))
'''


def _options(text: str, task: str, limit: int = 4) -> list[str]:
    return answer_options(text, None, question_words(task), [], limit)


def test_a_word_used_only_in_a_file_name_names_the_file() -> None:
    assert question_words("What port is set in config.toml?") == ["port"]
    # "greet" is also used on its own: it names the function as well as the file.
    assert question_words("What does the greet function in greet.py return?") == ["greet", "return"]


def test_a_functions_return_line_answers_what_it_returns() -> None:
    assert _options(GREET, "What does the greet function in greet.py return?") == [
        'return "Hello, " + name + "!"'
    ]


def test_the_return_line_of_the_named_definition_ranks_first() -> None:
    text = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
    # `def mul(a, b):` fits only part of the question (mul, not return): the return line fits all of it.
    # The other function's return does not answer.
    assert _options(text, "What does mul return in calc.py?") == ["return a * b"]


def test_lines_that_fit_the_question_equally_are_all_offered_for_the_model_to_choose() -> None:
    text = 'def parse(text):\n    """Split the text and return its words."""\n    return text.split()\n'
    assert _options(text, "What does parse return?") == [
        '"""Split the text and return its words."""',
        "return text.split()",
    ]


def test_a_settings_key_the_question_names_beats_a_comment_about_it() -> None:
    text = "# the port the server listens on\nhost = 'localhost'\nport = 8080\ndebug = false\n"
    assert _options(text, "Which port does the server use?") == [
        "port = 8080",
        "# the port the server listens on",  # shares more words; the value is on the key's line
    ]
    assert _options('name = "calc"\nport = 8080\ndebug = false\n', "What port is set?") == ["port = 8080"]


def test_rare_words_count_more_than_common_ones() -> None:
    text = "greet one\ngreet two\ngreet three\ngreet and return four\n"
    assert _options(text, "What does greet return?") == ["greet and return four"]


def test_word_forms_match_and_equal_fits_are_all_offered_up_to_the_limit() -> None:
    assert _options("Deadline: Friday\nOwner: Dana\n", "Who owns the project?") == ["Owner: Dana"]
    text = "[server]\nport = 8080\n[dev]\nport = 3000\n[test]\nport = 1\n"
    assert _options(text, "Which port?") == ["port = 8080", "port = 3000", "port = 1"]
    assert _options(text, "Which port?", limit=2) == ["port = 8080", "port = 3000"]


def test_a_quoted_value_picks_its_line_as_a_whole_word() -> None:
    text = "import os\nport = 8080\nreport = True\n"
    assert answer_options(text, None, [], ["port"], 4) == ["port = 8080"]
    assert answer_options("a = [1]\nb = [2]\n", None, [], ["[2]"], 4) == ["b = [2]"]


def test_with_no_word_of_the_question_in_the_result_the_whole_result_is_the_answer() -> None:
    assert _options("alpha\nbeta\n", "What is the colour of the sky?") == ["alpha\nbeta"]


def test_search_results_are_cut_into_located_matches() -> None:
    grep = "2 matches in 2 files\nnotes.txt\n  3: TODO: write the docs\nsrc/a.py\n  10: x = 1  # TODO later\n"
    units = [u.text for u in result_units(grep, "grep_search")]
    assert units == ["notes.txt:3: TODO: write the docs", "src/a.py:10: x = 1  # TODO later"]
    lookup = "Symbols matching add_tax (1):\nsrc/pricing.py:1  function  add_tax — def add_tax(amount):"
    assert answer_options(lookup, "find_code_location", ["add_tax"], [], 4) == [
        "src/pricing.py:1  function  add_tax — def add_tax(amount):"
    ]  # the title repeats the question's word but answers nothing


async def _answer_after_reading(root: Path, task: str, path: str) -> list[str]:
    ctx = ToolContext(root=root, journal=Journal(root / ".asi"), session_id="t")
    grounder = Grounder(ctx, default_registry())
    runner = ToolRunner(grounder.registry, ctx)
    call = ToolCall("c1", "read_file", {"path": path})
    outcome = await runner.execute(runner.prepare(call))
    messages = [
        Message("user", task),
        Message("assistant", "", (call,)),
        outcome.message(),
    ]
    plan = await grounder.plan(messages)
    await ctx.aclose()
    assert plan.tools == [] and plan.allow_answer
    options: list[str] = plan.answer["enum"]
    assert all(grounder.judge(messages, option) is None for option in options)  # each rests on the read
    return options


async def test_the_grounder_offers_the_tight_answer_after_a_read(tmp_path: Path) -> None:
    (tmp_path / "greet.py").write_text(GREET)
    (tmp_path / "config.toml").write_text('name = "calc"\nport = 8080\ndebug = false\n')
    task = "What does the greet function in greet.py return?"
    assert await _answer_after_reading(tmp_path, task, "greet.py") == ['return "Hello, " + name + "!"']
    task = "What port is set in config.toml?"
    assert await _answer_after_reading(tmp_path, task, "config.toml") == ["port = 8080"]
