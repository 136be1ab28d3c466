"""What the agent calls before every request: make the history fit the model's context window.

First, large tool results outside the latest exchange shrink to head and tail (the full text stays in
`.asi/outputs/`); when that is not enough, the older turns are compacted by the model (`compact`); as
a last resort the latest exchange's own results shrink too. Nothing is dropped: the task, the plan
and the latest exchange stay, and every cut says where the full text is.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from asi_agent.backends.base import Backend, ToolSchema
from asi_agent.backends.guide import TurnPlan
from asi_agent.context.compact import SKILL_TOOL, SUMMARY_SYSTEM, Compaction, compact, partition
from asi_agent.context.images import image_rule
from asi_agent.context.shrink import drop_images, shrink_result
from asi_agent.context.tokens import MESSAGE_OVERHEAD, TokenCounter
from asi_agent.events import ContextCompacted
from asi_agent.memo import LastValue
from asi_agent.messages import Message, Usage
from asi_agent.session import Session

__all__ = ["ContextConfig", "ContextKeeper", "Fitted", "model_context_window", "model_tokenizer"]

log = logging.getLogger("asi_agent.context")
_RETRY_AFTER = 8
"""Messages the history must grow by before a compaction that did not shrink it is tried again."""

Reason = Literal["budget", "overflow", "request"]

_PATH_KEYS = ("path", "filePath", "file_path", "file", "target", "destination")
_MIN_KEEP_CHARS, _MAX_KEEP_CHARS = 300, 6000
_SHRINK_TARGET = 0.85


class ContextConfig(BaseModel):
    """How the history is kept inside the model's context window."""

    model_config = ConfigDict(extra="forbid")

    window: int | None = Field(None, ge=256)
    """The model's context window in tokens; None asks the backend (and, if it cannot say, no limit is
    kept until the server reports an overflow)."""
    reply_tokens: int | None = Field(None, ge=16)
    """Tokens kept free for the reply; None means a quarter of the window, at most 2048."""


@dataclass(frozen=True, slots=True)
class Fitted:
    """The history as it will be sent, and what was done to make it fit."""

    messages: list[Message]
    tokens: int
    """Prompt tokens as counted (system prompt, tools and history)."""
    context_left: int | None
    """Window minus prompt tokens; None when the window is unknown."""
    shrunk: int = 0
    """Tool results cut to head and tail this time."""
    compaction: Compaction | None = None
    tokens_before: int = 0
    """Prompt tokens before anything was done."""

    @property
    def changed(self) -> bool:
        """Whether the history differs from what was given."""
        return bool(self.shrunk) or (self.compaction is not None and self.compaction.replaced > 0)


async def model_context_window(backend: Backend) -> int | None:
    """The backend's context window when it can tell (`context_window()`), else None."""
    window = await backend.context_window()
    return int(window) if window else None


def model_tokenizer(backend: Backend) -> TokenCounter:
    """A counter using the backend's `count_tokens(text)` (estimating once the backend cannot count), and
    counting images by the rule of its API."""
    return TokenCounter(backend.count_tokens, images=image_rule(backend))


