"""The skill router's eighth round: the round-7 router (no change of this round held up) on round 8's
sealed set and on the nine seen sets, and round 7's sealed figures kept as history."""

from __future__ import annotations

from typing import Any

from .fmt import Figures, load, ms, pct
from .skills7 import ROUND7_TUNED

ROUND8_TUNED = (*ROUND7_TUNED, "heldout7")
"""The sets round 8 was tuned on (`skills-SET-round8.json`: the current router on them, in-sample)."""
FILES = {
    "heldout8": "skills-heldout8.json",  # round 8 (the current router), scored once
    "heldout8_gap": "skills-heldout8-timing-gap1s.json",  # round 8's timing at a query a second, quiet
}


def _pct(share: float | None) -> str:
    return "—" if share is None else pct(share)


def _sealed7(data: dict[str, Any]) -> Figures:
    """Round 7's sealed figures, kept as history."""
    seventh = data.get("heldout7", data["heldout"])
    overall, timing, quiet = seventh["overall"], seventh["timing_200_skills"], data.get("heldout7_gap")
    return {
        "r7_n": str(overall["queries"]),
        "r7_zh": str(seventh["zh"]["queries"]),
        "r7_no_fit": str(overall["no_fit"]),
        "r7_recall": pct(overall["top3_recall"]),
        "r7_en_recall": pct(seventh["en"]["top3_recall"]),
        "r7_zh_recall": pct(seventh["zh"]["top3_recall"]),
        "r7_none_right": pct(overall["none_right"]),
        "r7_en_none_right": pct(seventh["en"]["none_right"]),
        "r7_zh_none_right": pct(seventh["zh"]["none_right"]),
        "r7_fit_none": _pct(overall["fitting_declared_none"]),
        "r7_wall_p50": ms(timing["p50_ms"]),
        "r7_load": load(seventh["machine"]["load_1min"]),
        "r7_quiet_p50": ms(quiet["timing_200_skills"]["p50_ms"]) if quiet else "—",
        "r7_quiet_p95": ms(quiet["timing_200_skills"]["p95_ms"]) if quiet else "—",
    }


def round8(data: dict[str, Any]) -> Figures:
    """What round 8 leaves as history: round 7's sealed set, as scored once."""
    return _sealed7(data)
