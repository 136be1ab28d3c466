"""`asi_agent.sdk.testing`: a plugin tool called in one line as a session would call it."""

from __future__ import annotations

import pytest

from asi_agent.sdk import BaseModel, Field, PluginContext, ToolResult, tool
from asi_agent.sdk.testing import ToolArgumentsError, ToolDefinitionError, ToolError, acall_tool, call_tool


class ReadArgs(BaseModel):
    path: str = Field(description="A file of the project")
    lines: int = Field(1, ge=1, le=5, description="How many lines")


@tool(description="The first lines of a file, and what the model makes of them", risk="read")
async def head(args: ReadArgs, ctx: PluginContext) -> ToolResult:
    file = ctx.root / args.path
    if not file.is_file():
        raise ToolError(f"{args.path} does not exist; give a file of the project")
    first = file.read_text().splitlines()[: args.lines]
    opinion = await ctx.ask_model("What is this? " + " ".join(first), system="Be brief.")
    return ToolResult("\n".join(first), data={"model": opinion, "root_is_project": ctx.root.is_dir()})


def test_a_tool_runs_on_a_temporary_project_with_its_files_and_a_scripted_model():
    out = call_tool(
        head, {"path": "a.txt", "lines": 2}, files={"a.txt": "one\ntwo\nthree\n"}, model="Numbers."
    )
    assert out.startswith("one\ntwo\n")
    assert '"model": "Numbers."' in out and '"root_is_project": true' in out


def test_each_question_gets_the_next_reply_and_running_out_is_an_error(tmp_path):
    (tmp_path / "a.txt").write_text("x\n")
    assert '"model": "first"' in call_tool(head, {"path": "a.txt"}, root=tmp_path, model=["first", "second"])
    with pytest.raises(ToolError, match="needs the session's model"):
        call_tool(head, {"path": "a.txt"}, root=tmp_path)


def test_arguments_are_checked_against_the_schema_the_model_sees():
    with pytest.raises(ToolArgumentsError, match="missing required parameter 'path'"):
        call_tool(head, {})
    with pytest.raises(ToolArgumentsError, match="'lines'"):
        call_tool(head, {"path": "a.txt", "lines": 9})


def test_a_tool_error_reaches_the_test_as_the_model_would_read_it():
    with pytest.raises(ToolError, match=r"missing\.txt does not exist; give a file of the project"):
        call_tool(head, {"path": "missing.txt"}, model="unused")


def test_a_tool_the_loader_would_refuse_is_a_definition_error():
    @tool(name="no good", description="a space in its name")
    def bad(args: ReadArgs, ctx: PluginContext) -> str:
        return ""

    with pytest.raises(ToolDefinitionError, match="field 'name'"):
        call_tool(bad, {"path": "a"})


def test_files_may_be_bytes_and_nested(tmp_path):
    @tool(description="Size of a file")
    def size(args: ReadArgs, ctx: PluginContext) -> str:
        return str((ctx.root / args.path).stat().st_size)

    assert call_tool(size, {"path": "deep/b.bin"}, files={"deep/b.bin": b"\x00\x01\x02"}) == "3"


async def test_acall_tool_in_an_async_test():
    assert (await acall_tool(head, {"path": "a.txt"}, files={"a.txt": "hi\n"}, model="ok")).startswith("hi\n")
