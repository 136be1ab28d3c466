"""The skill router's ninth round: body sections as passages, Chinese no-skill anchors and the decision
refitted on all ten seen sets; each seen set left out of the fit in turn against round 8's router left out
the same way, the ten sets in-sample before and after, and round 8's sealed figures kept as history."""

from __future__ import annotations

from typing import Any

from .fmt import Figures, pct, table
from .skills7 import sealed_figures
from .skills8 import ROUND8_TUNED

ROUND9_TUNED = (*ROUND8_TUNED, "heldout8")
"""The sets round 9 was tuned on (`skills-SET-round9.json`: the current router on them, in-sample)."""
FILES = {
    "heldout9": "skills-heldout9.json",  # round 9 (the current router), scored once
    "heldout9_gap": "skills-heldout9-timing-gap1s.json",  # round 9's timing at a query a second, quiet
    "fit9": "skills-fit-round9.json",  # round 9's fit, each seen set left out in turn
    "fit9_before": "skills-fit-round8-ten-sets.json",  # round 8's router, fitted the same way
}
_KEYS = ("none_right", "fitting_declared_none", "top3_recall_not_none")


def _pct(share: float | None) -> str:
    return "—" if share is None else pct(share)


def _langs(before: dict[str, Any], after: dict[str, Any], key: str) -> str:
    """One figure per language, before → after."""
    return ", ".join(
        f"{lang.upper()} {_pct(before[lang][key])} → {_pct(after[lang][key])}" for lang in ("en", "zh")
    )


def fit_table(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """Per seen set left out: round 8's router and this one, each with the decision fitted on the others."""
    if not before or not after:
        return ""
    header = ("set left out", "no-fit queries", '"none" right', "fitting declared none",
              "top-3 recall, none counted as a miss")  # fmt: skip
    rows = []
    for name, row in after["leave_one_set_out"].items():
        old, new = before["leave_one_set_out"][name]["fitted"], row["fitted"]
        rows.append([name, str(new["all"]["no_fit"]), *(_langs(old, new, key) for key in _KEYS)])
    return table(header, "lrrrr", rows)


def _loso(before: dict[str, Any] | None, after: dict[str, Any] | None) -> Figures:
    """The pooled leave-one-set-out figures per language, before and after."""
    names = [f"loso9_{lang}_{key}_{when}" for lang in ("all", "en", "zh") for key in _KEYS
             for when in ("before", "after")]  # fmt: skip
    if not before or not after:
        return dict.fromkeys(names, "—")
    pooled = {"before": before["leave_one_set_out"]["all sets"]["fitted"],
              "after": after["leave_one_set_out"]["all sets"]["fitted"]}  # fmt: skip
    return {
        f"loso9_{lang}_{key}_{when}": _pct(pooled[when][lang][key])
        for lang in ("all", "en", "zh") for key in _KEYS for when in ("before", "after")
    }  # fmt: skip


def _pooled_recall(results: list[dict[str, Any]], lang: str) -> str:
    """Top-3 recall over several query sets together, in one language (`overall`: both)."""
    fitting = [r[lang]["fitting"] for r in results]
    hits = sum(round((r[lang]["top3_recall"] or 0) * f) for r, f in zip(results, fitting, strict=True))
    return f"{hits:,} of {sum(fitting):,}" if sum(fitting) else "—"


def _tuned(data: dict[str, Any]) -> Figures:
    """The ten seen sets in-sample: round 8's router (its in-sample runs and its sealed set) and this one."""
    before = [data[f"{key}_round8"] for key in ROUND8_TUNED if f"{key}_round8" in data]
    before += [data["heldout8"]] if "heldout8" in data else []
    after = [data[f"{key}_round9"] for key in ROUND9_TUNED if f"{key}_round9" in data]
    out: Figures = {}
    for lang in ("overall", "en", "zh"):
        out[f"r9_tuned_recall_{lang}_before"] = _pooled_recall(before, lang) if before else "—"
        out[f"r9_tuned_recall_{lang}"] = _pooled_recall(after, lang) if after else "—"
    out["r9_tuned_n"] = str(sum(r["overall"]["queries"] for r in after)) if after else "—"
    eighth = [data[f"{key}_round8"] for key in ROUND8_TUNED if f"{key}_round8" in data]
    out["r8_tuned_n"] = str(sum(r["overall"]["queries"] for r in eighth)) if eighth else "—"
    return out


def round9(data: dict[str, Any]) -> Figures:
    """What round 9 changed, and round 8's sealed set as history."""
    before, after = data.get("fit9_before"), data.get("fit9")
    return {
        "fit9_table": fit_table(before, after),
        **_loso(before, after),
        **_tuned(data),
        **sealed_figures("r8", data.get("heldout8", data["heldout"]), data.get("heldout8_gap")),
    }
