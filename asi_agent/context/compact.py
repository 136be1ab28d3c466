"""Compaction: older turns summarised by the model into one message, keeping what the run depends on.

`compact` is the public entry point (the agent calls it when the history outgrows the window, the UI's
`/compact` calls it on request). The task, the plan (the first exchange) and the latest exchange are
never summarised; everything between them becomes one user message starting with `COMPACTION_HEADER`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from asi_agent.backends.base import Backend
from asi_agent.context.tokens import TokenCounter, estimate_tokens
from asi_agent.exceptions import BackendError
from asi_agent.messages import Message

__all__ = ["COMPACTION_HEADER", "SKILL_TOOL", "SUMMARY_SYSTEM", "Compaction", "compact", "partition"]

log = logging.getLogger("asi_agent.context")

COMPACTION_HEADER = "[Earlier conversation, compacted]"
"""First line of the message that replaces summarised turns."""

SUMMARY_SYSTEM = """You compact the conversation of a coding assistant so that it can go on with less text.
Write a factual summary under these headings: Task, Decisions made, Files changed, Open problems, Next step.
Keep file paths, names, commands and error messages exactly as written. At most 250 words. No preamble."""
"""System prompt of the summarisation request (a model can recognise such requests by it)."""

SKILL_TOOL = "execute_skill"
"""The tool whose results (a skill's instructions) compaction and shrinking keep whole."""
_RESULT_CHARS = 400
_ARGS_CHARS = 300


@dataclass(frozen=True, slots=True)
class Compaction:
    """The history after compaction, and what was done."""

    messages: list[Message]
    summary: str
    replaced: int
    """How many messages the summary replaced (0: nothing could be compacted)."""
    by_model: bool = True
    """False when the model could not summarise and a plain digest of the turns was used."""


def partition(messages: Sequence[Message]) -> tuple[list[Message], list[Message], list[Message]]:
    """(kept head: the task and the plan exchange, middle to summarise, kept tail: the latest exchange)."""
    items = list(messages)
    first_user = next((i for i, m in enumerate(items) if m.role == "user"), 0)
    plan = next((i for i in range(first_user, len(items)) if items[i].role == "assistant"), len(items))
    head_end = _exchange_end(items, plan) if plan < len(items) else len(items)
    last = max((i for i, m in enumerate(items) if m.role == "assistant"), default=-1)
    tail_start = max(last, head_end)
    return items[:head_end], items[head_end:tail_start], items[tail_start:]


def _skill_texts(middle: Sequence[Message]) -> list[str]:
    """The skills loaded by `execute_skill` among the messages, each once (the latest copy)."""
    found: dict[str, str] = {}
    for message in middle:
        if message.role == "tool" and message.name == SKILL_TOOL and message.content.startswith("Skill: "):
            found[message.content.split("\n", 1)[0]] = message.content
    return list(found.values())


def _exchange_end(items: list[Message], assistant: int) -> int:
    """The index after an assistant message and the tool results that answer it."""
    end = assistant + 1
    while end < len(items) and items[end].role == "tool":
        end += 1
    return end


async def compact(
    messages: Sequence[Message],
    model: Backend,
    *,
    task: str | None = None,
    changed_files: Sequence[str] = (),
    chunk_tokens: int = 6000,
    counter: TokenCounter | None = None,
) -> Compaction:
    """Summarise the turns between the plan and the latest exchange into one message.

    `task` is restated at the top of the summary (default: the first user message); `changed_files`
    are listed as they are, not as the model remembers them; the turns are sent to the model in chunks
    of at most `chunk_tokens` (so that a small window can summarise a long history, fold by fold).
    """
    head, middle, tail = partition(messages)
    if not middle:
        return Compaction(list(messages), "", 0)
    task = task if task is not None else next((m.content for m in head if m.role == "user"), "")
    lines = [_render(m) for m in middle]
    try:
        summary = await _summarise(model, lines, chunk_tokens, counter or TokenCounter())
        by_model = bool(summary.strip())
    except BackendError as exc:
        log.warning("the model could not summarise the history (%s); using a plain digest", exc)
        summary, by_model = "", False
    if not by_model:
        summary = _digest(middle)
    text = f"{COMPACTION_HEADER}\nTask: {task}\n\n{summary.strip()}"
    if changed_files:
        text += "\n\nFiles changed so far: " + ", ".join(changed_files)
    for skill in _skill_texts(middle):  # a skill in use is followed to the end of the run, word for word
        text += f"\n\n[Skill in use, kept as loaded]\n{skill}"
    note = Message("user", text, origin="runtime")
    return Compaction([*head, note, *tail], summary.strip(), len(middle), by_model)


async def _summarise(model: Backend, lines: list[str], chunk_tokens: int, counter: TokenCounter) -> str:
    """Fold the rendered turns into a summary, one chunk per request."""
    summary = ""
    for chunk in await _chunks(lines, chunk_tokens, counter):
        prompt = f"Summary so far:\n{summary}\n\n" if summary else ""
        prompt += f"Conversation to summarise:\n{chunk}"
        reply = await model.complete([Message("system", SUMMARY_SYSTEM), Message("user", prompt)], None)
        summary = reply.text.strip() or summary
    return summary


async def _chunks(lines: list[str], chunk_tokens: int, counter: TokenCounter) -> list[str]:
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        tokens = await counter.text(line)
        if current and size + tokens > chunk_tokens:
            chunks.append("\n".join(current))
            current, size = [], 0
        text = line
        if tokens > chunk_tokens:  # one huge turn: keep its start, a summary needs no more
            text = line[: chunk_tokens * 3]
            tokens = estimate_tokens(text)
        current.append(text)
        size += tokens
    if current:
        chunks.append("\n".join(current))
    return chunks


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]} … {text[-half:]}"


def _render(message: Message) -> str:
    """One turn as a line of the transcript the summariser reads (an image named, never sent)."""
    seen = "".join(f" [image{' ' + image.name if image.name else ''}]" for image in message.images)
    if message.role == "tool":
        return f"TOOL RESULT ({message.name or 'tool'}): {_clip(message.content, _RESULT_CHARS)}{seen}"
    calls = "; ".join(
        f"{c.name}({_clip(json.dumps(c.arguments, ensure_ascii=False), _ARGS_CHARS)})"
        for c in message.tool_calls
    )
    text = _clip(message.content, _RESULT_CHARS * 2)
    line = f"{message.role.upper()}: {text}{seen}"
    return f"{line} [calls: {calls}]" if calls else line


def _digest(middle: Sequence[Message]) -> str:
    """A summary without the model: the calls made and the last words of the assistant."""
    calls = [
        f"{c.name} {json.dumps(c.arguments, ensure_ascii=False)[:80]}" for m in middle for c in m.tool_calls
    ]
    said = [m.content for m in middle if m.role == "assistant" and m.content.strip()]
    parts = [f"Calls made ({len(calls)}): " + "; ".join(calls[-20:])] if calls else []
    if said:
        parts.append("Last notes: " + _clip(said[-1], 600))
    errors = [m.content for m in middle if m.role == "tool" and not m.ok]
    if errors:
        parts.append("Last error: " + _clip(errors[-1], 300))
    return "\n".join(parts) or "(no details kept)"
