"""Plugins through the real agent loop: the repo's example plugins, MCP, and the two moss tools.

The registry is wired as the CLI should wire it: built-ins with the moss tools implemented by
`asi_agent.tools.moss`, plus the manifests' tools, plus the MCP servers' tools, and the live registry in
`ctx.state[REGISTRY_KEY]`.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.events import ApprovalRequested, RunFinished, ToolFinished
from asi_agent.exceptions import ToolError
from asi_agent.gate import GateConfig
from asi_agent.plugins import attach_mcp_servers, build_registry
from asi_agent.prompts import system_prompt
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools import moss
from asi_agent.tools.args import MossRegisterPluginToolArgs, MossUpdateAsiUserPromptArgs
from asi_agent.tools.base import ToolContext, ToolSpec
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import REGISTRY_KEY, ToolRegistry

REPO = Path(__file__).resolve().parents[2]


def call(tool: str, **arguments) -> ScriptedCall:
    return ScriptedCall(name=tool, arguments=arguments)


def reply(text: str = "", *calls: ScriptedCall) -> ScriptedReply:
    return ScriptedReply(text=text, calls=list(calls))


def wired_registry(root: Path, user: Path) -> ToolRegistry:
    registry, problems = build_registry(root, user, locale="en", trusted=True)
    assert problems == []
    specs = [
        ToolSpec(spec.name, spec.args, getattr(moss, spec.name), spec.risk, spec.aliases)
        if spec.name.startswith("moss_")
        else spec
        for spec in registry.specs()
    ]
    return ToolRegistry(specs, locale="en")


async def run_agent(
    root: Path, replies: list[ScriptedReply], *, user: Path, mcp: bool = False, asked: list | None = None
) -> list:
    """The agent's events in yolo; with `asked`, somebody answers yes to every question (kept there)."""
    registry = wired_registry(root, user)
    session = SessionStore(root / ".asi").create()
    ctx = ToolContext(root, Journal(root / ".asi"), session_id=session.id)
    ctx.state[REGISTRY_KEY] = registry
    try:
        if mcp:
            assert await attach_mcp_servers(registry, ctx, user_dir=user, trusted=True) == []
        agent = Agent(
            ScriptedBackend(replies),
            ToolRunner(registry, ctx),
            session,
            "system",
            AgentConfig(gate=GateConfig(approval="yolo", interactive=asked is not None), locale="en"),
        )
        events = []
        async for event in agent.run("task"):
            if isinstance(event, ApprovalRequested) and asked is not None:
                asked.append(event)
                event.answer.set_result("yes")
            events.append(event)
        return events
    finally:
        await ctx.aclose()


def finished(events) -> list[ToolFinished]:
    assert isinstance(events[-1], RunFinished) and events[-1].status == "DONE"
    return [e for e in events if isinstance(e, ToolFinished)]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project holding copies of the repo's example plugins and manifest."""
    root = tmp_path / "project"
    shutil.copytree(REPO / "plugins", root / "plugins", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "moss-tools.json", root / "moss-tools.json")
    (root / "notes.txt").write_text("one two three\nfour five\n", encoding="utf-8")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("x = 1  # TODO: rename x\n# FIXME handle errors\n", encoding="utf-8")
    return root


@pytest.fixture
def user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "user-config"
    monkeypatch.setenv("ASI_CONFIG_DIR", str(folder))  # the documented override of the user config folder
    return folder


async def test_command_example_word_count(project, user):
    events = await run_agent(
        project, [reply("", call("word_count", path="notes.txt")), reply("AGENT_STATUS: DONE")], user=user
    )
    (result,) = finished(events)
    assert result.ok
    assert json.loads(result.output) == {"path": "notes.txt", "lines": 2, "words": 5, "characters": 24}


async def test_command_example_error_reaches_the_model(project, user):
    events = await run_agent(
        project, [reply("", call("word_count", path="nope.txt")), reply("AGENT_STATUS: DONE")], user=user
    )
    (result,) = finished(events)
    assert not result.ok and "nope.txt is not a file" in (result.error or "")


