"""The one Protocol every model backend implements: every capability the runtime uses is declared here.

Nothing outside `backends/` probes a backend for a method or sets an attribute on it after construction:
a capability a backend lacks is answered by `BackendBase`'s default (None, False).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from asi_agent.messages import Completion, Message

if TYPE_CHECKING:
    from asi_agent.backends.guide import TurnPlan

__all__ = ["NO_OPTIONS", "Backend", "BackendBase", "DeltaCallback", "RequestOptions", "ToolSchema"]

ToolSchema = dict[str, Any]
"""A tool in the `{"type": "function", "function": {name, description, parameters}}` shape."""

DeltaCallback = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class RequestOptions:
    """What one request asks beyond the backend's configuration (the gateway passes a client's on)."""

    max_tokens: int | None = None
    """The reply's token limit for this request, in place of the configured one; None keeps that."""
    tool_choice: str | None = None
    """`auto`, `none`, `required` or the name of the one tool to call, for native tools; None leaves
    the server's default. A backend whose server has no such field narrows the tools it sends instead."""

    def limit(self, configured: int | None) -> int | None:
        """The token limit in force: this request's, else the configured one."""
        return self.max_tokens if self.max_tokens is not None else configured

    def narrowed(self, tools: Sequence[ToolSchema] | None) -> Sequence[ToolSchema] | None:
        """The tools a server without a `tool_choice` field is sent: none for `none`, the named one only."""
        choice = self.tool_choice
        if not tools or choice in (None, "auto", "required"):
            return tools
        if choice == "none":
            return None
        return [t for t in tools if t.get("function", {}).get("name") == choice] or None


NO_OPTIONS = RequestOptions()


class Backend(Protocol):
    """A chat model. Backends only talk to the model: executing calls is the agent's job."""

    @property
    def model_name(self) -> str:
        """The model this backend talks to, for logs and transcripts."""
        ...

    @property
    def small_model(self) -> bool:
        """Whether the model is the tiny embedded one (it is offered fewer tools and a planner guides it)."""
        ...

    @property
    def wants_planner(self) -> bool:
        """Whether the runtime's rule-based planner (grounding) should narrow every turn of this model."""
        ...

    @property
    def constrained(self) -> bool:
        """Whether a reply can be constrained to a JSON schema (a planner's `TurnPlan` is then honoured)."""
        ...

    async def supports_native_tools(self) -> bool:
        """Whether native tool definitions can be sent (False makes `auto` tool mode use text mode)."""
        ...

    async def accepts_images(self) -> bool:
        """Whether the model reads the images a message carries (`Message.images`)."""
        ...

    async def chat_template(self) -> str | None:
        """The model's Jinja chat template (calls are read in the form it renders them), None if unknown."""
        ...

    async def context_window(self) -> int | None:
        """The model's context size in tokens, None when the server does not say."""
        ...

    async def count_tokens(self, text: str) -> int | None:
        """Tokens of `text` by the model's own tokenizer, None when it cannot count."""
        ...

    async def fixed_text(
        self,
        system: str,
        history: Sequence[Message],
        tools: Sequence[ToolSchema] | None,
        plan: TurnPlan | None = None,
    ) -> str | None:
        """What a request sends besides the history (system turn, tool text), when the backend sends
        something other than `system` and the tools' JSON; None lets the runtime estimate."""
        ...

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSchema] | None = None,
        *,
        on_delta: DeltaCallback | None = None,
        plan: TurnPlan | None = None,
        options: RequestOptions = NO_OPTIONS,
    ) -> Completion:
        """One chat request. `tools=None` means no tools; `on_delta` receives streamed text; `plan` (a
        planner's narrowing of the turn) is honoured by a backend that constrains decoding; `options`
        (a token limit, a tool choice) override the configuration for this request.

        The reply's `finish_reason` says whether it ended by itself (see `Completion`): the agent never
        runs anything from a reply cut off by the token limit, the context or the backend.
        Raises `BackendError` when the server cannot be used and `ToolsUnsupportedError` when it
        rejects the tool definitions (or, as far as the backend can tell, accepted and ignored them).
        """
        ...

    async def aclose(self) -> None:
        """Release connections and processes."""
        ...


class BackendBase:
    """The answers of a backend that lacks a capability: no template, window, tokenizer or planner."""

    @property
    def small_model(self) -> bool:
        """Not the embedded tiny model."""
        return False

    @property
    def wants_planner(self) -> bool:
        """No planner."""
        return False

    @property
    def constrained(self) -> bool:
        """Replies are not constrained to a schema."""
        return False

    async def chat_template(self) -> str | None:
        """Unknown."""
        return None

    async def accepts_images(self) -> bool:
        """No: images are described to the model in words instead."""
        return False

    async def context_window(self) -> int | None:
        """Unknown."""
        return None

    async def count_tokens(self, text: str) -> int | None:
        """Cannot count."""
        return None

    async def fixed_text(
        self,
        system: str,
        history: Sequence[Message],
        tools: Sequence[ToolSchema] | None,
        plan: TurnPlan | None = None,
    ) -> str | None:
        """The runtime estimates."""
        return None
