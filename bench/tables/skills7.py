"""The skill router's seventh round (`bench/skills_fit.py`): the fitted "none" decision, each seen set left
out in turn against the round-6 decision left out the same way, and round 6's sealed figures as history."""

from __future__ import annotations

from typing import Any

from .fmt import Figures, load, ms, num, pct, table

ROUND6_TUNED = ("dev", "dev2", "heldout", "heldout2", "heldout3", "heldout4", "heldout5")
"""The sets round 6 was tuned on (`skills-SET-round6.json`)."""
ROUND7_TUNED = (*ROUND6_TUNED, "heldout6")
"""The sets round 7 was fitted on (`skills-SET-round7.json`: the current router on them)."""
FILES = {
    "heldout7": "skills-heldout7.json",  # round 7 (the current router), scored once
    "heldout7_gap": "skills-heldout7-timing-gap1s.json",  # round 7's timing at a query a second
    "fit7": "skills-fit-round7.json",  # round 7's fit, each seen set left out in turn
}


def _pct(share: float | None) -> str:
    return "—" if share is None else pct(share)


def _pooled(results: list[dict[str, Any]], key: str, count: str) -> str:
    """A share over several query sets together, `count` naming what it is a share of."""
    whole = [r["overall"][count] for r in results]
    part = sum(round((r["overall"][key] or 0) * n) for r, n in zip(results, whole, strict=True))
    return pct(part / sum(whole)) if sum(whole) else "—"


def _cell(row: dict[str, Any], key: str) -> str:
    """Before → after for one figure of a left-out set."""
    return f"{_pct(row['round6']['all'][key])} → {_pct(row['fitted']['all'][key])}"


def _lang(row: dict[str, Any]) -> str:
    """ "none" right per language, before → after."""
    before, after = row["round6"], row["fitted"]
    return (
        f"EN {_pct(before['en']['none_right'])} → {_pct(after['en']['none_right'])}, "
        f"ZH {_pct(before['zh']['none_right'])} → {_pct(after['zh']['none_right'])}"
    )


def fit_table(fit: dict[str, Any] | None) -> str:
    """Per seen set left out: the round-6 decision and the fitted one, each fitted on the other sets."""
    if not fit:
        return ""
    header = ("set left out", "no-fit queries", '"none" right', "per language", "fitting declared none",
              "top-3 recall, none counted as a miss")  # fmt: skip
    body = [
        [name, str(row["fitted"]["all"]["no_fit"]), _cell(row, "none_right"), _lang(row),
         _cell(row, "fitting_declared_none"), _cell(row, "top3_recall_not_none")]
        for name, row in fit["leave_one_set_out"].items()
    ]  # fmt: skip
    return table(header, "lrrrrr", body)


def _weights(fit: dict[str, Any] | None) -> Figures:
    """The fitted weights and floors, as the router reads them."""
    if not fit:
        return {key: "—" for key in ("w_lead", "w_gap", "w_length", "w_foreign", "floor7_en", "floor7_zh")}
    figures, floors = fit["weights"]["figures"], fit["weights"]["floors"]
    return {
        **{f"w_{name}": num(figures[name]["weight"], 3) for name in ("lead", "gap", "length", "foreign")},
        "floor7_en": num(floors["en"], 3),
        "floor7_zh": num(floors["zh"], 3),
    }


def _loso(fit: dict[str, Any] | None) -> Figures:
    """The pooled leave-one-set-out figures, before and after."""
    keys = ("none_right", "fitting_declared_none", "top3_recall_not_none")
    if not fit:
        return {f"loso7_{k}_{w}": "—" for k in keys for w in ("before", "after")}
    pooled = fit["leave_one_set_out"]["all sets"]
    out = {f"loso7_{k}_before": _pct(pooled["round6"]["all"][k]) for k in keys}
    out |= {f"loso7_{k}_after": _pct(pooled["fitted"]["all"][k]) for k in keys}
    for lang in ("en", "zh"):
        out[f"loso7_{lang}_before"] = _pct(pooled["round6"][lang]["none_right"])
        out[f"loso7_{lang}_after"] = _pct(pooled["fitted"][lang]["none_right"])
    return out


def sealed_figures(prefix: str, result: dict[str, Any], quiet: dict[str, Any] | None) -> Figures:
    """A round's sealed figures as scored once (`result`), with its timing at a query a second (`quiet`),
    named `PREFIX_…`: kept as history once a later round is the headline."""
    overall, timing = result["overall"], result["timing_200_skills"]
    quiet_timing = quiet["timing_200_skills"] if quiet else None
    figures = {
        "n": str(overall["queries"]),
        "zh": str(result["zh"]["queries"]),
        "no_fit": str(overall["no_fit"]),
        "recall": pct(overall["top3_recall"]),
        "en_recall": pct(result["en"]["top3_recall"]),
        "zh_recall": pct(result["zh"]["top3_recall"]),
        "none_right": pct(overall["none_right"]),
        "en_none_right": pct(result["en"]["none_right"]),
        "zh_none_right": pct(result["zh"]["none_right"]),
        "fit_none": _pct(overall["fitting_declared_none"]),
        "wall_p50": ms(timing["p50_ms"]),
        "wall_p95": ms(timing["p95_ms"]),
        "load": load(result["machine"]["load_1min"]),
        "quiet_p50": ms(quiet_timing["p50_ms"]) if quiet_timing else "—",
        "quiet_p95": ms(quiet_timing["p95_ms"]) if quiet_timing else "—",
        "quiet_load": load(quiet["machine"]["load_1min"]) if quiet else "—",
    }
    return {f"{prefix}_{key}": value for key, value in figures.items()}


def round7(data: dict[str, Any]) -> Figures:
    """What round 7 changed: the seen sets pooled before and after (in-sample), the fit left out set by set,
    and round 6's sealed set, now in-sample."""
    sixth = data.get("heldout6", data["heldout"])
    tuned = [data[f"{key}_round7"] for key in ROUND7_TUNED if f"{key}_round7" in data]
    before = [data[f"{key}_round6"] for key in ROUND6_TUNED if f"{key}_round6" in data] + [sixth]
    after = data.get("heldout6_round7", sixth)
    fit = data.get("fit7")
    return {
        "r7_tuned_n": str(sum(r["overall"]["queries"] for r in tuned)) if tuned else "—",
        "r7_tuned_no_fit": str(sum(r["overall"]["no_fit"] for r in tuned)) if tuned else "—",
        "r7_tuned_none_before": _pooled(before, "none_right", "no_fit"),
        "r7_tuned_none": _pooled(tuned, "none_right", "no_fit") if tuned else "—",
        "r7_tuned_fit_none_before": _pooled(before, "fitting_declared_none", "fitting"),
        "r7_tuned_fit_none": _pooled(tuned, "fitting_declared_none", "fitting") if tuned else "—",
        "r7_heldout6_none_right": pct(after["overall"]["none_right"]),
        "r7_heldout6_fit_none": _pct(after["overall"]["fitting_declared_none"]),
        "fit7_table": fit_table(fit),
        **_weights(fit),
        **_loso(fit),
        **sealed_figures("r6", data.get("heldout6", data["heldout"]), data.get("heldout6_gap")),
    }
