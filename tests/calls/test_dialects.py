"""Each dialect's writer and reader agree, the contract teaches the dialect, and auto-detection works."""

from __future__ import annotations

import keyword
from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asi_agent.calls import parse_reply, textmode
from asi_agent.calls.dialects import CALL_FORMATS, DIALECTS, dialect_for_model, get_dialect
from asi_agent.calls.style import CallStyle
from asi_agent.config import CallFormat, load_config
from asi_agent.exceptions import ConfigError
from asi_agent.messages import Message, ToolCall
from asi_agent.session import SessionStore
from asi_agent.ui.cli import CALL_FORMATS as CLI_FORMATS

WRITABLE = [dialect for dialect in DIALECTS if dialect.render is not None]
# A Python keyword cannot name a call in the pythonic dialect (`[in()]` is no Python).
NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True).filter(
    lambda name: not keyword.iskeyword(name)
)
TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00<>\r"), max_size=30
).filter(lambda text: text == text.strip() and "\n\n" not in text)
SCALARS = st.integers(-1000, 1000) | st.booleans() | TEXT
VALUES = SCALARS | st.lists(st.integers(0, 9) | TEXT, max_size=3)
ARGUMENTS = st.dictionaries(
    st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True).filter(lambda name: not keyword.iskeyword(name)),
    VALUES,
    max_size=4,
)
SCHEMA_OF = {int: "integer", bool: "boolean", str: "string", list: "array"}


def schemas(calls):
    """Declared parameter types, as the agent passes them (text-written dialects type values with them)."""
    return [
        {
            "type": "function",
            "function": {
                "name": call.name,
                "parameters": {
                    "type": "object",
                    "properties": {
                        key: {"type": SCHEMA_OF[type(value)]} for key, value in call.arguments.items()
                    },
                },
            },
        }
        for call in calls
    ]


def test_every_format_is_a_config_value_and_a_cli_choice():
    assert set(CALL_FORMATS) == set(get_args(CallFormat)) == set(CLI_FORMATS)
    assert all(get_dialect(name).render is not None for name in CALL_FORMATS[1:])


@pytest.mark.parametrize("dialect", WRITABLE, ids=lambda dialect: dialect.name)
@settings(max_examples=40, deadline=None)
# One schema per tool name, as a registry has: a name is not called with two types of the same parameter.
@given(calls=st.lists(st.tuples(NAMES, ARGUMENTS), min_size=1, max_size=3, unique_by=lambda call: call[0]))
def test_written_calls_read_back_unchanged(dialect, calls):
    tool_calls = [ToolCall(f"c{n}", name, args) for n, (name, args) in enumerate(calls)]
    assert dialect.render is not None
    reply = parse_reply("I will look.\n" + dialect.render(tool_calls), schemas(tool_calls))
    assert [(call.name, call.arguments) for call in reply.calls] == calls
    assert reply.problems == ()
    assert reply.text == "I will look."
    assert reply.dialect


# Markdown a model writes into a file: fences, a closing fence at a line's start, and a fence right before
# the value's end. A reader that ends its block at the first fence it meets would cut the call there.
FENCED = (
    "# Usage\n\n```python\nprint(1)\n```\n",
    "```",
    "run it:\n```sh\nmake test\n```",
)


@pytest.mark.parametrize("dialect", WRITABLE, ids=lambda dialect: dialect.name)
@pytest.mark.parametrize("content", FENCED)
def test_fences_inside_arguments_do_not_end_the_call(dialect, content):
    calls = [ToolCall("c0", "write_file", {"path": "README.md", "content": content})]
    assert dialect.render is not None
    reply = parse_reply("Writing it.\n" + dialect.render(calls), schemas(calls))
    assert [(call.name, call.arguments) for call in reply.calls] == [
        ("write_file", {"path": "README.md", "content": content})
    ]
    assert reply.problems == ()
    assert reply.text == "Writing it."


def test_command_r_block_ends_at_the_fence_after_its_json():
    body = '[{"tool_name": "run_terminal_cmd", "parameters": {"command": "echo ```"}}]'
    reply = parse_reply(f"Running it.\nAction: ```json\n{body}```\nDone.")
    assert [(call.name, call.arguments) for call in reply.calls] == [
        ("run_terminal_cmd", {"command": "echo ```"})
    ]
    assert (reply.problems, reply.text) == ((), "Running it.\n\nDone.")


def test_command_r_block_cut_off_inside_a_fenced_string_runs_nothing():
    cut = 'Action: ```json\n[{"tool_name": "write_file", "parameters": {"content": "```py\\nx = 1\\n```'
    reply = parse_reply(cut)
    assert reply.calls == ()
    assert reply.problems


