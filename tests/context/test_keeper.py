"""The context budget through the agent loop, against the real local OpenAI-compatible server."""

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path
from typing import Any

from servers.openai_server import Call, OpenAIServer, Reply, prompt_tokens

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.openai import OpenAIBackend, OpenAIBackendConfig
from asi_agent.context import COMPACTION_HEADER, ContextConfig
from asi_agent.context.compact import SUMMARY_SYSTEM
from asi_agent.events import AssistantReplied, ContextCompacted, RunFinished
from asi_agent.gate import GateConfig
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry

TASK = "Write note files notes/n1.txt … and check big.txt now and then; finish with a report."
PLAN = "Plan: create the notes one by one, reading big.txt every tenth step."


def make_agent(root: Path, server: OpenAIServer, *, max_turns: int, window: int | None = None) -> Agent:
    backend = OpenAIBackend(OpenAIBackendConfig(model="test-model", base_url=server.base_url, max_retries=0))
    state = root / ".asi"
    session = SessionStore(state).create()
    ctx = ToolContext(root, Journal(state), session_id=session.id)
    config = AgentConfig(
        max_turns=max_turns,
        gate=GateConfig(approval="yolo"),
        offered=("create_file", "read_file"),
        context=ContextConfig(window=window),
    )
    return Agent(backend, ToolRunner(default_registry(), ctx), session, "You are a test agent.", config)


