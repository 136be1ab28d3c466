"""Keeping a run's history inside the model's context window.

asi_agent.context.tokens   TokenCounter       the model's tokenizer, else a calibrated estimate
asi_agent.context.shrink   shrink_result      a large tool result cut to head and tail, full text saved
asi_agent.context.compact  compact            older turns summarised by the model into one message
asi_agent.context.keeper   ContextKeeper      what the agent calls before every request
"""

from __future__ import annotations

from asi_agent.context.compact import COMPACTION_HEADER, Compaction, compact
from asi_agent.context.keeper import ContextConfig, ContextKeeper, Fitted
from asi_agent.context.tokens import TokenCounter

__all__ = [
    "COMPACTION_HEADER",
    "Compaction",
    "ContextConfig",
    "ContextKeeper",
    "Fitted",
    "TokenCounter",
    "compact",
]
