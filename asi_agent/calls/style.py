"""Which dialect a text-mode session writes its contract in, and learning it from the model's replies.

`call_format = "auto"` starts from the model's name (`dialect_for_model`); the first reply that makes a
call in some dialect fixes the session's dialect, so a model fine-tuned on one format is prompted in it
from then on. A named format is kept whatever the model writes.
"""

from __future__ import annotations

import copy
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


_Leaves = tuple[tuple[tuple[Any, ...], type], ...]
_LAST: tuple[list[Any], _Leaves, Dialect, str] | None = None
"""The last tool set (a private copy), its typed leaves, dialect and contract: a tool set equal to it
(`==`, whose key encoding alone costs ~0.4 ms for 20 tools with long descriptions) with the same types
at those leaves is the same tool set."""


def _typed_leaves(value: Any, path: tuple[Any, ...] = ()) -> _Leaves | None:
    """Where `value` holds a number or a boolean (`==` takes `1`, `1.0` and `true` for one another) and
    of which type; None for anything but JSON's own types, which `==` would not tell apart safely."""
    if isinstance(value, dict):
        found: list[tuple[tuple[Any, ...], type]] = []
        for key, item in value.items():
            inner = _typed_leaves(item, (*path, key)) if type(key) is str else None
            if inner is None:
                return None
            found += inner
        return tuple(found)
    if isinstance(value, list | tuple):
        found = []
        for index, item in enumerate(value):
            inner = _typed_leaves(item, (*path, index))
            if inner is None:
                return None
            found += inner
        return tuple(found)
    if type(value) in (bool, int, float):
        return ((path, type(value)),)
    return () if value is None or type(value) is str else None


def _same_tools(tools: Sequence[Any], kept: list[Any], leaves: _Leaves) -> bool:
    """Whether `tools` is the kept tool set: equal, with the kept types at every number and boolean."""
    if len(tools) != len(kept) or list(tools) != kept:
        return False
    for path, kind in leaves:
        value: Any = tools
        for step in path:
            value = value[step]
        if type(value) is not kind:
            return False
    return True


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
        global _LAST  # noqa: PLW0603 - one entry, replaced whole (safe from any thread)
        last = _LAST
        if last is not None and last[2] is self.dialect and _same_tools(tools, last[0], last[1]):
            return last[3]  # the tool set of the last request again: not even encoded
        key = (json.dumps(tools, sort_keys=True, ensure_ascii=False, default=repr), self.dialect.name)
        kept = _CONTRACTS.get(key)
        if kept is not None and kept[0] is self.dialect:
            return kept[1]
        text = textmode.render_contract(tools, self.dialect)
        if len(_CONTRACTS) >= _KEPT_CONTRACTS:  # many tool sets: start again (single dict operations only,
            _CONTRACTS.clear()  # safe from any thread)
        _CONTRACTS[key] = (self.dialect, text)
        leaves = _typed_leaves(tools)
        if leaves is not None:
            _LAST = (copy.deepcopy(list(tools)), leaves, self.dialect, text)
        return text

    def history(self, messages: Sequence[Message]) -> list[Message]:
        """The transcript with calls written in this dialect."""
        return self.projection(messages, self.dialect)

    def retry_prompt(self, reason: str) -> str:
        """The retry message, with its example in this dialect."""
        return textmode.retry_prompt(reason, self.dialect)