class NoteTaker:
    """A scripted model: `steps` tool turns, then a report; it also answers summarisation requests."""

    def __init__(self, steps: int) -> None:
        self.steps, self.step, self.summaries = steps, 0, 0
        self.violations: list[str] = []

    def __call__(self, body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        if messages[0]["content"] == SUMMARY_SYSTEM:
            self.summaries += 1
            seen = [int(n) for n in re.findall(r"notes/n(\d+)\.txt", messages[-1]["content"])]
            done = max(seen, default=0)
            return Reply(text=f"Task: notes. Decisions: one file per step. Done up to n{done}.")
        self._check(messages)
        self.step += 1
        if self.step > self.steps:
            return Reply(text="All notes written; big.txt checked.\nAGENT_STATUS: DONE")
        if self.step % 10 == 0:
            return Reply(calls=[Call("read_file", {"path": "big.txt"})])
        text = PLAN if self.step == 1 else ""
        note = {"path": f"notes/n{self.step}.txt", "content": f"note {self.step}\n"}
        return Reply(text=text, calls=[Call("create_file", note)])

    def _check(self, messages: list[dict[str, Any]]) -> None:
        """The task, the plan and the latest exchange must be in every request."""
        if messages[1] != {"role": "user", "content": TASK}:
            self.violations.append(f"step {self.step}: task missing")
        if self.step >= 1 and PLAN not in [m.get("content") for m in messages]:
            self.violations.append(f"step {self.step}: plan missing")
        if self.step >= 1 and messages[-1]["role"] != "tool":
            self.violations.append(f"step {self.step}: latest result missing")


async def run(agent: Agent, task: str = TASK) -> list[Any]:
    return [event async for event in agent.run(task)]


async def test_200_turns_against_a_4k_model_stay_within_the_window(tmp_path: Path) -> None:
    """The server (n_ctx 4096) refuses any longer prompt; the run must never be refused and must finish."""
    (tmp_path / "big.txt").write_text("".join(f"row {i}: {'data ' * 12}\n" for i in range(300)))
    model = NoteTaker(steps=199)
    with OpenAIServer() as server:
        server.n_ctx = 4096
        server.reply(*[model] * 400)
        agent = make_agent(tmp_path, server, max_turns=250)
        events = await run(agent)
        await agent.backend.aclose()
        bodies = server.chat_bodies
    end = events[-1]
    assert isinstance(end, RunFinished) and end.status == "DONE", end
    assert end.turns == 200
    assert model.violations == []
    assert max(prompt_tokens(b) for b in bodies) <= 4096
    assert all(not (r.path.endswith("completions") and r.body is None) for r in server.requests)
    assert sorted(p.name for p in (tmp_path / "notes").iterdir()) == sorted(
        f"n{i}.txt" for i in range(1, 200) if i % 10
    )
    compactions = [e for e in events if isinstance(e, ContextCompacted)]
    assert model.summaries > 0 and any(e.summarised for e in compactions)
    assert any(e.shrunk for e in compactions), "the big read results were never shrunk"
    lefts = [e.context_left for e in events if isinstance(e, AssistantReplied)]
    assert all(left is not None and left > 0 for left in lefts)
    # The shrunk results point to their full text, which is kept.
    outputs = list((tmp_path / ".asi" / "outputs").iterdir())
    assert outputs and "row 299" in outputs[0].read_text()
    # The transcript carries the compactions, and a resumed session starts from the compacted history.
    session = agent.session
    records = list(session.records())
    assert any(r["type"] == "compacted" for r in records)
    assert all("context_left" in r for r in records if r["type"] == "usage")
    resumed = session.messages()
    assert resumed[0].content == TASK and any(m.content.startswith(COMPACTION_HEADER) for m in resumed)
    assert len(resumed) < 60


async def test_a_context_overflow_from_the_server_is_compacted_and_retried(tmp_path: Path) -> None:
    """The configured window is wrong (too big): the server's overflow error leads to one compaction."""
    (tmp_path / "big.txt").write_text("".join(f"row {i}: {'data ' * 12}\n" for i in range(300)))
    model = NoteTaker(steps=12)
    with OpenAIServer() as server:
        server.reply(*[model] * 100)
        agent = make_agent(tmp_path, server, max_turns=30, window=1_000_000)
        server.n_ctx = None
        events: list[Any] = []
        switched = 0
        async for event in agent.run(TASK):
            events.append(event)
            if isinstance(event, AssistantReplied) and event.turn == 11:
                server.n_ctx = 2048  # from now on, the server refuses what the history has grown to
                switched = len(server.chat_bodies)
        await agent.backend.aclose()
        assert prompt_tokens(server.chat_bodies[switched - 1]) > 2048
        refused = [b for b in server.chat_bodies[switched:] if prompt_tokens(b) > 2048]
    end = events[-1]
    assert isinstance(end, RunFinished) and end.status == "DONE", end
    assert len(refused) == 1, "exactly one request overflowed"
    overflow = [e for e in events if isinstance(e, ContextCompacted) and e.reason == "overflow"]
    assert len(overflow) == 1 and overflow[0].tokens_after < overflow[0].tokens_before
    assert model.violations == []


class Rambler(NoteTaker):
    """A model whose summaries are longer than the history they replace (as a tiny model's can be)."""

    def __call__(self, body: dict[str, Any]) -> Reply:
        if body["messages"][0]["content"] == SUMMARY_SYSTEM:
            self.summaries += 1
            return Reply(text="Summary: " + body["messages"][-1]["content"] + " and then it went on" * 100)
        return super().__call__(body)


async def test_a_compaction_that_makes_the_history_longer_is_not_kept_nor_retried_each_turn(
    tmp_path: Path,
) -> None:
    (tmp_path / "big.txt").write_text("".join(f"row {i}: {'data ' * 12}\n" for i in range(300)))
    model = Rambler(steps=30)
    with OpenAIServer() as server:
        server.n_ctx = 4096
        server.reply(*[model] * 100)
        agent = make_agent(tmp_path, server, max_turns=40)
        events = await run(agent)
        await agent.backend.aclose()
        bodies = server.chat_bodies
    end = events[-1]
    assert isinstance(end, RunFinished) and end.status == "DONE", end
    turns = [b for b in bodies if b["messages"][0]["content"] != SUMMARY_SYSTEM]
    assert max(prompt_tokens(b) for b in turns) <= 4096
    compactions = [e for e in events if isinstance(e, ContextCompacted)]
    # The first summary was longer than the turns it replaced: not kept, old results shrunk instead.
    assert compactions[0].summarised == 0 and compactions[0].shrunk >= 1
    assert all(e.tokens_after < e.tokens_before for e in compactions)
    # asked again only after the history grew by several messages, not on every turn over the limit
    assert 1 <= model.summaries <= 1 + 60 // 8, model.summaries


async def test_a_second_overflow_ends_the_run_with_the_servers_error(tmp_path: Path) -> None:
    """A prompt that cannot be made to fit is an error after one compaction, not an endless loop."""
    with OpenAIServer() as server:
        server.n_ctx = 64
        agent = make_agent(tmp_path, server, max_turns=3, window=1_000_000)
        events = await run(agent, "x " * 200)
        await agent.backend.aclose()
    end = events[-1]
    assert isinstance(end, RunFinished) and end.status == "ERROR"
    assert "context" in (end.error or "")
    assert len(server.chat_bodies) == 2


async def test_the_backend_reports_window_and_tokens_of_a_llamacpp_server() -> None:
    with OpenAIServer() as server:
        backend = OpenAIBackend(OpenAIBackendConfig(model="test-model", base_url=server.base_url))
        assert await backend.context_window() is None
        assert await backend.count_tokens("a b") is None
        server.n_ctx = 4096
        backend2 = OpenAIBackend(OpenAIBackendConfig(model="test-model", base_url=server.base_url))
        assert await backend2.context_window() == 4096
        assert await backend2.count_tokens("def f(x): return x") == 8
        await backend.aclose()
        await backend2.aclose()


def test_stream_json_lines_carry_context_left(tmp_path: Path) -> None:
    from asi_agent.ui.output import make_renderer  # noqa: PLC0415

    out, err = io.StringIO(), io.StringIO()
    renderer = make_renderer("stream-json", out, err)
    with OpenAIServer() as server:
        server.n_ctx = 4096
        server.reply("Done.\nAGENT_STATUS: DONE")
        agent = make_agent(tmp_path, server, max_turns=2)

        async def drive() -> None:
            async for event in agent.run("say done"):
                renderer.show(event)
            await agent.backend.aclose()

        asyncio.run(drive())
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    message = next(line for line in lines if line["type"] == "assistant" and "message" in line)
    assert 0 < message["context_left"] < 4096
    assert lines[-1]["type"] == "result" and lines[-1]["context_left"] == message["context_left"]
