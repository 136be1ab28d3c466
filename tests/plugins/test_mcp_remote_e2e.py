"""MCP servers in Claude Code's format: a remote server over streamable HTTP and over SSE (the `mcp`
SDK's own server, with a bearer token from `${VAR}` in `headers`), configured in the user's `mcp.json`,
through the real `asi-agent run`; a project's `.mcp.json` server starts only in a trusted folder and only
after `asi-agent mcp approve`; `asi-agent mcp list` shows each server's state."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.asi_cli import model_free_env, tool_results
from tests.mcp_helpers import remote_server, serving, write_mcp_json

pytest.importorskip("mcp")
pytest.importorskip("mcp_server_time")
TOKEN = "test-token-not-a-secret"


@pytest.fixture(params=["http", "sse"])
def remote(request: pytest.FixtureRequest) -> Iterator[tuple[str, str]]:
    """(transport, url) of a running remote server."""
    with serving("mcp_remote.py", TOKEN, request.param) as port:
        path = "/sse" if request.param == "sse" else "/mcp"
        yield request.param, f"http://127.0.0.1:{port}{path}"


def _asi(
    root: Path, config: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full = {**model_free_env(), "ASI_CONFIG_DIR": str(config), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "asi_agent", *args],
        cwd=root,
        env=full,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _run(
    root: Path,
    config: Path,
    calls: list[dict[str, Any]],
    *flags: str,
    env: dict[str, str] | None = None,
    task: str = "go",
) -> Any:
    replies = [{"text": "", "tool_calls": [call]} for call in calls] + ["Done.\nAGENT_STATUS: DONE"]
    model = root.parent / "script.json"
    model.write_text(json.dumps({"native": True, "replies": replies}))
    argv = ["run", "--provider", "scripted", "--model", str(model), "--output-format", "json", *flags, task]
    done = _asi(root, config, *argv, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    root, config = tmp_path / "proj", tmp_path / "config"
    root.mkdir()
    config.mkdir()
    return root, config


def test_remote_server_in_the_users_mcp_json(dirs: tuple[Path, Path], remote: tuple[str, str]) -> None:
    """The remote tool runs in ask mode (readOnlyHint); the token comes from the environment."""
    root, config = dirs
    transport, url = remote
    write_mcp_json(config, "demo", remote_server(url, "${DEMO_TOKEN}", transport))
    result, stderr = _run(
        root, config, [{"name": "demo__shout", "arguments": {"text": "hi"}}], env={"DEMO_TOKEN": TOKEN}
    )
    assert result["tool_calls"] == [{"name": "demo__shout", "ok": True, "error": None}], stderr
    listing = _asi(root, config, "mcp", "list", "--json", env={"DEMO_TOKEN": TOKEN})
    rows = json.loads(listing.stdout)
    assert [(r["name"], r["state"], r["transport"]) for r in rows] == [("demo", "ready", transport)]
    assert "demo__shout" in rows[0]["tools"] and "demo__read_resource" in rows[0]["tools"]


def test_a_missing_variable_is_named(dirs: tuple[Path, Path]) -> None:
    root, config = dirs
    server = {
        "type": "http",
        "url": "http://127.0.0.1:9/mcp",
        "headers": {"Authorization": "Bearer ${NO_SUCH_VAR}"},
    }
    write_mcp_json(config, "demo", server)
    listing = _asi(root, config, "mcp", "list", "--json")
    (row,) = json.loads(listing.stdout)
    assert row["state"] == "failed" and "NO_SUCH_VAR" in row["detail"]


def test_project_mcp_json_needs_trust_then_approval(dirs: tuple[Path, Path]) -> None:
    """mcp-server-time (PyPI) declared in the project's .mcp.json: ignored untrusted, awaiting approval
    trusted, started once approved; a changed definition waits for approval again."""
    root, config = dirs
    server = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}
    write_mcp_json(root, "time", server, ".mcp.json")
    call = [{"name": "time__get_current_time", "arguments": {"timezone": "UTC"}}]

    untrusted = json.loads(_asi(root, config, "mcp", "list", "--json").stdout)
    assert [r["state"] for r in untrusted] == ["untrusted folder"]
    result, _ = _run(root, config, call, "--trust")
    assert result["tool_calls"][0]["ok"] is False  # not approved: no such tool
    rows = json.loads(_asi(root, config, "mcp", "list", "--json", "--trust").stdout)
    assert [r["state"] for r in rows] == ["awaiting approval"]

    approved = _asi(root, config, "mcp", "approve", "time", "--cwd", str(root))
    assert approved.returncode == 0, approved.stderr
    result, stderr = _run(root, config, call, "--trust")
    assert result["tool_calls"][0]["ok"] is True, stderr
    assert (config / "mcp-approvals.json").stat().st_mode & 0o077 == 0
    rows = json.loads(_asi(root, config, "mcp", "list", "--json", "--trust").stdout)
    assert [r["state"] for r in rows] == ["ready"]
    assert sorted(p.name for p in root.iterdir()) == [".asi", ".mcp.json"]  # no sandbox placeholder left

    server["args"].append("--verbose-changed")
    write_mcp_json(root, "time", server, ".mcp.json")
    rows = json.loads(_asi(root, config, "mcp", "list", "--json", "--trust").stdout)
    assert [r["state"] for r in rows] == ["awaiting approval"]


def test_resources_roots_and_instructions(dirs: tuple[Path, Path], remote: tuple[str, str]) -> None:
    """The server's resource is listed and read through the two resource tools, its `roots` tool sees the
    project folder as the client's root, and its instructions reach the system prompt."""
    root, config = dirs
    transport, url = remote
    write_mcp_json(config, "demo", remote_server(url, TOKEN, transport))
    calls = [
        {"name": "demo__list_resources", "arguments": {}},
        {"name": "demo__read_resource", "arguments": {"uri": "demo://greeting"}},
        {"name": "demo__roots", "arguments": {}},
    ]
    result, stderr = _run(root, config, calls)
    assert [c["ok"] for c in result["tool_calls"]] == [True, True, True], (result, stderr)
    outputs = tool_results(root, result["session_id"])
    assert "demo://greeting" in outputs[0]
    assert "Hello from the resource." in outputs[1]
    assert root.resolve().as_uri() in outputs[2]
    transcript = (root / ".asi" / "sessions" / f"{result['session_id']}.jsonl").read_text(encoding="utf-8")
    assert "Call shout only with short texts." in transcript


