"""`asi-agent mcp serve` offering the tools of the MCP servers asi-agent itself uses, driven by the official
MCP Python client over stdio against a small stdio server the test starts (`tests/servers/mcp_markers.py`):
named as the agent sees them, with annotations from their class, each call gated by the policy (a
destructive one asks through elicitation), a project's servers only in a trusted folder, and a server that
fails to start left out with a warning."""

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

MARKERS = Path(__file__).resolve().parents[1] / "servers" / "mcp_markers.py"
SERVER = {"command": sys.executable, "args": [str(MARKERS)]}
BROKEN = {"command": sys.executable, "args": ["-c", "raise SystemExit(3)"]}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "notes.txt").write_text("alpha\n", encoding="utf-8")
    return root


def _user_config(project: Path, servers: dict[str, Any]) -> None:
    """The user's `mcp.json` (always read, in any folder) naming `servers`."""
    config = project / ".user-config"
    config.mkdir(exist_ok=True)
    (config / "mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def _serve(project: Path, script, *options: str, elicit=None, heard=None) -> tuple[Any, str]:
    """Run `script(session, initialized)` against a fresh `mcp serve`; its result and the server's stderr.
    `heard` (a list) collects the server's notifications."""
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(project / ".user-config")
    env["LANG"] = env["LC_ALL"] = "C.UTF-8"
    argv = ["-m", "asi_agent", "mcp", "serve", "--cwd", str(project), *options]
    params = mcp.StdioServerParameters(command=sys.executable, args=argv, env=env, cwd=str(project))
    errlog = project.parent / "serve-stderr.txt"

    async def session() -> Any:
        with errlog.open("w", encoding="utf-8") as err:
            async with (
                mcp.stdio_client(params, errlog=err) as (read, write),
                mcp.ClientSession(
                    read, write, elicitation_callback=elicit, message_handler=_collect(heard)
                ) as client,
            ):
                initialized = await client.initialize()
                return await script(client, initialized)

    result = asyncio.run(session())
    return result, errlog.read_text(encoding="utf-8")


def _collect(heard: list[Any] | None) -> Any:
    if heard is None:
        return None

    async def handler(message: Any) -> None:
        heard.append(message)

    return handler


async def _tools(client, initialized) -> dict[str, Any]:
    return {tool.name: tool for tool in (await client.list_tools()).tools}


def test_all_serves_the_mcp_tools_the_agent_uses_and_skips_a_server_that_fails(project: Path) -> None:
    """`--tools all`: the built-in tools and the user's MCP server's tools as `markers__*`, annotated by
    their class; its call answers through asi-agent; the broken server is a warning, not a failure."""
    _user_config(project, {"markers": SERVER, "broken": BROKEN})

    async def script(client, initialized):
        tools = await _tools(client, initialized)
        echoed = await client.call_tool("markers__echo", {"text": "hello"})
        return tools, echoed, initialized.instructions

    (tools, echoed, instructions), err = _serve(project, script, "--tools", "all")
    assert {"read_file", "markers__echo", "markers__stamp", "markers__note"} <= set(tools)
    assert not any(name.startswith("broken__") for name in tools)
    assert tools["markers__echo"].annotations.read_only_hint is True
    assert tools["markers__stamp"].annotations.destructive_hint is True
    assert tools["markers__note"].annotations.read_only_hint is False
    assert tools["markers__note"].annotations.destructive_hint is False
    assert tools["markers__echo"].input_schema["properties"]["text"]["type"] == "string"
    assert not echoed.is_error and echoed.content[0].text == "echo: hello"
    assert "MARKERS-INSTRUCTIONS" in (instructions or "")
    assert "broken" in err


def test_the_default_selection_starts_no_server(project: Path) -> None:
    """`--tools asi` (the default) stays the spec's tools: no MCP server starts, none of their tools is
    offered or callable."""
    _user_config(project, {"markers": SERVER, "broken": BROKEN})

    async def script(client, initialized):
        return await _tools(client, initialized), await client.call_tool("markers__echo", {"text": "x"})

    (tools, echoed), err = _serve(project, script)
    assert len(tools) == 24 and not any("__" in name for name in tools)
    assert echoed.is_error and "unknown tool" in echoed.content[0].text
    assert "broken" not in err


def test_a_destructive_mcp_tool_asks_even_in_auto_edit(project: Path) -> None:
    """The policy gates a proxied call as the agent's own: `stamp` is destructive, so auto-edit asks; a
    client that cannot be asked is refused and no marker is written."""
    _user_config(project, {"markers": SERVER})

    async def script(client, initialized):
        return await client.call_tool("markers__stamp", {"name": "stamped.txt"})

    refused, _ = _serve(project, script, "--tools", "markers__stamp", "--approval", "auto-edit")
    assert refused.is_error and "permission denied" in refused.content[0].text
    assert not (project / "stamped.txt").exists()


def test_an_approved_destructive_mcp_call_runs(project: Path) -> None:
    """Where the client's person is asked (elicitation) and says yes, the proxied call runs."""
    _user_config(project, {"markers": SERVER})
    asked: list[str] = []

    async def elicit(context, params):
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"answer": "yes"})

    async def script(client, initialized):
        return await client.call_tool("markers__stamp", {"name": "stamped.txt"})

    result, _ = _serve(project, script, "--tools", "markers__stamp,read_file", elicit=elicit)
    assert not result.is_error, result.content[0].text
    assert len(asked) == 1 and "markers__stamp" in asked[0]
    assert (project / "stamped.txt").read_text(encoding="utf-8") == "stamped\n"


