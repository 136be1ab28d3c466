"""`asi-agent mcp serve` driven by the official MCP Python client over stdio: the tools with their exact
schemas and annotations, a read, an edit that `asi-agent undo` reverts, the policy's refusals and
approvals through elicitation, and the project's instruction files as resources."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.asi_cli import asi, model_free_env

mcp = pytest.importorskip("mcp")
types = pytest.importorskip("mcp_types")

REPO = Path(__file__).resolve().parents[2]


def _params(project: Path, *options: str) -> Any:
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(project / ".user-config")
    env["LANG"] = env["LC_ALL"] = "C.UTF-8"  # English tool descriptions, as the published tools/en/
    argv = ["-m", "asi_agent", "mcp", "serve", "--cwd", str(project), *options]
    return mcp.StdioServerParameters(command=sys.executable, args=argv, env=env, cwd=str(project))


async def _session(project: Path, script, *options: str, elicit=None) -> Any:
    """Run `script(session)` against a fresh server; its result."""
    async with (
        mcp.stdio_client(_params(project, *options)) as (read, write),
        mcp.ClientSession(read, write, elicitation_callback=elicit) as session,
    ):
        await session.initialize()
        return await script(session)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    (root / "AGENTS.md").write_text("# House rules\nKeep it short.\n", encoding="utf-8")
    return root


def test_tools_have_the_registry_schemas_and_annotations(project: Path) -> None:
    """tools/list offers the 22 + 2 ASI tools by default, each with the schema of the published registry and
    annotations that follow the policy's class."""

    async def script(session):
        return (await session.list_tools()).tools

    tools = asyncio.run(_session(project, script))
    names = [tool.name for tool in tools]
    assert len(names) == 24 and names[:2] == ["codebase_search", "read_file"]
    published = json.loads((REPO / "tools" / "en" / "read_file.json").read_text(encoding="utf-8"))
    read_file = tools[1]
    assert read_file.input_schema == published["function"]["parameters"]
    by_name = {tool.name: tool.annotations for tool in tools}
    assert by_name["read_file"].read_only_hint is True
    assert (
        by_name["replace_text"].read_only_hint is False and by_name["replace_text"].destructive_hint is True
    )
    assert by_name["insert_line"].destructive_hint is False
    assert by_name["run_terminal_cmd"].destructive_hint is True
    assert by_name["run_terminal_cmd"].open_world_hint is False  # the sandbox closes the network


def test_a_subset_of_tools(project: Path) -> None:
    async def script(session):
        return [tool.name for tool in (await session.list_tools()).tools]

    assert asyncio.run(_session(project, script, "--tools", "read_file,list_directory")) == [
        "read_file",
        "list_directory",
    ]


def test_read_then_edit_then_undo(project: Path) -> None:
    """A read, an edit allowed by auto-edit, then `asi-agent undo` restores the file."""

    async def script(session):
        read = await session.call_tool("read_file", {"path": "notes.txt"})
        edit = await session.call_tool(
            "replace_text", {"path": "notes.txt", "oldText": "beta", "newText": "gamma"}
        )
        return read, edit

    read, edit = asyncio.run(_session(project, script, "--approval", "auto-edit"))
    assert not read.is_error and "beta" in read.content[0].text
    assert not edit.is_error, edit.content[0].text
    assert (project / "notes.txt").read_text(encoding="utf-8") == "alpha\ngamma\n"
    undone = asi("undo", "--cwd", str(project), cwd=project)
    assert undone.returncode == 0, undone.stderr
    assert (project / "notes.txt").read_text(encoding="utf-8") == "alpha\nbeta\n"


def test_an_ask_without_elicitation_is_refused(project: Path) -> None:
    """In ask mode, a client that cannot be asked gets a refusal, and the file is untouched."""

    async def script(session):
        return await session.call_tool("create_file", {"path": "new.txt", "content": "x\n"})

    result = asyncio.run(_session(project, script))
    assert result.is_error and "permission denied" in result.content[0].text
    assert not (project / "new.txt").exists()


@pytest.mark.parametrize(("answer", "created"), [("yes", True), ("no", False)])
def test_approvals_go_through_elicitation(project: Path, answer: str, created: bool) -> None:
    """Where the policy asks, the client's person answers through elicitation."""
    asked: list[str] = []

    async def elicit(context, params):
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"answer": answer})

    async def script(session):
        return await session.call_tool("create_file", {"path": "new.txt", "content": "x\n"})

    result = asyncio.run(_session(project, script, elicit=elicit))
    assert len(asked) == 1 and "create_file" in asked[0] and "new.txt" in asked[0]
    assert (project / "new.txt").exists() is created
    assert result.is_error is not created


def test_plan_mode_refuses_edits(project: Path) -> None:
    async def script(session):
        return await session.call_tool("delete_file", {"path": "notes.txt"})

    result = asyncio.run(_session(project, script, "--approval", "plan"))
    assert result.is_error
    assert (project / "notes.txt").exists()


def test_instruction_files_are_resources(project: Path) -> None:
    async def script(session):
        listed = (await session.list_resources()).resources
        read = await session.read_resource(listed[0].uri)
        return listed, read

    listed, read = asyncio.run(_session(project, script))
    assert [resource.name for resource in listed] == ["AGENTS.md"]
    assert "Keep it short." in read.contents[0].text


def test_invalid_arguments_are_a_tool_error(project: Path) -> None:
    async def script(session):
        return await session.call_tool("read_file", {"nope": 1})

    result = asyncio.run(_session(project, script))
    assert result.is_error and "path" in result.content[0].text
