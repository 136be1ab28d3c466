"""Hunyuan's HY v3 calls: `<tool_calls>` around `<tool_call>NAME<tool_sep>` and `<arg_key>`/`<arg_value>`
pairs, each token also written with a `:opensource` suffix (`<tool_call:opensource>`). GLM's pairs with
another name separator and a group: read by the shared key/value pair reader (`arg_pairs`)."""

from __future__ import annotations

from collections.abc import Iterator

from asi_agent.calls.dialects.arg_pairs import PairTokens, pair_spans
from asi_agent.calls.dialects.base import Dialect, ReadContext, Span

__all__ = ["HUNYUAN"]


def _tokens(suffix: str) -> PairTokens:
    def pair(name: str) -> tuple[str, str]:
        return f"<{name}{suffix}>", f"</{name}{suffix}>"

    return PairTokens(
        call=pair("tool_call"),
        key=pair("arg_key"),
        value=pair("arg_value"),
        sep=f"<tool_sep{suffix}>",
        group=pair("tool_calls"),
        dialect="hunyuan",
    )


_SPELLINGS = (_tokens(""), _tokens(":opensource"))


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    for tokens in _SPELLINGS:
        if tokens.call[0] in text or tokens.group[0] in text:
            yield from pair_spans(text, ctx, tokens)


HUNYUAN = Dialect(
    name="hunyuan",
    scan=_scan,
    markers=("<tool_sep>", "<tool_sep:opensource>", "<tool_call:opensource>", "<tool_calls:opensource>"),
    # Every span it yields holds a `<tool_sep` (the plain spelling requires it) or a `:opensource>` token.
    needs=("<tool_sep", ":opensource>"),
)
"""Read only: no contract is written in this form."""
