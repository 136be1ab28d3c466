"""The one Protocol every model backend implements."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from asi_agent.messages import Completion, Message

__all__ = ["Backend", "DeltaCallback", "ToolSchema"]

ToolSchema = dict[str, Any]
"""A tool in the `{"type": "function", "function": {name, description, parameters}}` shape."""

DeltaCallback = Callable[[str], None]


class Backend(Protocol):
    """A chat model. Backends only talk to the model: parsing and executing calls is the agent's job."""

    @property
    def model_name(self) -> str:
        """The model this backend talks to, for logs and transcripts."""
        ...

    async def supports_native_tools(self) -> bool:
        """Whether native tool definitions can be sent (False makes `auto` tool mode use text mode)."""
        ...

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSchema] | None = None,
        *,
        on_delta: DeltaCallback | None = None,
    ) -> Completion:
        """One chat request. `tools=None` means text mode; `on_delta` receives streamed text.

        The reply's `finish_reason` says whether it ended by itself (see `Completion`): the agent never
        runs anything from a reply cut off by the token limit, the context or the backend.
        Raises `BackendError` when the server cannot be used and `ToolsUnsupportedError` when it
        rejects the tool definitions (or, as far as the backend can tell, accepted and ignored them).
        """
        ...

    async def aclose(self) -> None:
        """Release connections and processes."""
        ...
