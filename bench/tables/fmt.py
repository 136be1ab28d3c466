"""What every table of `bench/tables` is made of: markdown rows, numbers, ranges, verdicts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Figures = dict[str, str]
"""What a renderer returns: `table` (markdown), `summary` (verdict lines) and named figures for the prose."""


def table(header: Sequence[str], align: str, rows: Iterable[Sequence[object]]) -> str:
    """A markdown table; `align` holds one letter per column: `l` left, `r` right."""
    if len(align) != len(header):
        raise ValueError(f"{len(header)} columns but {len(align)} alignments")
    rule = "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"
    lines = ["| " + " | ".join(header) + " |", rule]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def num(value: float, digits: int = 1) -> str:
    """`value` with `digits` decimals and thousands separated by commas."""
    return f"{value:,.{digits}f}"


def ms(value: float) -> str:
    """A time in milliseconds as a table shows it: whole above 100, else one decimal."""
    return num(value, 0 if value >= 100 else 1)


def pct(share: float, digits: int = 1) -> str:
    """A share (0-1) as a percentage."""
    return f"{share * 100:.{digits}f}%"


def span(values: Iterable[float], fmt: str = "{:.2f}", unit: str = "") -> str:
    """The lowest and highest of `values` ("1.02–1.24×"), or the one value when they agree."""
    ordered = sorted(values)
    if not ordered:
        return "—"
    low, high = fmt.format(ordered[0]), fmt.format(ordered[-1])
    return f"{low}{unit}" if low == high else f"{low}–{high}{unit}"


def met(ok: bool) -> str:
    """A verdict as the tables print it: the unflattering one in bold."""
    return "met" if ok else "**not met**"


def verdict(what: str, ok: bool, detail: str = "") -> str:
    """One verdict line: the target, met or not, and what shows it."""
    return f"{what}: **{'met' if ok else 'not met'}**" + (f" — {detail}" if detail else "") + "."


def listing(items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def load(value: float | Sequence[float]) -> str:
    """A load average as the benchmarks recorded it (one figure, or the 1-minute one of three)."""
    first = value if isinstance(value, int | float) else value[0]
    return f"{first:.1f}"
