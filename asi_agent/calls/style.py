"""Which dialect a text-mode session writes its contract in, and learning it from the model's replies.

`call_format = "auto"` starts from the model's name (`dialect_for_model`); the first reply that makes a
call in some dialect fixes the session's dialect, so a model fine-tuned on one format is prompted in it
from then on. A named format is kept whatever the model writes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from asi_agent.calls import textmode
from asi_agent.calls.dialects import CALL_FORMATS, Dialect, dialect_for_model, get_dialect
from asi_agent.calls.parse import ParsedReply
from asi_agent.messages import Message

if TYPE_CHECKING:
    from asi_agent.backends.base import ToolSchema

__all__ = ["CallStyle"]

_KEPT_CONTRACTS = 32
_CONTRACTS: dict[tuple[str, str], tuple[Dialect, str]] = {}
"""The contracts rendered last, by tool set (its JSON) and dialect name; the dialect itself is kept to
tell apart two dialects of one name (one learned from a chat template, say)."""


@dataclass(slots=True)
class CallStyle:
    """The dialect of a session's text-mode contract, history and retry prompts."""

    dialect: Dialect
    learning: bool
    """True until the first call fixes the dialect (only with `auto`)."""
    projection: textmode.HistoryProjection = field(default_factory=textmode.HistoryProjection, compare=False)
    """The history as projected last turn, so a turn projects only what it added."""

    @classmethod
    def choose(cls, call_format: str, model: str, records: Iterable[Mapping[str, Any]] = ()) -> CallStyle:
        """The style for a configured `call_format` ("auto" or a dialect name) and a model name; with
        "auto", a resumed session's transcript `records` give back the dialect it had learned."""
        if call_format != "auto":
            return cls(get_dialect(call_format), learning=False)
        learned = [r.get("call_format") for r in records if r.get("type") == "call_format"]
        if learned and isinstance(learned[-1], str) and learned[-1] in CALL_FORMATS[1:]:
            return cls(get_dialect(learned[-1]), learning=False)
        return cls(dialect_for_model(model), learning=True)

    @property
    def name(self) -> str:
        """The dialect's name, as `--call-format` spells it."""
        return self.dialect.name

    @property
    def hint(self) -> str:
        """How to write a call, ending every parse problem."""
        return textmode.call_hint(self.dialect)

    def learn(self, parsed: ParsedReply) -> bool:
        """Adopt the dialect of the first reply that made a call; True when the dialect changed."""
        if not self.learning or not parsed.calls or not parsed.dialect:
            return False
        self.learning = False
        try:
            dialect = get_dialect(parsed.dialect)
        except KeyError:
            return False
        if dialect.render is None or dialect is self.dialect:
            return False
        self.dialect = dialect
        return True

    def contract(self, tools: Sequence[ToolSchema]) -> str:
        """The text-mode contract in this dialect (rendered once per tool set and dialect: a gateway's
        clients send the same tools with every request)."""
        key = (json.dumps(tools, sort_keys=True, ensure_ascii=False, default=repr), self.dialect.name)
        kept = _CONTRACTS.get(key)
        if kept is not None and kept[0] is self.dialect:
            return kept[1]
        text = textmode.render_contract(tools, self.dialect)
        if len(_CONTRACTS) >= _KEPT_CONTRACTS:  # many tool sets: start again (single dict operations only,
            _CONTRACTS.clear()  # safe from any thread)
        _CONTRACTS[key] = (self.dialect, text)
        return text

    def history(self, messages: Sequence[Message]) -> list[Message]:
        """The transcript with calls written in this dialect."""
        return self.projection(messages, self.dialect)

    def retry_prompt(self, reason: str) -> str:
        """The retry message, with its example in this dialect."""
        return textmode.retry_prompt(reason, self.dialect)
