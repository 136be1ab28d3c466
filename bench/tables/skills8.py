"""The skill router's eighth round: the round-7 router (no change of this round held up) on round 8's
sealed set and on the nine seen sets, and round 7's sealed figures kept as history."""

from __future__ import annotations

from typing import Any

from .fmt import Figures
from .skills7 import ROUND7_TUNED, sealed_figures

ROUND8_TUNED = (*ROUND7_TUNED, "heldout7")
"""The sets round 8 was tuned on (`skills-SET-round8.json`: the current router on them, in-sample)."""
FILES = {
    "heldout8": "skills-heldout8.json",  # round 8 (the current router), scored once
    "heldout8_gap": "skills-heldout8-timing-gap1s.json",  # round 8's timing at a query a second, quiet
}


def round8(data: dict[str, Any]) -> Figures:
    """What round 8 leaves as history: round 7's sealed set, as scored once."""
    return sealed_figures("r7", data.get("heldout7", data["heldout"]), data.get("heldout7_gap"))
