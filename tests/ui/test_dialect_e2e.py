"""`asi-agent run` in text mode, one bug fixed per call dialect, against the local OpenAI-protocol server.

The contract in the system prompt, the calls in the history sent back and the model's replies are all in
the dialect named by `--call-format`; with `auto` the dialect follows the model's first call.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from asi_cli import text_mode_run
from servers.openai_server import Reply

from asi_agent.calls.dialects import DIALECTS, get_dialect
from asi_agent.messages import ToolCall

BUGGY = "def add(a, b):\n    return a - b\n"
READ = ToolCall("call_1", "read_file", {"path": "calc.py"})
EDIT = ToolCall(
    "call_2", "replace_text", {"path": "calc.py", "oldText": "return a - b", "newText": "return a + b"}
)
WRITABLE = [dialect.name for dialect in DIALECTS if dialect.render is not None]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "calc"
    root.mkdir()
    (root / "calc.py").write_text(BUGGY)
    return root


def run(server, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return text_mode_run(server.base_url, *args, cwd=cwd)


def written(name: str, call: ToolCall) -> str:
    render = get_dialect(name).render
    assert render is not None
    return render([call])


def script(server, name: str) -> None:
    """read_file → replace_text → done, each written in dialect `name`, each step checking the request."""
    rules = get_dialect(name).rules[0]

    def after_read(body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        assert "tools" not in body
        assert rules in messages[0]["content"], "the contract is written in the dialect"
        assert messages[-2]["content"].endswith(written(name, READ)), "history writes the call in the dialect"
        assert (
            "[TOOL_RESULT read_file" in messages[-1]["content"] and "return a - b" in messages[-1]["content"]
        )
        return Reply(text=written(name, EDIT))

    def after_edit(body: dict[str, Any]) -> Reply:
        assert body["messages"][-2]["content"].endswith(written(name, EDIT))
        return Reply(text="Fixed add: it subtracted.\nAGENT_STATUS: DONE")

    server.reply(
        Reply(text="Plan: read calc.py, then fix add.\n" + written(name, READ)), after_read, after_edit
    )


@pytest.mark.parametrize("name", WRITABLE)
def test_each_dialect_fixes_the_bug_in_text_mode(openai_server, project, name):
    script(openai_server, name)
    proc = run(openai_server, "--call-format", name, "--output-format", "json", "fix add", cwd=project)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["status"] == "DONE", result
    assert [c["name"] for c in result["tool_calls"]] == ["read_file", "replace_text"]
    assert all(c["ok"] for c in result["tool_calls"])
    assert (project / "calc.py").read_text() == BUGGY.replace("a - b", "a + b")


def test_auto_follows_the_dialect_of_the_first_call_and_keeps_reasoning_out(openai_server, project):
    """test-model gets the ASI contract; it answers in Hermes, and from then on it is prompted in Hermes."""

    def after_read(body: dict[str, Any]) -> Reply:
        system = body["messages"][0]["content"]
        assert get_dialect("hermes").rules[0] in system
        assert all("secret plan" not in str(m["content"]) for m in body["messages"]), (
            "reasoning is not sent back"
        )
        return Reply(text=written("hermes", EDIT), reasoning="The bug is the minus sign.")

    def after_edit(body: dict[str, Any]) -> Reply:
        return Reply(text="<think>Done, I think.</think>Fixed add.\nAGENT_STATUS: DONE")

    first = Reply(
        text='<think>secret plan: call <tool_call>{"name": "delete_file", "arguments": {"path": "calc.py"}}'
        "</tool_call></think>Reading first.\n" + written("hermes", READ)
    )
    openai_server.reply(first, after_read, after_edit)
    proc = run(openai_server, "--output-format", "stream-json", "fix add", cwd=project)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    first_request = openai_server.chat_bodies[0]["messages"][0]["content"]
    assert get_dialect("asi").rules[0] in first_request
    reasoning = "".join(line["delta"] for line in lines if line["type"] == "reasoning")
    assert (
        "secret plan" in reasoning
        and "The bug is the minus sign." in reasoning
        and "Done, I think." in reasoning
    )
    streamed = "".join(line.get("delta", "") for line in lines if line["type"] == "assistant")
    assert "secret plan" not in streamed and "minus sign" not in streamed
    assert [line["name"] for line in lines if line["type"] == "tool_call"] == ["read_file", "replace_text"]
    assert lines[-1]["status"] == "DONE" and lines[-1]["result"] == "Fixed add."
    assert (project / "calc.py").read_text() == BUGGY.replace("a - b", "a + b")
