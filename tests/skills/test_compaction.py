"""A skill in use survives compaction: the agent loop with the scripted backend, then `/compact`."""

from __future__ import annotations

from pathlib import Path

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.scripted import ScriptedBackend, ScriptedCall, ScriptedReply
from asi_agent.context import COMPACTION_HEADER, ContextConfig
from asi_agent.gate import GateConfig
from asi_agent.session import SessionStore
from asi_agent.skills.registry import find_skills
from asi_agent.skills.router import SkillRouter
from asi_agent.skills.session import SKILLS_KEY, SkillSession
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.catalog import extension_spec
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry

BODY = "Always write MARKER-SKILL-RULE at the top of every note."


def _agent(root: Path, replies: list[ScriptedReply | str]) -> Agent:
    folder = root / ".asi" / "skills" / "notes"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: notes\ndescription: Write notes.\n---\n{BODY}\n", "utf-8")
    skills = find_skills(root, root / "no-user", trusted=True, home=root / "no-home")
    registry = default_registry()
    registry.register(extension_spec("execute_skill"))
    state = root / ".asi"
    session = SessionStore(state).create()
    ctx = ToolContext(root, Journal(state), session_id=session.id)
    ctx.state[SKILLS_KEY] = SkillSession(skills, SkillRouter(list(skills), embedder=None))
    config = AgentConfig(gate=GateConfig(approval="yolo"), context=ContextConfig(window=32768))
    return Agent(ScriptedBackend(replies), ToolRunner(registry, ctx), session, "Test agent.", config)


def _call(name: str, **arguments: object) -> ScriptedReply:
    return ScriptedReply(text="", tool_calls=[ScriptedCall(name=name, arguments=arguments)])


async def test_the_skill_text_is_kept_word_for_word_when_older_turns_are_compacted(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n" * 20, encoding="utf-8")
    replies: list[ScriptedReply | str] = [
        _call("read_file", path="a.txt"),  # the plan exchange (kept anyway)
        _call("execute_skill", skill_id="notes"),  # in the middle: compacted away, but for the skill
        _call("read_file", path="a.txt"),
        _call("read_file", path="a.txt", startLine=2),
        "Done.\nAGENT_STATUS: DONE",
        "Summary: read a.txt three times.",  # the summary `/compact` asks for
    ]
    agent = _agent(tmp_path, replies)
    events = [event async for event in agent.run("look at a.txt")]
    assert events[-1].status == "DONE", events[-1]
    compacted = await agent.compact()
    assert compacted is not None and compacted.summarised > 0
    note = next(m.content for m in agent.messages if m.content.startswith(COMPACTION_HEADER))
    assert "[Skill in use, kept as loaded]" in note and BODY in note
    assert not any(m.name == "execute_skill" for m in agent.messages)  # its result itself was summarised
