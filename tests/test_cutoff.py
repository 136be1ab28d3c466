"""Cut-off replies through the real loop and the OpenAI backend against the local test server:
continued once when the context allows, otherwise the run ends STOP saying why; nothing cut off runs."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from servers.openai_server import Call, OpenAIServer, Reply

from asi_agent.agent import Agent, AgentConfig
from asi_agent.backends.openai import OpenAIBackend, OpenAIBackendConfig
from asi_agent.config import ToolMode
from asi_agent.events import AgentEvent, RetryRequested, RunFinished, ToolStarted
from asi_agent.gate import GateConfig
from asi_agent.session import SessionStore
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import default_registry

Run = Callable[..., Any]


@pytest.fixture
async def run(tmp_path: Path, openai_server: OpenAIServer) -> AsyncIterator[Run]:
    """Runs one task in native (or the given) tool mode against the test server, max_tokens 200."""
    backends: list[OpenAIBackend] = []

    async def go(tool_mode: ToolMode = "native", max_tokens: int = 200) -> list[AgentEvent]:
        settings = OpenAIBackendConfig(
            model="test-model", base_url=openai_server.base_url, max_tokens=max_tokens
        )
        backends.append(OpenAIBackend(settings))
        state = tmp_path / ".asi"
        session = SessionStore(state).create()
        ctx = ToolContext(tmp_path, Journal(state), session_id=session.id)
        config = AgentConfig(gate=GateConfig(approval="yolo"), tool_mode=tool_mode, max_turns=6)
        agent = Agent(backends[-1], ToolRunner(default_registry(), ctx), session, "system", config)
        return [event async for event in agent.run("What should notes.txt hold?")]

    yield go
    for backend in backends:
        await backend.aclose()


def end(events: list[AgentEvent]) -> RunFinished:
    assert isinstance(events[-1], RunFinished)
    return events[-1]


def retries(events: list[AgentEvent]) -> list[str]:
    return [e.reason for e in events if isinstance(e, RetryRequested)]


def cut(text: str = "", calls: list[Call] | None = None, **fields: Any) -> Reply:
    """A reply stopped by the token limit (200 completion tokens of max_tokens 200)."""
    return Reply(text=text, calls=calls or [], finish_reason="length", completion_tokens=200, **fields)


async def test_an_answer_cut_by_the_token_limit_is_continued_once(run: Run, openai_server: OpenAIServer):
    openai_server.reply(
        cut("The notes file should hold three"), " items: milk, eggs, bread.\nAGENT_STATUS: DONE"
    )

    events = await run()

    assert end(events).status == "DONE"
    assert end(events).result == "The notes file should hold three items: milk, eggs, bread."
    second = openai_server.chat_bodies[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": "The notes file should hold three"}
    assert "Continue exactly where it stopped" in second[-1]["content"]
    assert retries(events) == [
        "the model's reply was cut off in the middle of its answer: the token limit (max_tokens) was reached"
    ]


async def test_a_native_call_cut_mid_arguments_is_not_run_and_asked_again(
    tmp_path: Path, run: Run, openai_server: OpenAIServer
):
    broken = Call("create_file", '{"path": "notes.txt", "content": "milk\\neg', id="c1")
    whole = Call("create_file", {"path": "notes.txt", "content": "milk\neggs\n"}, id="c2")
    openai_server.reply(cut(calls=[broken]), Reply(calls=[whole]), "Written.\nAGENT_STATUS: DONE")

    events = await run()

    assert [e.call.id for e in events if isinstance(e, ToolStarted)] == ["c2"]
    assert (tmp_path / "notes.txt").read_text() == "milk\neggs\n"
    assert end(events).status == "DONE"
    prompt = openai_server.chat_bodies[1]["messages"][-1]["content"]
    assert "middle of a call to create_file; the call was not run" in prompt


async def test_a_text_mode_call_cut_mid_arguments_is_not_run(
    tmp_path: Path, run: Run, openai_server: OpenAIServer
):
    openai_server.reply(
        cut('[TOOL_CALL]create_file[ARGS]{"path": "notes.txt", "content": "milk'),
        '[TOOL_CALL]create_file[ARGS]{"path": "notes.txt", "content": "milk"}',
        "Written.\nAGENT_STATUS: DONE",
    )

    events = await run("text")

    assert len([e for e in events if isinstance(e, ToolStarted)]) == 1
    assert (tmp_path / "notes.txt").read_text() == "milk"
    assert "in the middle of a call to create_file" in retries(events)[0]


async def test_cut_off_again_after_continuing_ends_stop(run: Run, openai_server: OpenAIServer):
    openai_server.reply(cut("First half"), cut(" and still not done"))

    events = await run()

    finished = end(events)
    assert finished.status == "STOP"
    assert finished.error is not None and "token limit (max_tokens) was reached" in finished.error
    assert "cut off again after being asked to continue" in finished.error
    assert len(openai_server.chat_bodies) == 2


async def test_a_full_context_ends_stop_without_continuing(run: Run, openai_server: OpenAIServer):
    # Stopped by `length` far below max_tokens: the context window ended the reply.
    openai_server.reply(Reply(text="Half an answer", finish_reason="length", completion_tokens=20))

    events = await run(max_tokens=2000)

    assert end(events).status == "STOP"
    assert "the context window is full" in (end(events).error or "")
    assert len(openai_server.chat_bodies) == 1


async def test_the_content_filter_ends_stop(run: Run, openai_server: OpenAIServer):
    openai_server.reply(Reply(text="I will now", finish_reason="content_filter"))

    events = await run()

    assert end(events).status == "STOP"
    assert "content filter" in (end(events).error or "")


async def test_a_never_ending_reply_is_cut_continued_and_then_stopped(run: Run, openai_server: OpenAIServer):
    openai_server.reply(Reply(text="Working.", fault="endless"), Reply(text="Again.", fault="endless"))

    events = await run(max_tokens=40)

    assert end(events).status == "STOP"
    assert "token limit" in (end(events).error or "")
    assert all(body["max_tokens"] == 40 for body in openai_server.chat_bodies)


async def test_a_looping_reply_is_cut_and_the_model_told_not_to_repeat(run: Run, openai_server: OpenAIServer):
    openai_server.reply(
        Reply(text="Reading.", fault="loop"),
        "Nothing to do.\nAGENT_STATUS: DONE",
        "Nothing to do: notes.txt is fine as it is.\nAGENT_STATUS: DONE",
    )

    events = await run(max_tokens=100_000)

    assert end(events).status == "DONE"
    assert "kept repeating itself" in retries(events)[0]
    assert "Do not repeat yourself" in openai_server.chat_bodies[1]["messages"][-1]["content"]
    # The continuation of a reply cut for repetition is not an ending: the model is asked once more.
    assert "reply_complete" in retries(events)[1]
    assert end(events).result == "Nothing to do: notes.txt is fine as it is."


async def test_a_continuation_after_a_repetition_cut_never_ends_done(run: Run, openai_server: OpenAIServer):
    openai_server.reply(
        Reply(text="Reading.", fault="loop"),
        "Nothing to do.\nAGENT_STATUS: DONE",
        Reply(text="Reading.", fault="loop"),
        "Nothing to do.\nAGENT_STATUS: DONE",
    )

    events = await run(max_tokens=100_000)

    assert end(events).status == "STOP"
    assert not end(events).verified
    assert "reply_complete" in end(events).result


async def test_a_later_cut_off_is_continued_again(run: Run, openai_server: OpenAIServer):
    openai_server.reply(
        cut("One"), " two.\nAGENT_STATUS: CONTINUE", cut("Three"), " four.\nAGENT_STATUS: DONE"
    )

    events = await run()

    assert end(events).status == "DONE" and end(events).result == "Three four."
    assert len(retries(events)) == 2
