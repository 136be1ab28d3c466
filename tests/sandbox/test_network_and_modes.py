"""What the modes mean with the sandbox: a command that wants the network asks (once, always, no) even in
yolo, is refused with nobody to ask, and runs with the network only when allowed; where no sandbox
can start, yolo refuses to start unless the sandbox was turned off explicitly."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from asi_cli import asi

from asi_agent import assembly
from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.config import load_config
from asi_agent.events import ApprovalRequested, DecisionMade, ToolFinished
from asi_agent.exceptions import UserError
from asi_agent.gate import GateConfig
from asi_agent.policy import Policy
from asi_agent.sandbox import find_bwrap, sandbox_for, unavailable
from asi_agent.sandbox.hints import wants_network
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry

BWRAP = find_bwrap()
needs_sandbox = pytest.mark.skipif(
    (why := unavailable(BWRAP)) is not None, reason=f"no sandbox on this machine: {why}"
)


def _curl(port: int) -> str:
    """A command that wants the network by its name (curl) and really uses it (to our server)."""
    code = f"import socket; print(socket.create_connection(('127.0.0.1', {port}), 5).recv(9))"
    return f'curl --version > /dev/null 2>&1; {sys.executable} -c "{code}"'


async def _run(root: Path, commands: list[str], answers: list[str]) -> list[object]:
    state = root / ".asi"
    session = SessionStore(state).create()
    assert BWRAP is not None
    ctx = ToolContext(root, Journal(state), session_id=session.id)
    ctx.sandbox = sandbox_for(root, binary=BWRAP, network=False, writable=(), caches=(), hidden=())
    gate = GateConfig(approval="yolo", interactive=True, policy=Policy())
    calls = [ScriptedReply(text="", calls=[ScriptedCall(name="run_terminal_cmd", arguments={"command": c})])
             for c in commands]  # fmt: skip
    backend = ScriptedBackend([*calls, ScriptedReply(text="AGENT_STATUS: DONE")])
    agent = Agent(backend, ToolRunner(default_registry(), ctx), session, "system", AgentConfig(gate=gate))
    events: list[object] = []
    async for event in agent.run("task"):
        if isinstance(event, ApprovalRequested):
            event.answer.set_result(answers.pop(0))  # type: ignore[arg-type]
        events.append(event)
    return events


@needs_sandbox
async def test_in_yolo_a_command_wanting_the_network_asks_and_gets_it_only_when_allowed(
    tmp_path: Path, server: int
) -> None:
    command = _curl(server)
    events = await _run(tmp_path, [command, command, "echo local"], ["no", "yes"])
    asked = [e for e in events if isinstance(e, ApprovalRequested)]
    assert len(asked) == 2 and "wants the network, which the sandbox closes" in asked[0].reason
    decisions = [(e.action, e.rule) for e in events if isinstance(e, DecisionMade)]
    assert decisions == [("deny", "sandbox network"), ("allow", "sandbox network"), ("allow", "mode yolo")]
    finished = [e for e in events if isinstance(e, ToolFinished)]
    assert not finished[0].ok  # refused: never ran
    assert "b'hello\\n'" in finished[1].output  # allowed: it reached the server outside
    assert finished[2].ok and "local" in finished[2].output  # no network wanted: no question


@needs_sandbox
async def test_always_opens_the_network_for_the_rest_of_the_session(tmp_path: Path, server: int) -> None:
    events = await _run(tmp_path, [_curl(server), _curl(server) + " # again"], ["always"])
    assert len([e for e in events if isinstance(e, ApprovalRequested)]) == 1
    outputs = [e.output for e in events if isinstance(e, ToolFinished)]
    assert all("b'hello\\n'" in output for output in outputs)


@needs_sandbox
def test_with_nobody_to_ask_a_network_command_is_refused_and_says_how_to_allow_it(tmp_path: Path) -> None:
    script = tmp_path / "s.json"
    call = {"name": "run_terminal_cmd", "arguments": {"command": "git clone https://example.org/x.git"}}
    replies = [{"text": "", "tool_calls": [call]}, "Could not clone.\nAGENT_STATUS: STOP"]
    script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
    (tmp_path / "p").mkdir()
    run = ("run", "--provider", "scripted", "--model", str(script), "--yes", "--output-format", "json")
    done = asi(*run, "clone", cwd=tmp_path / "p")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    error = result["tool_calls"][0]["error"]
    assert "wants the network" in error and "--allow-network" in error and "no terminal" in error
    assert not (tmp_path / "p" / "x").exists()


def test_network_wanting_commands_are_told_from_everyday_ones() -> None:
    wanting = ["pip install requests", "npm install", "git clone https://x/y", "curl -sS https://x",
               "uv sync", "cd sub && cargo fetch", "python -m pip download x",
               "FOO=1 wget https://x/y"]  # fmt: skip
    local = ["pytest -q", "git status", "npm test", "pip install --no-index -e .", "ls -la",
             "uv run pytest", "git commit -m 'curl docs'", "make", "cargo build --offline",
             "python -c 'print(1)'"]  # fmt: skip
    assert [c for c in wanting if not wants_network(c)] == []
    assert [c for c in local if wants_network(c)] == []


def test_where_no_sandbox_can_start_yolo_refuses_to_start_unless_it_was_turned_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(assembly, "find_bwrap", lambda: None)
    monkeypatch.setenv("ASI_CONFIG_DIR", str(tmp_path / "config"))
    with pytest.raises(UserError, match="yolo runs commands without asking only inside the sandbox"):
        assembly.contain(tmp_path, load_config(tmp_path, {"approval": "yolo"}), Policy(), "yolo")
    sandbox, note = assembly.contain(tmp_path, load_config(tmp_path), Policy(), "ask")
    assert sandbox is None and note.startswith("no sandbox: bubblewrap was not found")
    flags = {"approval": "yolo", "sandbox": {"enabled": False}}
    sandbox, note = assembly.contain(tmp_path, load_config(tmp_path, flags), Policy(), "yolo")
    assert sandbox is None and note.startswith("no sandbox (--no-sandbox)")


@needs_sandbox
def test_allow_network_and_the_policy_open_it_and_the_status_says_so(tmp_path: Path) -> None:
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"native": True, "replies": ["Nothing to do.\nAGENT_STATUS: DONE"]}))
    (tmp_path / "p").mkdir()
    run = ("run", "--provider", "scripted", "--model", str(script), "--output-format", "json", "hi")
    opened = asi(*run, "--allow-network", cwd=tmp_path / "p")
    first = opened.stderr.splitlines()[0]
    assert "no network" not in first and "network open" in first
    (tmp_path / "p" / "open.toml").write_text('extends = "default"\nnetwork = true\n', encoding="utf-8")
    by_policy = asi(*run, "--policy", "open.toml", cwd=tmp_path / "p")
    assert "network open" in by_policy.stderr.splitlines()[0]
    closed = asi(*run, cwd=tmp_path / "p")
    assert "no network" in closed.stderr.splitlines()[0]
