"""Forgiving `replace_text`: what to do when oldText is not in the file, not even ignoring whitespace.

Two steps, after the edit tool's own whitespace-tolerant match (`edit.py`) found nothing:
1. escaping — a model that wrote `\\n`, `\\t` or `\\"` where the file has a newline, a tab or a quote (its
   JSON encoded twice): the unescaped text is used when it occurs exactly once (and the new text is
   unescaped alike when it was escaped the same way);
2. one model call — the session's model is shown oldText and the part of the file most like it, and asked
   for the text it meant, copied from the file; that text is used only when it occurs exactly once and
   resembles oldText. This step is on unless the configuration's `edit_correction` turns it off; it is off
   by default for the embedded model, too small to do it well (the assembly sets `CORRECT_KEY`).
Every edit forgiven this way (whitespace included) is counted, for the JSON result's `corrected_edits`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from asi_agent.exceptions import BackendError
from asi_agent.tools.base import ToolContext

__all__ = [
    "CORRECT_KEY", "COUNT_KEY", "Correction", "correct_old_text", "corrected_edits", "count_correction",
]  # fmt: skip

CORRECT_KEY = "asi_agent.tools.files.correct"
"""`ctx.state`: whether one model call may correct oldText (False or missing: not)."""
COUNT_KEY = "asi_agent.tools.files.correct.count"
"""`ctx.state`: how many edits were applied after a correction this session."""
_ESCAPE = re.compile(r"\\(n|t|r|\"|'|`|\\)")
_UNESCAPED = {"n": "\n", "t": "\t", "r": "", '"': '"', "'": "'", "`": "`", "\\": "\\"}
_FENCE = re.compile(r"```[^\n]*\n(.*?)\n?```", re.S)
_WINDOW = 20
_LIKENESS = 0.5
_SYSTEM = "You fix text-replacement edits. Reply only with the requested text in one fenced block."


@dataclass(frozen=True, slots=True)
class Correction:
    """The oldText (and newText) to apply instead, and what was corrected."""

    old: str
    new: str
    how: str


def count_correction(ctx: ToolContext) -> None:
    """One more edit applied after a correction."""
    ctx.state[COUNT_KEY] = corrected_edits(ctx.state) + 1


def corrected_edits(state: Mapping[str, Any]) -> int:
    """How many edits of the session were applied after a correction."""
    count = state.get(COUNT_KEY, 0)
    return count if isinstance(count, int) else 0


async def correct_old_text(ctx: ToolContext, text: str, old: str, new: str, shown: str) -> Correction | None:
    """oldText as the file has it, when unescaping or (if allowed) the model finds it exactly once."""
    plain = _unescape(old)
    if plain != old and text.count(plain) == 1:
        fixed_new = _unescape(new) if _ESCAPE.search(new) else new
        return Correction(plain, fixed_new, "oldText matched once its backslash escapes were read as text")
    if not ctx.state.get(CORRECT_KEY) or ctx.model is None:
        return None
    prompt = (
        f"An edit's oldText was not found in {shown}. Find the text in the excerpt below that it was meant "
        "to match, and reply with that text exactly as the file has it (same indentation and characters), "
        "in one ``` fenced block and nothing else. If nothing there is meant, reply NONE.\n\n"
        f"oldText:\n```\n{old}\n```\n\nThe file (excerpt):\n```\n{_excerpt(text, old)}\n```"
    )
    try:
        reply = await ctx.model.ask(prompt, system=_SYSTEM)
    except BackendError:
        return None
    match = _FENCE.search(reply)
    candidate = match.group(1) if match else ""
    if not candidate.strip() or text.count(candidate) != 1:
        return None
    if difflib.SequenceMatcher(None, candidate, old).ratio() < _LIKENESS:
        return None  # a unique text, but not the one meant
    return Correction(candidate, new, "the model corrected oldText to the file's text")


def _unescape(value: str) -> str:
    """`value` with its backslash escapes read as the characters they stand for."""
    return _ESCAPE.sub(lambda match: _UNESCAPED[match.group(1)], value)


def _excerpt(text: str, old: str) -> str:
    """The lines of `text` around the place most like oldText's first non-blank line."""
    lines = text.split("\n")
    first = next((line.strip() for line in old.split("\n") if line.strip()), "")
    scores = [difflib.SequenceMatcher(None, line.strip(), first).ratio() for line in lines]
    best = max(range(len(lines)), key=scores.__getitem__) if lines else 0
    start = max(best - _WINDOW, 0)
    return "\n".join(lines[start : best + old.count("\n") + _WINDOW + 1])