def test_a_folders_own_servers_are_served_only_when_it_is_trusted(project: Path) -> None:
    """The project's `moss-tools.json` server: not started in an untrusted folder (stderr says why), served
    with `--trust`."""
    manifest = {"version": 1, "mcpServers": {"markers": SERVER}}
    (project / "moss-tools.json").write_text(json.dumps(manifest), encoding="utf-8")

    untrusted, err = _serve(project, _tools, "--tools", "all")
    assert not any(name.startswith("markers__") for name in untrusted)
    assert "not a trusted folder" in err and "markers" in err
    trusted, _ = _serve(project, _tools, "--tools", "all", "--trust")
    assert "markers__echo" in trusted


def test_a_listed_tool_no_server_offers_is_a_warning(project: Path) -> None:
    """A listed `server__tool` whose server failed is left out with a warning; a name that can be no MCP
    tool's still stops `mcp serve` before it starts."""
    _user_config(project, {"broken": BROKEN})

    tools, err = _serve(project, _tools, "--tools", "broken__anything,read_file")
    assert list(tools) == ["read_file"]
    assert "no MCP server here offers broken__anything" in err
    done = asi("mcp", "serve", "--cwd", str(project), "--tools", "no_such_tool", cwd=project)
    assert done.returncode == 1 and "unknown tool(s): no_such_tool" in done.stderr


def test_a_servers_changed_tools_are_followed_and_announced(project: Path) -> None:
    """A server that adds a tool and says so: `mcp serve` follows it and tells its own client, whose next
    tools/list offers the new tool, and its call works."""
    _user_config(project, {"markers": SERVER})
    heard: list[Any] = []

    async def script(client, initialized):
        before = await _tools(client, initialized)
        grown = await client.call_tool("markers__grow", {})
        for _ in range(100):  # the announcement follows the server's, after the registry was updated
            if any(_is_tools_changed(message) for message in heard):
                break
            await asyncio.sleep(0.1)
        after = await _tools(client, initialized)
        late = await client.call_tool("markers__late", {})
        return before, grown, after, late, initialized.capabilities.tools

    (before, grown, after, late, capability), _ = _serve(project, script, "--tools", "all", heard=heard)
    assert "markers__late" not in before and not grown.is_error
    assert any(_is_tools_changed(message) for message in heard)
    assert capability.list_changed is True
    assert "markers__late" in after
    assert not late.is_error and late.content[0].text == "late but here"


def _is_tools_changed(message: Any) -> bool:
    return getattr(message, "method", None) == "notifications/tools/list_changed"


def test_a_proxied_tools_progress_reaches_the_client(project: Path) -> None:
    """The proxied server's progress notifications go on to the client that asked, before the result."""
    _user_config(project, {"markers": SERVER})
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    async def script(client, initialized):
        result = await client.call_tool("markers__count", {}, progress_callback=on_progress)
        return result, list(progress)

    (result, heard), _ = _serve(project, script, "--tools", "markers__count")
    assert not result.is_error and result.content[0].text == "counted"
    assert heard == [(1, 2, "one"), (2, 2, "two")]