async def test_sdk_example_find_todos(project, user):
    events = await run_agent(
        project, [reply("", call("find_todos", path="src")), reply("AGENT_STATUS: DONE")], user=user
    )
    (result,) = finished(events)
    assert result.ok
    assert result.output.splitlines() == ["src/app.py:1: TODO rename x", "src/app.py:2: FIXME handle errors"]


async def test_repo_manifest_matches_the_sdk_example():
    sys.path.insert(0, str(REPO / "plugins"))
    try:
        import todo_finder  # noqa: PLC0415 - importable only once the plugins folder is on the path
    finally:
        sys.path.remove(str(REPO / "plugins"))
    data = json.loads((REPO / "moss-tools.json").read_text(encoding="utf-8"))
    listed = next(t for t in data["tools"] if t["name"] == "find_todos")
    assert listed == todo_finder.find_todos.manifest_entry("todo_finder:find_todos")


async def test_mcp_example_server_through_the_agent(project, user):
    replies = [
        reply("", call("demo__slugify", text="Héllo, World!"), call("demo__count_lines", path="notes.txt")),
        reply("", call("demo__count_lines", path="missing.txt")),
        reply("AGENT_STATUS: DONE"),
    ]
    results = finished(await run_agent(project, replies, user=user, mcp=True))
    assert [(r.ok, r.output) for r in results[:2]] == [(True, "hello-world"), (True, "2")]
    assert not results[2].ok and "missing.txt is not a file" in (results[2].error or "")


async def test_mcp_server_stops_with_the_session(project, user):
    registry = wired_registry(project, user)
    ctx = ToolContext(project, Journal(project / ".asi"))
    assert await attach_mcp_servers(registry, ctx, user_dir=user, trusted=True) == []
    hub = ctx.state["asi_agent.plugins.mcp"]
    spec = registry.get("demo__slugify")
    assert (spec.source, spec.risk) == ("mcp:demo", "read")
    assert spec.parameters and spec.parameters["required"] == ["text"]
    await ctx.aclose()
    assert hub.connections == {}
    with pytest.raises(ToolError, match="not running"):
        await spec.run(registry.validate("demo__slugify", {"text": "a"}), ctx)


async def test_mcp_server_that_fails_to_start_is_a_problem(tmp_path, user):
    (tmp_path / "moss-tools.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "broken": {
                        "command": "{python}",
                        "args": ["-c", "import sys; sys.exit('bad config')"],
                        "timeout": 10,
                    }
                }
            }
        ),
        encoding="utf-8",
    )
    registry, _ = build_registry(tmp_path, user, trusted=True)
    ctx = ToolContext(tmp_path, Journal(tmp_path / ".asi"))
    try:
        problems = await attach_mcp_servers(registry, ctx, user_dir=user, trusted=True)
    finally:
        await ctx.aclose()
    assert [(p.manifest, p.tool, p.field) for p in problems] == [("moss-tools.json", "broken", "mcpServers")]
    assert "failed to start" in problems[0].message and "bad config" in problems[0].message


async def test_register_a_plugin_tool_then_call_it_in_the_same_run(project, user):
    definition = {
        "name": "line_count",
        "description": "Count the lines of a file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        "run": {
            "type": "command",
            "command": [
                "{python}",
                "-c",
                "import json,sys; p=json.load(sys.stdin)['path']; print(len(open(p).read().splitlines()))",
            ],
        },
        "risk": "read",
    }
    replies = [
        reply("", call("moss_register_plugin_tool", **definition)),
        reply("", call("line_count", path="notes.txt")),
        reply("", call("moss_register_plugin_tool", **{**definition, "parameters": {"type": "array"}})),
        reply("AGENT_STATUS: DONE"),
    ]
    registered, used, refused = finished(await run_agent(project, replies, user=user))
    assert registered.ok and "you can call it now" in registered.output
    assert registered.changed_files == ("moss-tools.json",)
    assert (used.ok, used.output) == (True, "2\n")
    assert (
        not refused.ok
        and "field 'name'" in (refused.error or "")
        and "field 'parameters.type'" in (refused.error or "")
    )
    saved = json.loads((project / "moss-tools.json").read_text(encoding="utf-8"))
    assert saved["tools"][-1] == {**definition, "run": definition["run"]}
    # the next session loads it from the manifest
    registry, problems = build_registry(project, user, trusted=True)
    assert problems == [] and registry.get("line_count").source == "moss-tools.json"