def test_tools_list_changed_is_honoured(dirs: tuple[Path, Path], remote: tuple[str, str]) -> None:
    """After the server adds a tool and says so, the model can call it in the same run."""
    root, config = dirs
    transport, url = remote
    write_mcp_json(config, "demo", remote_server(url, TOKEN, transport))
    calls = [{"name": "demo__grow", "arguments": {}}, {"name": "demo__late", "arguments": {}}]
    result, stderr = _run(root, config, calls)
    assert [c["ok"] for c in result["tool_calls"]] == [True, True], (result, stderr)
    assert "late but here" in tool_results(root, result["session_id"])[1]


@pytest.mark.parametrize(
    ("task", "expected"),
    [
        ("/demo:review topic=parser", "Review the parser code carefully."),
        ("/demo:review parser", "Review the parser code carefully."),
        ("Summarise @demo:demo://greeting please", "Hello from the resource."),
        ("/demo:nothing", "has no prompt 'nothing'"),
    ],
)
def test_prompts_and_resource_mentions_in_the_task(
    dirs: tuple[Path, Path], remote: tuple[str, str], task: str, expected: str
) -> None:
    """`/server:prompt` as a run's task becomes the server's prompt; `@server:uri` attaches the resource."""
    root, config = dirs
    transport, url = remote
    write_mcp_json(config, "demo", remote_server(url, TOKEN, transport))
    result, stderr = _run(root, config, [], task=task)
    transcript = (root / ".asi" / "sessions" / f"{result['session_id']}.jsonl").read_text(encoding="utf-8")
    users = [
        json.loads(line)["message"]["content"]
        for line in transcript.splitlines()
        if json.loads(line).get("type") == "message" and json.loads(line)["message"]["role"] == "user"
    ]
    assert expected in users[0], (users, stderr)


def test_the_plain_chat_sends_prompts_and_mentions(dirs: tuple[Path, Path], remote: tuple[str, str]) -> None:
    """In `chat --plain`, `/help` lists the server's prompts; `/demo:review parser` is the server's prompt
    (not an unknown command) and `@demo:demo://greeting` attaches the resource; a custom command
    `/demo:brief` comes before the server's prompts, and `/nosuch:thing` (no such server) is an unknown
    chat command."""
    root, config = dirs
    transport, url = remote
    write_mcp_json(config, "demo", remote_server(url, TOKEN, transport))
    (config / "commands" / "demo").mkdir(parents=True)
    (config / "commands" / "demo" / "brief.md").write_text("Brief the team on the release.\n")
    model = root.parent / "script.json"
    replies = [f"{n}.\nAGENT_STATUS: DONE" for n in ("One", "Two", "Three")]
    model.write_text(json.dumps({"native": True, "replies": replies}))
    stdin = "/help\n/demo:review parser\nsummarise @demo:demo://greeting\n/demo:brief\n/nosuch:thing\n/quit\n"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "asi_agent",
            "chat",
            "--plain",
            "--provider",
            "scripted",
            "--model",
            str(model),
        ],
        cwd=root,
        env={**model_free_env(), "ASI_CONFIG_DIR": str(config)},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("unknown command") == 1 and "/nosuch:thing" in done.stdout
    assert re.search(r"MCP prompts.*\n/demo:review +A review request\. +topic\n", done.stdout), done.stdout
    transcript = next((root / ".asi" / "sessions").glob("*.jsonl")).read_text(encoding="utf-8")
    assert "Review the parser code carefully." in transcript
    assert "Hello from the resource." in transcript
    assert "Brief the team on the release." in transcript and "has no prompt 'brief'" not in transcript
