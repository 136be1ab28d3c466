"""What one eval worker keeps from task to task: its in-process model and its work folder.

Loading the embedded model and reading the long, shared start of every prompt (system prompt, tool
list) cost more than a short task itself. A worker therefore keeps one local backend open for all its
tasks, and runs every task in the same folder path (emptied in between), so that the prompts of two
tasks begin with the same text and llama.cpp's prompt cache can skip it.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from asi_agent.backends.base import (
    NO_OPTIONS,
    Backend,
    BackendBase,
    DeltaCallback,
    RequestOptions,
    ToolSchema,
)
from asi_agent.backends.guide import TurnPlan
from asi_agent.config import AsiConfig
from asi_agent.messages import Completion, Message
from asi_agent.providers import create_backend, detect_provider

__all__ = ["KeptOpen", "backend_for", "new_base", "work_slot"]

_local = threading.local()
_slots = itertools.count()


class KeptOpen(BackendBase):
    """A backend shared by the tasks of one worker: closing it after a task does nothing."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner

    @property
    def small_model(self) -> bool:
        """As the shared backend says."""
        return self.inner.small_model

    @property
    def wants_planner(self) -> bool:
        """As the shared backend says."""
        return self.inner.wants_planner

    @property
    def constrained(self) -> bool:
        """As the shared backend says."""
        return self.inner.constrained

    async def accepts_images(self) -> bool:
        """As the shared backend says."""
        return await self.inner.accepts_images()

    async def chat_template(self) -> str | None:
        """As the shared backend says."""
        return await self.inner.chat_template()

    async def context_window(self) -> int | None:
        """As the shared backend says."""
        return await self.inner.context_window()

    async def count_tokens(self, text: str) -> int | None:
        """By the shared backend's tokenizer."""
        return await self.inner.count_tokens(text)

    async def fixed_text(
        self,
        system: str,
        history: Sequence[Message],
        tools: Sequence[ToolSchema] | None,
        plan: TurnPlan | None = None,
    ) -> str | None:
        """As the shared backend sends it."""
        return await self.inner.fixed_text(system, history, tools, plan)

    @property
    def model_name(self) -> str:
        """The shared backend's model."""
        return self.inner.model_name

    async def supports_native_tools(self) -> bool:
        """As the shared backend says."""
        return await self.inner.supports_native_tools()

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSchema] | None = None,
        *,
        on_delta: DeltaCallback | None = None,
        plan: TurnPlan | None = None,
        options: RequestOptions = NO_OPTIONS,
    ) -> Completion:
        """One request to the shared backend."""
        return await self.inner.complete(messages, tools, on_delta=on_delta, plan=plan, options=options)

    async def aclose(self) -> None:
        """Kept open for the worker's next task."""


def backend_for(config: AsiConfig) -> Backend:
    """The worker's local model when the provider is `local` (loaded once); any other backend fresh."""
    if detect_provider(config) != "local":
        return create_backend(config)
    key = config.model_dump_json(include={"model", "local", "temperature"})
    cache: dict[str, KeptOpen] = getattr(_local, "backends", {})
    _local.backends = cache
    if key not in cache:
        cache[key] = KeptOpen(create_backend(config))
    return cache[key]


def work_slot(base: Path) -> Path:
    """This worker's project folder under `base`, emptied: the same path for each of its tasks."""
    index = getattr(_local, "index", None)
    if index is None:
        index = _local.index = next(_slots)
    slot = base / f"slot-{index}" / "project"
    if slot.exists():
        shutil.rmtree(slot)
    slot.parent.mkdir(parents=True, exist_ok=True)
    return slot


def new_base() -> tempfile.TemporaryDirectory[str]:
    """The folder that holds the workers' slots for one eval run.

    Removed even when an interrupted task is still writing in it (the process ends right after).
    """
    return tempfile.TemporaryDirectory(prefix="asi-eval-", ignore_cleanup_errors=True)
