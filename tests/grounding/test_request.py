"""The request reader: what people type, read as questions or changes, and the edits they state."""

from __future__ import annotations

import pytest

from asi_agent.grounding.clauses import asks_for_change, clauses, key_words
from asi_agent.grounding.request import Edit, edits


@pytest.mark.parametrize(
    "request_text",
    [
        "make the banner say Welcome instead of Hi",
        "I need a config file that sets debug to true",
        "bump the version in both places",
        "can you add a docstring to parse_args",
        "pls change greeting to 'Hey there'",
        "In config.toml, change `port = 8080` to `port = 9090`.",
        "the station got renamed, update the config",
        "use math.pi instead of 3.14",
        "把 端口 改成 9090",
        "给 parse 加一个 docstring",
        "删掉 config.toml 里的 keep_days",
        "新建一个 requirements.txt，里面写 requests==2.31.0",
    ],
)
def test_changes_are_read_as_changes(request_text: str) -> None:
    assert asks_for_change(request_text)


@pytest.mark.parametrize(
    "request_text",
    [
        "how many tests are there?",
        "where is load_config defined",
        "which file has the db url",
        "what does make_banner return?",
        "Show me the contents of greet.py.",
        "where is the port set?",
        "配置文件里端口是多少",
        "load_config 在哪个文件",
        "run the tests",
    ],
)
def test_questions_are_not_read_as_changes(request_text: str) -> None:
    assert not asks_for_change(request_text)


def test_several_clauses_become_several_steps() -> None:
    parts = clauses("run the tests and fix what fails")
    assert [(c.text, c.change) for c in parts] == [("run the tests", False), ("fix what fails", True)]
    assert len(clauses("rename load to read and then update the readme")) == 2
    assert len(clauses("跑一下测试，把挂掉的那个修好")) == 2


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("rename load to read_config and update its caller in app.py", Edit("rename", "load", "read_config")),
        ("make the banner say Welcome instead of Hi", Edit("replace", "Hi", "Welcome")),
        ("use math.pi instead of 3.14", Edit("replace", "3.14", "math.pi")),
        ("in checker.py use a constant OK instead of the literal 200", Edit("replace", "200", "OK")),
        ("change units from metric to imperial in config.toml", Edit("replace", "metric", "imperial")),
        ("set timeout to 30 in settings.toml", Edit("set", new="30", target="timeout")),
        ("set the work length to 50 minutes", Edit("set", new="50", target="work length")),
        ("enable debug", Edit("set", new="true", target="debug")),
        ("can you bump the version to 2.1.0", Edit("version", new="2.1.0")),
        ("bump the version in both places", Edit("version")),
        ("add a docstring to parse_args", Edit("docstring", target="parse_args")),
        ("add an import for os in util.py", Edit("import", target="os")),
        ("make add return a + b", Edit("returns", new="a + b", target="add")),
        ("remove the debug setting from config.toml", Edit("remove", old="debug")),
        ("Create todo.md with the text `- buy milk`.", Edit("create", new="- buy milk", target="todo.md")),
        ("把 `port = 8080` 改成 `port = 9090`", Edit("replace", "port = 8080", "port = 9090")),
        ("把 settings.json 里的 locale 改成 zh_CN", Edit("replace", "locale", "zh_CN")),
        ("删掉 notify.py 里那行 DEBUG 打印", Edit("remove", old="DEBUG")),
        ("给 timer.py 加一个 LONG_BREAK_MINUTES = 15", Edit("assign", new="15", target="LONG_BREAK_MINUTES")),
        (
            "把 topackage.py 里的 _relatives 改名为 _absolute",
            Edit("rename", "_relatives", "_absolute"),
        ),
    ],
)
def test_the_edit_a_request_states(request_text: str, expected: Edit) -> None:
    assert edits(request_text)[0] == expected


def test_a_pronoun_stands_for_the_name_the_clause_before_named() -> None:
    assert edits("find where retries is set and change it to 5") == [Edit("set", new="5", target="retries")]
    assert edits("找到设置休息时长的地方，改成 10 分钟") == [Edit("set", new="10", target="break minutes")]


def test_a_clause_saying_too_repeats_the_change_in_the_files_it_names() -> None:
    found = edits("把 user_agent 改成 linkcheck/1.0，README 里的也一起改")
    assert [e.kind for e in found] == ["replace", "also"]


def test_a_vague_request_states_no_edit() -> None:
    assert asks_for_change("make it better") and edits("make it better") == []


def test_key_words_split_identifiers_and_read_chinese_terms() -> None:
    assert key_words("BREAK_MINUTES") == ["break", "minutes"]
    assert key_words("休息时长") == ["break", "minutes"]
    assert key_words("the user agent") == ["user", "agent"]


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("make_key -> citation_key please", Edit("rename", "make_key", "citation_key")),
        ("bump __version__ to 2.21.1", Edit("version", new="2.21.1")),
        ("nord 主题的 background_color 改成 #2b303b", Edit("set", new="#2b303b", target="background_color")),
        ("把 DEBUG 关掉", Edit("set", new="false", target="DEBUG")),
        ("--level 的默认值改成 WARNING 吧", Edit("set", new="WARNING", target="--level")),
        ("process.py needs `import statistics` up top", Edit("import", target="statistics")),
        (
            'give make_key a docstring: "Build a key."',
            Edit("docstring", new="Build a key.", target="make_key"),
        ),
        ("we're releasing 0.5.0, update the version everywhere", Edit("version", new="0.5.0")),
        ("shapes.py has 3.14159 hardcoded, use math.pi instead", Edit("replace", "3.14159", "math.pi")),
    ],
)
def test_more_ways_people_state_an_edit(request_text: str, expected: Edit) -> None:
    assert edits(request_text)[0] == expected


def test_a_clause_that_only_says_too_repeats_the_change() -> None:
    found = edits("change the default port to 8000, the readme mentions it too")
    assert [e.kind for e in found] == ["replace", "also"]


@pytest.mark.parametrize(
    "request_text",
    [
        "Where is the class Invoice defined? Give the file and line.",
        "start the dev server",
        "take a look at app.py",
    ],
)
def test_asking_for_an_answer_or_an_action_is_not_a_change(request_text: str) -> None:
    assert not asks_for_change(request_text)


@pytest.mark.parametrize(
    "request_text",
    [
        "Review calc.py and tell me if anything should be renamed",
        "tell me if the port is set anywhere",
        "should add return None?",
        "is there a test for sub?",
        "Should I rename load?",
        "do you think parse_args should be split?",
        "check whether greet.py should use f-strings",
        "review app.py",
    ],
)
def test_a_question_is_never_read_as_a_change(request_text: str) -> None:
    assert not asks_for_change(request_text)


def test_a_question_beside_a_change_keeps_the_change() -> None:
    assert [c.change for c in clauses("review app.py and fix the bug")] == [False, True]
    assert asks_for_change("F should return 5")
    assert asks_for_change("can you rename load to read?")