class ContextKeeper:
    """Fits one run's history into the window of one backend."""

    def __init__(
        self,
        backend: Backend,
        config: ContextConfig | None = None,
        *,
        state_dir: Path | None = None,
        writes: frozenset[str] = frozenset(),
    ) -> None:
        self.backend, self.config = backend, config or ContextConfig()
        self.state_dir, self.write_tools = state_dir, writes
        self.counter = model_tokenizer(backend)
        self._window: int | None = None
        self._tools_text: LastValue[list[ToolSchema], str] = LastValue(json.dumps)
        """The JSON of the tools last counted (most turns offer the same tools)."""
        self._asked = False
        self._last_count = 0
        self._futile = -_RETRY_AFTER  # the history's length when compacting it last made it no smaller
        self.context_left: int | None = None
        """What the last fit left of the window; None when the window is unknown."""
        self.before_compact: Callable[[str], Awaitable[None]] | None = None
        """Called just before the older turns are summarised, with `manual` (the person's `/compact`) or
        `auto` (the window filled up): the `PreCompact` hook."""

    async def window(self) -> int | None:
        """The context window: configured, else reported by the backend (asked once)."""
        if self.config.window is not None:
            return self.config.window
        if not self._asked:
            self._asked = True
            self._window = await model_context_window(self.backend)
        return self._window

    async def fit(
        self,
        messages: Sequence[Message],
        fixed: str,
        *,
        task: str,
        force: bool = False,
        trigger: str = "auto",
    ) -> Fitted:
        """The history made to fit; `fixed` is the system prompt and tool text sent with it.

        `force` (after the server reported an overflow) compacts even when the count says it fits;
        `trigger` is what `before_compact` is told (`manual` for the person's `/compact`).
        """
        window = await self.window()
        history = list(messages)
        if window is None and not force:
            return Fitted(history, 0, None)  # nothing to keep within: do not even count
        fixed_tokens = await self.counter.text(fixed) + MESSAGE_OVERHEAD
        total = fixed_tokens + await self.counter.messages(history)
        limit = self._limit(window, total, force)
        fitted = Fitted(history, total, None)
        if limit is not None and (total > limit or force):
            fitted = await self._make_room(
                history, fixed_tokens, limit, task=task, force=force, trigger=trigger
            )
        self._last_count = fitted.tokens
        left = None if window is None else window - fitted.tokens
        return Fitted(fitted.messages, fitted.tokens, left, fitted.shrunk, fitted.compaction, total)

    async def _make_room(
        self, history: list[Message], fixed: int, limit: int, *, task: str, force: bool, trigger: str
    ) -> Fitted:
        """Shrink old results; if still too long (or forced), compact; if still too long, shrink the rest."""
        keep = max(_MIN_KEEP_CHARS, min(_MAX_KEEP_CHARS, limit))
        head, middle, _tail = partition(history)
        # Shrink below the limit, not just to it: otherwise every following turn would shrink one more result.
        target = int(limit * _SHRINK_TARGET)
        history, shrunk = await self._shrink(history, range(len(head) + len(middle)), keep, target, fixed)
        total = fixed + await self.counter.messages(history)
        compaction = None
        if (total > limit and len(history) >= self._futile + _RETRY_AFTER) or force:
            if self.before_compact is not None:
                await self.before_compact(trigger)
            compaction = await self._compact(history, task, limit - fixed)
            compacted = fixed + await self.counter.messages(compaction.messages)
            if compacted < total:
                history, total = compaction.messages, compacted
            else:  # a summary longer than what it replaces (a small model's) is not kept, nor retried soon
                log.info(
                    "compaction did not shrink the history (%d -> %d tokens); not kept", total, compacted
                )
                self._futile, compaction = len(history), None
        if total > limit:  # last resort: the latest exchange's own results
            history, count = await self._shrink(history, range(len(history)), keep // 2, limit, fixed)
            shrunk += count
            total = fixed + await self.counter.messages(history)
        return Fitted(history, total, None, shrunk, compaction)

    async def refit(
        self,
        messages: list[Message],
        session: Session,
        system: str,
        tools: Sequence[ToolSchema] | None,
        *,
        task: str,
        reason: Reason,
        plan: TurnPlan | None = None,
    ) -> ContextCompacted | None:
        """Fit `messages` in place, record a change in the transcript, and return it as an event.

        `system` and `tools` are what the agent hands the backend besides the history; what the backend
        really sends is counted when it can tell (`fixed_text`: with the planner's `plan`, a guided local
        model sends a few tools and its own orientation instead).
        """
        fixed = await self._fixed_text(system, messages, tools, plan)
        trigger = "manual" if reason == "request" else "auto"
        fitted = await self.fit(messages, fixed, task=task, force=reason != "budget", trigger=trigger)
        self.context_left = fitted.context_left
        if not fitted.changed:
            return None
        messages[:] = fitted.messages
        summarised = fitted.compaction.replaced if fitted.compaction else 0
        session.append(
            "compacted",
            reason=reason,
            tokens_before=fitted.tokens_before,
            tokens_after=fitted.tokens,
            context_left=fitted.context_left,
            shrunk=fitted.shrunk,
            summarised=summarised,
            messages=[m.to_dict() for m in messages],
        )
        return ContextCompacted(
            fitted.tokens_before, fitted.tokens, fitted.shrunk, summarised, fitted.context_left, reason
        )

    async def _fixed_text(
        self,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSchema] | None,
        plan: TurnPlan | None,
    ) -> str:
        sent = await self.backend.fixed_text(system, messages, tools, plan)
        if sent is not None:
            return sent
        if not tools:
            return system
        return system + self._tools_text(list(tools))

    def observe(self, usage: Usage) -> None:
        """Calibrate the estimate with the prompt size the server reported for the last request."""
        self.counter.calibrate(self._last_count, usage.prompt_tokens)

    def distrust(self) -> None:
        """The server reported an overflow: count more cautiously from now on."""
        self.counter.distrust()

    def _limit(self, window: int | None, total: int, force: bool) -> int | None:
        # After an overflow the count was wrong (or the window unknown): aim well below what was sent.
        below = int(total * 0.6) if force else None
        if window is None:
            return below
        reserve = self.config.reply_tokens or min(2048, window // 4)
        return min(window - reserve, below) if below is not None else window - reserve

    async def _shrink(
        self, history: list[Message], candidates: range, keep: int, limit: int, fixed: int
    ) -> tuple[list[Message], int]:
        """Shrink the largest tool results among `candidates` until the history fits."""
        history = list(history)
        sizes = {
            i: await self.counter.message(history[i])
            for i in candidates
            if history[i].role == "tool" and history[i].name != SKILL_TOOL  # a skill in use stays whole
        }
        total = fixed + await self.counter.messages(history)
        count = 0
        for index in sorted(sizes, key=lambda i: -sizes[i]):
            if total <= limit:
                break
            message = history[index]
            smaller = shrink_result(drop_images(message), keep, self.state_dir)
            if smaller is message:  # short, already shrunk, no image: nothing to gain
                continue
            history[index] = smaller
            total += await self.counter.message(history[index]) - sizes[index]
            count += 1
        return history, count

    async def _compact(self, history: list[Message], task: str, room: int) -> Compaction:
        overhead = await self.counter.text(SUMMARY_SYSTEM) + 4 * MESSAGE_OVERHEAD
        chunk = max(256, (room - overhead) // 2)
        result = await compact(
            history,
            self.backend,
            task=task,
            changed_files=self._changed(history),
            chunk_tokens=chunk,
            counter=self.counter,
        )
        log.info("compacted %d messages (summary by model: %s)", result.replaced, result.by_model)
        return result

    def _changed(self, history: Sequence[Message]) -> list[str]:
        """Paths named by write-class calls, in order, once each."""
        found: dict[str, None] = {}
        for message in history:
            for call in message.tool_calls:
                if call.name not in self.write_tools:
                    continue
                for key in _PATH_KEYS:
                    value = call.arguments.get(key)
                    if isinstance(value, str) and value:
                        found[value] = None
                        break
        return list(found)