async def test_registration_without_a_live_registry_is_for_the_next_session(tmp_path, user):
    ctx = ToolContext(tmp_path, Journal(tmp_path / ".asi"))
    args = MossRegisterPluginToolArgs(
        name="later",
        description="d",
        parameters={"type": "object"},
        run={"type": "http", "url": "http://127.0.0.1:9/x"},
    )
    out = await moss.moss_register_plugin_tool(args, ctx)
    assert "from the next session on" in out
    assert json.loads((tmp_path / "moss-tools.json").read_text())["tools"][0]["name"] == "later"
    ctx.journal.undo(tmp_path)  # the journaled write can be undone
    assert not (tmp_path / "moss-tools.json").exists()


async def test_registration_refuses_a_broken_manifest(tmp_path, user):
    (tmp_path / "moss-tools.json").write_text('{"tools": [', encoding="utf-8")
    ctx = ToolContext(tmp_path, Journal(tmp_path / ".asi"))
    args = MossRegisterPluginToolArgs(
        name="x", description="d", parameters={"type": "object"}, run={"type": "command", "command": "true"}
    )
    with pytest.raises(ToolError, match="not valid JSON at line 1"):
        await moss.moss_register_plugin_tool(args, ctx)
    assert (tmp_path / "moss-tools.json").read_text() == '{"tools": ['


async def test_user_prompt_reaches_the_next_agents_system_prompt(project, user):
    replies = [
        reply("", call("moss_update_asi_user_prompt", content="Always answer in French.")),
        reply("", call("moss_update_asi_user_prompt", content="Use tabs.", mode="append")),
        reply("", call("moss_update_asi_user_prompt", content="Prefer pathlib.", scope="global")),
        reply("AGENT_STATUS: DONE"),
    ]
    asked: list[ApprovalRequested] = []
    events = await run_agent(project, replies, user=user, asked=asked)
    project_prompt, appended, global_prompt = finished(events)
    # Only the write outside the project asked, yolo notwithstanding; the person said yes.
    assert [(a.call.arguments.get("scope"), a.rule) for a in asked] == [("global", "outside the project")]
    assert project_prompt.ok and project_prompt.changed_files == (".asi/USER_PROMPT.md",)
    assert appended.ok and global_prompt.ok and global_prompt.changed_files == ()
    assert (project / ".asi" / "USER_PROMPT.md").read_text() == "Always answer in French.\n\nUse tabs.\n"
    prompt = system_prompt(project, user)  # what a new agent is built with
    assert "## Project user instructions\nAlways answer in French.\n\nUse tabs." in prompt
    assert "## User instructions\nPrefer pathlib." in prompt
    history = Journal(user / "history").entries()
    assert [(e.path, e.tool) for e in history] == [("USER_PROMPT.md", "moss_update_asi_user_prompt")]


async def test_user_prompt_replace_and_empty_append(tmp_path, user):
    ctx = ToolContext(tmp_path, Journal(tmp_path / ".asi"))
    await moss.moss_update_asi_user_prompt(MossUpdateAsiUserPromptArgs(content="old"), ctx)
    await moss.moss_update_asi_user_prompt(MossUpdateAsiUserPromptArgs(content="new", mode="replace"), ctx)
    assert (tmp_path / ".asi" / "USER_PROMPT.md").read_text() == "new\n"
    with pytest.raises(ToolError, match="content is empty"):
        await moss.moss_update_asi_user_prompt(MossUpdateAsiUserPromptArgs(content="  "), ctx)
