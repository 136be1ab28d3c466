"""K2's calls (MBZUAI's Institute of Foundation Models: K2 Horizon, K2-V3), framed by `<ifm|…>` tokens:

    <ifm|tool_calls><ifm|tool_call>NAME<ifm|arg_key>K</ifm|arg_key>[<ifm|arg_type>T</ifm|arg_type>]
    <ifm|arg_value>V</ifm|arg_value></ifm|tool_call></ifm|tool_calls>

or a JSON call object (or list of them) between `<ifm|tool_call>` and `</ifm|tool_call>`; the group is
optional. A value is typed by its own `<ifm|arg_type>`, else by the tool's schema; text values of JSON
arguments are typed by the schema where it declares a number or a boolean, as K2's own parser does.
Read by the key/value pair reader shared with GLM and Hunyuan (`arg_pairs`).
"""

from __future__ import annotations

from collections.abc import Iterator

from asi_agent.calls.dialects.arg_pairs import PairTokens, pair_spans
from asi_agent.calls.dialects.base import Dialect, ReadContext, Span

__all__ = ["K2"]

_TOKENS = PairTokens(
    call=("<ifm|tool_call>", "</ifm|tool_call>"),
    key=("<ifm|arg_key>", "</ifm|arg_key>"),
    value=("<ifm|arg_value>", "</ifm|arg_value>"),
    kind=("<ifm|arg_type>", "</ifm|arg_type>"),
    group=("<ifm|tool_calls>", "</ifm|tool_calls>"),
    json_body=True,
    dialect="k2",
)


def _scan(text: str, ctx: ReadContext) -> Iterator[Span]:
    return pair_spans(text, ctx, _TOKENS)


K2 = Dialect(
    name="k2",
    scan=_scan,
    markers=("<ifm|tool_calls>", "<ifm|tool_call>", "<ifm|arg_key>", "<ifm|arg_value>"),
    needs=("<ifm|tool_call",),
)
"""Read only: no contract is written in this form."""
