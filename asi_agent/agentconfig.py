"""How one run of the agent is bounded, gated and offered its tools (`AgentConfig`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from asi_agent.bounds import DEFAULT_REPEAT_LIMIT
from asi_agent.config import ToolMode
from asi_agent.context import ContextConfig
from asi_agent.gate import GateConfig
from asi_agent.routing import RoutingConfig
from asi_agent.verify import VerifyConfig

if TYPE_CHECKING:
    from asi_agent.hooks import Hooks

__all__ = ["AgentConfig"]


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentConfig:
    """How one run is bounded and gated."""

    max_turns: int = 30
    tool_mode: ToolMode = "auto"
    gate: GateConfig = field(default_factory=GateConfig)
    """Approval mode, policy, and whether somebody can answer questions."""
    max_text_retries: int = 2
    locale: str = "en"
    offered: tuple[str, ...] = ()
    """When set, only these tools are described to the model (others still run when named)."""
    routing: RoutingConfig = field(default_factory=RoutingConfig)
    """When many plugin tools are registered, offer each turn only the relevant ones."""
    call_format: str = "auto"
    """Text mode's call dialect: "auto" (from the model name, then the first reply) or a dialect name."""
    context: ContextConfig = field(default_factory=ContextConfig)
    """The model's context window and how much of it the reply keeps."""
    repeat_limit: int = DEFAULT_REPEAT_LIMIT
    """The same call with the same result this many times in a row ends the run with STOP."""
    chat_template: str | None = None
    """The model's chat template (`--chat-template`); None asks the backend. Calls are read in the form
    it renders them first."""
    verify: VerifyConfig = field(default_factory=VerifyConfig)
    """What the runtime checks before DONE, and how it runs the project's tests."""
    hooks: Hooks | None = None
    """The lifecycle hooks around each run (`UserPromptSubmit`, `Stop`, …); None: none are configured."""
