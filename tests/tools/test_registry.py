"""The registry: the built-in catalogue, locales, tolerant names and the errors a model sees."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import Field

from asi_agent.exceptions import CallFormatError, ConfigError, ToolArgumentsError
from asi_agent.tools.args import ReadFileArgs
from asi_agent.tools.base import ToolArgs, ToolContext, ToolSpec
from asi_agent.tools.catalog import builtin_specs
from asi_agent.tools.registry import ToolRegistry, default_registry, snake_case
from asi_agent.tools.schema import load_locale, tool_schema

REGISTRY = default_registry()
WRITE = {
    "replace_lines", "insert_line", "delete_lines", "replace_text", "create_file", "delete_file", "reapply",
    "refactor", "moss_update_asi_user_prompt",
}  # fmt: skip
# The tools that run the project's code, the test generators and the plugin registration included.
EXECUTE = {
    "run_terminal_cmd", "run_tests", "lint_check", "generate_tests", "fix_tests", "moss_register_plugin_tool",
}  # fmt: skip


def _error(name: str, raw: object, registry: ToolRegistry = REGISTRY) -> list[str]:
    with pytest.raises(ToolArgumentsError) as caught:
        registry.validate(name, raw)
    return str(caught.value).splitlines()


class WordCountArgs(ToolArgs):
    """Count the words of a text file."""

    path: str = Field(description="File to count")
    unique: bool = False


async def _word_count(args: WordCountArgs, ctx: ToolContext) -> str:
    return args.path


PLUGIN = ToolSpec(name="word_count", args=WordCountArgs, run=_word_count, risk="read", source="plugin")


# -- the catalogue -------------------------------------------------------------------------------


def test_24_builtin_tools_with_unique_names() -> None:
    names = REGISTRY.names()
    assert len(names) == len(set(names)) == len(REGISTRY) == 24
    assert names[:2] == ("codebase_search", "read_file")
    assert names[-2:] == ("moss_register_plugin_tool", "moss_update_asi_user_prompt")
    assert all(spec.source == "builtin" for spec in REGISTRY.specs())


def test_risk_classes_follow_spec_section_3_3_and_code_runners_are_execute() -> None:
    risks = {spec.name: spec.risk for spec in REGISTRY}
    assert {name for name, risk in risks.items() if risk == "write"} == WRITE
    assert {name for name, risk in risks.items() if risk == "execute"} == EXECUTE
    assert {name for name, risk in risks.items() if risk == "read"} == set(risks) - WRITE - EXECUTE


def test_every_builtin_tool_is_implemented() -> None:
    assert all(REGISTRY.is_implemented(name) for name in REGISTRY.names())
    for spec in REGISTRY.specs():
        assert spec.run is not None and spec.run.__name__ == spec.name
    assert [s["function"]["name"] for s in REGISTRY.schemas()] == list(REGISTRY.names())
    assert len(REGISTRY.schemas(only_implemented=False)) == 24


def test_builtin_specs_are_fresh_and_equal_each_call() -> None:
    first, second = builtin_specs(), builtin_specs()
    assert [s.name for s in first] == [s.name for s in second]
    assert [dict(s.aliases) for s in first] == [dict(s.aliases) for s in second]


def test_register_rejects_a_name_clash_and_accepts_a_plugin() -> None:
    registry = default_registry()
    clash = ToolSpec(name="read_file", args=ReadFileArgs, run=None, risk="read", source="plugin")
    with pytest.raises(ValueError, match="read_file"):
        registry.register(clash)
    registry.register(PLUGIN)
    assert registry.names()[-1] == "word_count"
    assert "word_count" in registry
    schema = registry.schemas()[-1]["function"]
    assert schema["description"] == "Count the words of a text file."
    assert schema["parameters"] == {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "File to count"},
            "unique": {"type": "boolean", "default": False},
        },
        "required": ["path"],
    }


def test_get_is_exact() -> None:
    assert REGISTRY.get("read_file").args is ReadFileArgs
    with pytest.raises(KeyError):
        REGISTRY.get("ReadFile")


# -- locales --------------------------------------------------------------------------------------


def test_en_locale_translates_every_description() -> None:
    registry = default_registry(locale="en")
    for schema in registry.schemas(only_implemented=False):
        function = schema["function"]
        assert function["description"].isascii() and len(function["description"]) > 20
        for prop in function["parameters"]["properties"].values():
            assert prop["description"].isascii()
    read_file = tool_schema(REGISTRY.get("read_file"), "en")["function"]
    assert read_file["parameters"]["properties"]["path"]["description"] == "File path (relative or absolute)"
    assert (
        registry.schemas("zh")[0]["function"]["description"]
        != registry.schemas()[0]["function"]["description"]
    )


def test_both_locales_cover_every_tool_and_parameter() -> None:
    everything = default_registry(extensions=True)
    for locale in ("zh", "en"):
        texts = load_locale(locale)
        assert list(texts) == list(everything.names())
        for spec in everything:
            assert list(texts[spec.name]["parameters"]) == list(spec.args.model_fields)


def test_the_extension_tools_come_after_the_24_marked_as_extensions() -> None:
    everything = default_registry(extensions=True)
    assert everything.names()[:24] == REGISTRY.names()
    extensions = everything.specs()[24:]
    assert [spec.name for spec in extensions] == ["todo_write", "save_memory", "web_fetch", "web_search"]
    assert {spec.source for spec in extensions} == {"extension"}
    assert {spec.name: spec.risk for spec in extensions} == {
        "todo_write": "read", "save_memory": "write", "web_fetch": "network", "web_search": "network"
    }  # fmt: skip
    todos = everything.schemas("en")[24]["function"]["parameters"]["properties"]["todos"]
    assert todos["items"]["required"] == ["id", "content", "status"]
    assert todos["items"]["properties"]["status"]["enum"] == ["pending", "in_progress", "completed"]


def test_unknown_locale_is_a_config_error_naming_the_allowed_ones() -> None:
    with pytest.raises(ConfigError, match=r"'fr'.*zh, en"):
        load_locale("fr")
    with pytest.raises(ConfigError, match="allowed locales"):
        default_registry(locale="de")
    with pytest.raises(ConfigError):
        REGISTRY.schemas("xx")


# -- names ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("read_file", "read_file"),
        ("ReadFile", "read_file"),
        ("readFile", "read_file"),
        ("read-file", "read_file"),
        ("READ_FILE", "read_file"),
        (" Read File ", "read_file"),
        ("runTerminalCmd", "run_terminal_cmd"),
        ("moss-update-asi-user-prompt", "moss_update_asi_user_prompt"),
    ],
)
def test_resolve_name_is_tolerant(given: str, expected: str) -> None:
    assert REGISTRY.resolve_name(given) == expected


def test_unknown_tool_suggests_close_names_and_lists_all() -> None:
    with pytest.raises(CallFormatError) as caught:
        REGISTRY.resolve_name("read_files")
    message = str(caught.value)
    assert message.startswith("unknown tool 'read_files'. Did you mean: read_file")
    assert "Available tools: codebase_search, read_file, " in message
    assert message.endswith("moss_update_asi_user_prompt")


def test_unknown_tool_without_close_names_only_lists() -> None:
    with pytest.raises(CallFormatError, match=r"^unknown tool 'xyzzy'\. Available tools: codebase_search"):
        REGISTRY.resolve_name("xyzzy")


def test_snake_case() -> None:
    assert snake_case("getProjectStructure") == "get_project_structure"
    assert snake_case("run.tests") == "run_tests"


# -- validation -----------------------------------------------------------------------------------


def test_validate_returns_the_typed_model_and_resolves_the_name() -> None:
    validated = REGISTRY.validate("ReadFile", {"path": "a.py", "startLine": "5", "endLine": 7.0})
    assert isinstance(validated, ReadFileArgs)
    assert (validated.path, validated.startLine, validated.endLine) == ("a.py", 5, 7)


def test_missing_required_parameter() -> None:
    lines = _error("replace_text", {"path": "a.py", "newText": "x"})
    assert lines == [
        "replace_text: missing required parameter 'oldText': expected string "
        "(要查找的文本(别名:oldString, search, searchValue, find))."
    ]


def test_wrong_type() -> None:
    (line,) = _error("read_file", {"path": "a.py", "startLine": "first"})
    assert line.startswith("read_file: invalid parameter 'startLine': expected whole number")
    assert "起始行号" in line and line.endswith('received "first" (a string).')
    (fraction,) = _error("read_file", {"path": "a.py", "startLine": 2.5})
    assert fraction.endswith("received 2.5 (a number).")


def test_bad_literal_lists_the_allowed_values() -> None:
    (line,) = _error("list_directory", {"path": ".", "sortBy": "date"})
    assert line == (
        'list_directory: invalid parameter \'sortBy\': expected one of "name", "size", "modified" '
        '(排序:name、size、modified), received "date" (a string).'
    )


def test_unknown_parameter_lists_the_valid_ones() -> None:
    (line,) = _error("read_file", {"path": "a.py", "linez": 3})
    assert line == (
        "read_file: unknown parameter 'linez' (received 3 (a number)). "
        "Valid parameters: path, startLine, endLine."
    )
    (hinted,) = _error("delete_file", {"path": "a.py", "permanant": True})
    assert "Did you mean 'permanent'?" in hinted


@pytest.mark.parametrize("raw", [["a.py"], "a.py", None, 3])
def test_non_object_arguments(raw: Any) -> None:
    (line,) = _error("read_file", raw)
    assert line.startswith(
        "read_file: arguments must be a JSON object of parameter names and values, received "
    )
    assert line.endswith("Valid parameters: path, startLine, endLine.")


def test_several_problems_give_one_line_each_starting_with_the_tool() -> None:
    lines = _error("generate_tests", {"testTypes": ["unit", 3, 4], "bogus": 1, "testFramework": 5})
    assert len(lines) == 4
    assert all(line.startswith("generate_tests: ") for line in lines)
    joined = "\n".join(lines)
    assert "missing required parameter 'path'" in joined
    assert "'testTypes': expected array of string" in joined
    assert "'testFramework': expected string" in joined
    assert "unknown parameter 'bogus'" in joined


def test_error_descriptions_follow_the_registry_locale() -> None:
    (line,) = _error("read_file", {}, default_registry(locale="en"))
    assert (
        line
        == "read_file: missing required parameter 'path': expected string (File path (relative or absolute))."
    )


def test_tool_without_parameters_accepts_only_an_empty_object() -> None:
    assert REGISTRY.validate("get_project_structure", {}) is not None
    (line,) = _error("get_project_structure", {"path": "."})
    assert line.endswith("Valid parameters: none: send {}.")
