"""compact(), shrinking and token counting on their own, with the shipped scripted backend."""

from __future__ import annotations

from pathlib import Path

from servers.ollama_server import OllamaServer

from asi_agent.backends.ollama import OllamaBackend, OllamaBackendConfig
from asi_agent.backends.scripted import ScriptedBackend
from asi_agent.context import COMPACTION_HEADER, TokenCounter, compact
from asi_agent.context.compact import SUMMARY_SYSTEM, partition
from asi_agent.context.shrink import is_shrunk, shrink_result
from asi_agent.messages import Message, ToolCall


def history(turns: int) -> list[Message]:
    messages = [Message("user", "the task")]
    for n in range(turns):
        call = ToolCall(f"c{n}", "create_file", {"path": f"f{n}.py", "content": "x"})
        result = Message("tool", f"wrote f{n}.py", tool_call_id=f"c{n}", name="create_file")
        messages += [Message("assistant", f"step {n}", (call,)), result]
    return messages


def test_partition_keeps_the_task_the_plan_exchange_and_the_latest_exchange() -> None:
    head, middle, tail = partition(history(5))
    assert [m.content for m in head] == ["the task", "step 0", "wrote f0.py"]
    assert [m.content for m in tail] == ["step 4", "wrote f4.py"]
    assert len(middle) == 6


async def test_compact_asks_the_model_and_replaces_the_middle_by_one_message() -> None:
    model = ScriptedBackend(["Task: t. Decisions: wrote files f1..f3."])
    result = await compact(history(5), model, changed_files=["f1.py", "f2.py"])
    assert result.replaced == 6 and result.by_model
    assert [m.role for m in result.messages] == ["user", "assistant", "tool", "user", "assistant", "tool"]
    note = result.messages[3].content
    assert note.startswith(COMPACTION_HEADER) and "Task: the task" in note
    assert "wrote files f1..f3" in note and "Files changed so far: f1.py, f2.py" in note
    sent, tools = model.requests[0]
    assert tools is None and sent[0].content == SUMMARY_SYSTEM
    assert "f2.py" in sent[1].content and "f4.py" not in sent[1].content


async def test_a_long_history_is_summarised_fold_by_fold() -> None:
    model = ScriptedBackend([f"fold {n}" for n in range(1, 40)])
    result = await compact(history(40), model, chunk_tokens=150)
    folds = len(model.requests)
    assert 1 < folds < 39
    assert "Summary so far:\nfold 1" in model.requests[1][0][1].content
    assert result.summary == f"fold {folds}"


async def test_without_a_model_answer_a_plain_digest_is_kept() -> None:
    result = await compact(history(4), ScriptedBackend([]))
    assert not result.by_model and "create_file" in result.messages[3].content


async def test_nothing_to_compact_leaves_the_history_alone() -> None:
    messages = history(1)
    result = await compact(messages, ScriptedBackend([]))
    assert result.replaced == 0 and result.messages == messages


def test_shrinking_keeps_head_and_tail_and_saves_the_full_text(tmp_path: Path) -> None:
    text = "".join(f"line {i}\n" for i in range(1000))
    message = Message("tool", text, tool_call_id="c1", name="read_file")
    small = shrink_result(message, 600, tmp_path / ".asi")
    assert len(small.content) < 800 and is_shrunk(small)
    assert small.content.startswith("line 0\n") and small.content.endswith("line 999\n")
    saved = next((tmp_path / ".asi" / "outputs").iterdir())
    assert saved.read_text() == text and f".asi/outputs/{saved.name}" in small.content
    assert (tmp_path / ".asi" / ".gitignore").read_text() == "*\n"
    assert shrink_result(small, 100, tmp_path / ".asi") is small


async def test_the_estimate_calibrates_on_reported_usage() -> None:
    counter = TokenCounter()
    first = await counter.text("x" * 400)
    assert first == 100
    counter.calibrate(first, 200)
    assert 170 <= await counter.text("x" * 400) <= 200


async def test_a_tokenizer_is_used_when_offered_and_dropped_when_it_fails() -> None:
    answers = iter([7, None])

    async def tokenize(_text: str) -> int | None:
        return next(answers)

    counter = TokenCounter(tokenize)
    assert await counter.text("abc") == 7 and await counter.text("abc") == 7
    assert await counter.text("x" * 40) == 10 and not counter.exact


async def test_ollama_reports_num_ctx_capped_by_the_models_length() -> None:
    with OllamaServer() as server:
        server.context_length = 2048
        backend = OllamaBackend(OllamaBackendConfig(model="test-model", host=server.host, num_ctx=8192))
        assert await backend.context_window() == 2048
        server.context_length = None
        backend2 = OllamaBackend(OllamaBackendConfig(model="test-model", host=server.host, num_ctx=4096))
        assert await backend2.context_window() == 4096
        await backend.aclose()
        await backend2.aclose()