@pytest.mark.parametrize("dialect", WRITABLE, ids=lambda dialect: dialect.name)
def test_contract_and_retry_prompt_teach_the_dialect(dialect):
    tools = [
        {
            "type": "function",
            "function": {
                "name": "read_file",
                "description": "Read a file.",
                "parameters": {
                    "type": "object",
                    "properties": {"path": {"type": "string"}},
                    "required": ["path"],
                },
            },
        }
    ]
    contract = textmode.render_contract(tools, dialect)
    example = dialect.render([ToolCall("call_1", "read_file", {"path": "src/app.py"})])
    assert example in contract
    assert all(rule in contract for rule in dialect.rules)
    assert example in textmode.retry_prompt("no call", dialect)
    reply = parse_reply(example)
    assert [(call.name, call.arguments) for call in reply.calls] == [("read_file", {"path": "src/app.py"})]


def test_history_writes_past_calls_in_the_dialect():
    call = ToolCall("call_1", "read_file", {"path": "a.py"})
    history = [
        Message("user", "fix"),
        Message("assistant", "Reading.", (call,)),
        Message("tool", "1\tx = 1", tool_call_id="call_1", name="read_file"),
    ]
    projected = textmode.project_history(history, "hermes")
    assert (
        projected[1].content
        == 'Reading.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.py"}}\n</tool_call>'
    )
    assert "[TOOL_RESULT read_file id=call_1]" in projected[2].content


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen-xml"),
        ("qwen2.5:7b-instruct", "hermes"),
        ("NousResearch/Hermes-3-Llama-3.1-8B", "hermes"),
        ("mistralai/Mistral-Small-3.2-24B-Instruct-2506", "mistral"),
        ("meta-llama/Llama-3.1-8B-Instruct", "llama"),
        ("meta-llama/Llama-4-Scout-17B-16E-Instruct", "pythonic"),
        ("deepseek-ai/DeepSeek-V3.1", "deepseek"),
        ("openai/gpt-oss-20b", "harmony"),
        ("google/functiongemma-270m-it", "functiongemma"),
        ("meetkai/functionary-medium-v3.2", "functionary"),
        ("CohereForAI/c4ai-command-r-plus", "command-r"),
        ("zai-org/GLM-4.6", "glm"),
        ("moonshotai/Kimi-K2-Instruct", "kimi"),
        ("test-model", "asi"),
        ("smollm2:135m", "asi"),
    ],
)
def test_auto_picks_the_dialect_from_the_model_name(model, expected):
    assert dialect_for_model(model).name == expected


def test_auto_learns_the_dialect_of_the_first_call_and_keeps_it():
    style = CallStyle.choose("auto", "test-model")
    assert style.name == "asi"
    assert not style.learn(parse_reply("Just text."))
    assert style.learn(parse_reply('<tool_call>{"name": "f", "arguments": {}}</tool_call>'))
    assert style.name == "hermes"
    assert not style.learn(parse_reply('[TOOL_CALLS]f[ARGS]{"a": 1}'))
    assert style.name == "hermes"


def test_a_named_format_is_kept_whatever_the_model_writes():
    style = CallStyle.choose("mistral", "qwen3")
    assert not style.learn(parse_reply('<tool_call>{"name": "f", "arguments": {}}</tool_call>'))
    assert style.name == "mistral"
    assert "[TOOL_CALLS]read_file[ARGS]" in style.hint


def test_a_resumed_session_keeps_the_dialect_it_learned(tmp_path):
    session = SessionStore(tmp_path / ".asi").create(cwd=str(tmp_path))
    assert CallStyle.choose("auto", "test-model", session.records()).name == "asi"
    session.append("call_format", call_format="glm")
    resumed = CallStyle.choose("auto", "test-model", session.records())
    assert resumed.name == "glm" and not resumed.learn(parse_reply('<tool_call>{"name": "f"}</tool_call>'))
    assert CallStyle.choose("hermes", "test-model", session.records()).name == "hermes"


def test_call_format_comes_from_the_project_config_and_a_bad_one_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("ASI_CONFIG_DIR", str(tmp_path / "user"))
    (tmp_path / ".asi").mkdir()
    config = tmp_path / ".asi" / "config.toml"
    env: dict[str, str] = {}
    config.write_text('call_format = "qwen-xml"\n')
    assert load_config(tmp_path, env=env).call_format == "qwen-xml"
    assert load_config(tmp_path, {"call_format": "mistral"}, env=env).call_format == "mistral"
    config.write_text('call_format = "klingon"\n')
    with pytest.raises(ConfigError, match="call_format"):
        load_config(tmp_path, env=env)
