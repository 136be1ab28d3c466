"""`save_memory`: the real `asi-agent run` for the project scope and the policy, and the agent loop (a
person answering) for the global scope's question and its diff."""

from __future__ import annotations

from pathlib import Path

import pytest
from ext_run import json_run

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.events import ApprovalRequested, DecisionMade
from asi_agent.gate import GateConfig
from asi_agent.prompts import system_prompt
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry


def _remember(fact: str, scope: str = "project") -> dict[str, object]:
    return {"name": "save_memory", "arguments": {"fact": fact, "scope": scope}}


def test_project_facts_go_under_their_own_section_of_agents_md(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "AGENTS.md").write_text("# Rules\n\nUse tabs.\n\n## Later\n\nKeep this.\n")
    calls = [_remember("The tests run with `make check`."), _remember("Never touch vendor/."),
             _remember("Never touch   vendor/.")]  # fmt: skip

    result = json_run(root, calls, "--approval", "auto-edit")

    assert [call["ok"] for call in result["tool_calls"]] == [True, True, True]
    assert (root / "AGENTS.md").read_text() == (
        "# Rules\n\nUse tabs.\n\n## Later\n\nKeep this.\n\n## asi-agent memories\n\n"
        "- The tests run with `make check`.\n- Never touch vendor/.\n"
    )
    assert result["changed_files"] == ["AGENTS.md"]
    # The next start reads it as project instructions.
    assert "- Never touch vendor/." in system_prompt(root, tmp_path / "user-config", git=False)


def test_a_missing_file_is_created_and_facts_join_the_section_before_the_next_heading(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()

    result = json_run(root, [_remember("Deploys go through CI.")], "--approval", "auto-edit")

    assert result["tool_calls"][0]["ok"] is True
    assert (root / "AGENTS.md").read_text() == "## asi-agent memories\n\n- Deploys go through CI.\n"
    (root / "AGENTS.md").write_text("## asi-agent memories\n\n- One.\n\n## Other\n\n- Two.\n")
    json_run(root, [_remember("Three.")], "--approval", "auto-edit")
    assert (
        root / "AGENTS.md"
    ).read_text() == "## asi-agent memories\n\n- One.\n- Three.\n\n## Other\n\n- Two.\n"


def test_in_ask_mode_it_is_a_write_that_asks_and_headless_refuses_it(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()

    result = json_run(root, [_remember("Use tabs.")], "--approval", "ask")

    assert result["tool_calls"][0]["ok"] is False
    assert "ask mode: write calls ask first" in result["denied_calls"][0]["reason"]
    assert not (root / "AGENTS.md").exists()


@pytest.mark.parametrize("flags", [["--approval", "auto-edit"], ["--yes"]])
def test_the_global_scope_asks_in_every_mode_so_headless_refuses_it(tmp_path: Path, flags: list[str]) -> None:
    root = tmp_path / "project"
    root.mkdir()

    result = json_run(root, [_remember("I prefer short answers.", "global")], *flags)

    assert "outside the project" in result["denied_calls"][0]["reason"]
    assert not (tmp_path / "user-config" / "USER_PROMPT.md").exists()


async def _global_run(root: Path, user: Path, answer: str) -> list[object]:
    state = root / ".asi"
    session = SessionStore(state).create()
    ctx = ToolContext(root, Journal(state), session_id=session.id)
    call = ScriptedCall(name="save_memory", arguments={"fact": "I prefer short answers.", "scope": "global"})
    backend = ScriptedBackend(
        [ScriptedReply(text="", calls=[call]), ScriptedReply(text="AGENT_STATUS: DONE")]
    )
    gate = GateConfig(approval="yolo", interactive=True)
    registry = default_registry(extensions=True)
    agent = Agent(backend, ToolRunner(registry, ctx), session, "system", AgentConfig(gate=gate))
    events: list[object] = []
    async for event in agent.run("remember that I prefer short answers"):
        if isinstance(event, ApprovalRequested):
            event.answer.set_result(answer)
        events.append(event)
    return events


@pytest.mark.parametrize("answer", ["yes", "no"])
async def test_the_global_question_shows_the_diff_and_the_answer_decides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str
) -> None:
    user = tmp_path / "user-config"
    user.mkdir()
    (user / "USER_PROMPT.md").write_text("Be kind.\n")
    monkeypatch.setenv("ASI_CONFIG_DIR", str(user))
    root = tmp_path / "project"
    root.mkdir()

    events = await _global_run(root, user, answer)

    asked = [event for event in events if isinstance(event, ApprovalRequested)]
    assert len(asked) == 1 and "outside the project" in asked[0].reason  # even in yolo
    assert "+## asi-agent memories" in asked[0].preview and "+- I prefer short answers." in asked[0].preview
    decided = [event.action for event in events if isinstance(event, DecisionMade)]
    assert decided == ["allow" if answer == "yes" else "deny"]
    expected = (
        "Be kind.\n\n## asi-agent memories\n\n- I prefer short answers.\n"
        if answer == "yes"
        else "Be kind.\n"
    )
    assert (user / "USER_PROMPT.md").read_text() == expected
    assert not (root / "AGENTS.md").exists()
