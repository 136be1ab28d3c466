"""The benchmarks' tables, rendered from what the benchmarks wrote: one renderer per result file.

`bench/report.py` puts these tables in each report, and the documentation's build hook fills the
Benchmarks page's markers with them, so the page and the reports show the same tables and no figure on
the page is typed by hand. A marker is `{{ bench.NAME.FIGURE }}`: NAME is a source below (`startup`,
`concurrent`, ...), FIGURE one of the names its renderer returns (`table`, `summary` for the verdicts,
`note` for what else a report should say, and figures for the prose such as `cold_ratio`). A result
file that is not there yet renders as "not measured yet"; a marker naming an unknown source or figure is
an error, so a typo cannot pass unseen. Inside code (inline or fenced) a marker is shown as written.

    from tables import fill, render
    fill(page_text, bench_dir)            # the page with every marker replaced
    render("startup", bench_dir)          # one source's figures, or None when not measured yet
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import checks, embedded, skills, speed
from .fmt import Figures, verdict

__all__ = ["MARKER", "SOURCES", "Source", "fill", "not_measured", "render", "section"]

TOTAL_TARGET_MIN = 15.0  # a full `bench/run`
MARKER = re.compile(r"\{\{\s*bench\.(.*?)\s*\}\}")
CODE = re.compile(r"(^```.*?^```|`[^`\n]*`)", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Source:
    """Where one source's figures come from (`path`, relative to `bench/`), what writes them, its renderer."""

    path: str
    command: str
    load: Callable[[Path], Any | None]
    render: Callable[[Any], Figures]


def _json(path: str, command: str, renderer: Callable[[dict[str, Any]], Figures]) -> Source:
    def load(bench: Path) -> Any | None:
        file = bench / path
        return json.loads(file.read_text(encoding="utf-8")) if file.is_file() else None

    return Source(path, command, load, renderer)


def _sets(bench: Path) -> dict[str, Any] | None:
    files = sorted((bench / "results").glob("embedded-*.json"))
    found = {
        f.stem: json.loads(f.read_text(encoding="utf-8"))
        for f in files
        if not f.name.endswith(".partial.json")
    }
    return found or None


def _reports(bench: Path) -> list[Path]:
    """The reports, newest first (their names sort by date and time)."""
    return sorted((bench / "reports").glob("*.md"), reverse=True)


def _link(report: Path) -> str:
    return f"[`{report.stem}`](reports/{report.name})"


def _newest_report(bench: Path) -> tuple[Path, str] | None:
    reports = _reports(bench)
    return (reports[0], reports[0].read_text(encoding="utf-8")) if reports else None


def _report_figures(found: tuple[Path, str]) -> Figures:
    """The newest report's header: its link, how long it took, the machine."""
    report, text = found
    lines = dict(
        line[2:].split(": ", 1) for line in text.splitlines() if line.startswith("- ") and ": " in line
    )
    total = lines.get("total time", "")
    minutes = float(total.removesuffix(" min")) if total.endswith(" min") else None
    return {
        "link": _link(report),
        "total_time": total or "(not recorded)",
        "total_summary": "not recorded"
        if minutes is None
        else verdict(f"All of them within {TOTAL_TARGET_MIN:.0f} minutes", minutes < TOTAL_TARGET_MIN, total),
        "machine": lines.get("machine", "(not recorded)"),
        "load_average": lines.get("load average at start", "(not recorded)").split(" ")[0],
    }


EASY_TASKS = "## Embedded model completing easy tasks"


def _easy_tasks(bench: Path) -> tuple[Path, str] | None:
    """The newest report with the embedded model's easy tasks, and that section of it."""
    for report in _reports(bench):
        text = report.read_text(encoding="utf-8")
        start = text.find(EASY_TASKS)
        if start >= 0:
            end = text.find("\n## ", start + 1)
            return report, text[start : end if end >= 0 else len(text)]
    return None


def _easy_figures(found: tuple[Path, str]) -> Figures:
    """The tables of that section as the benchmark printed them (the log of each task left out)."""
    report, text = found
    tables, current = [], []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append("\n".join(current))
            current = []
    command = next((line.split("`")[1] for line in text.splitlines() if line.startswith("`")), "")
    return {"table": "\n\n".join(tables), "report": _link(report), "command": f"`{command}`"}


SOURCES: dict[str, Source] = {
    "startup": _json("results/startup.json", "python bench/startup_bench.py", speed.startup),
    "turns": _json("results/turns.json", "python bench/turn_bench.py", speed.turns),
    "search": _json("results/search.json", "python bench/search_bench.py", speed.search),
    "index": _json("results/index.json", "python bench/index_bench.py", speed.index),
    "crash": _json("results/crash.json", "python bench/crash_bench.py", checks.crash),
    "concurrent": _json("results/concurrent.json", "python bench/concurrent_bench.py", checks.concurrent),
    "sandbox": _json("results/sandbox.json", "python bench/sandbox_bench.py", speed.sandbox),
    "fuzz": _json("results/fuzz.json", "python bench/fuzz.py", checks.fuzz),
    "routing": _json("results/routing.json", "python bench/routing_bench.py", checks.routing),
    "safety": _json("results/safety.json", "python bench/safety_bench.py", checks.safety),
    "calls": _json("results/calls.json", "python bench/calls_bench.py", checks.calls),
    "skills": Source(
        "results/skills-heldout8.json",
        "python bench/skills_bench.py --queries bench/skills/heldout8.jsonl --label heldout8",
        skills.load_results,
        skills.skills,
    ),
    "local": _json(
        "results/local_constrained.json", "python bench/local_constrained.py", embedded.local_constrained
    ),
    "embedded_sets": Source(
        "results/embedded-*.json", "python bench/embedded_bench.py --set NAME", _sets, embedded.embedded_sets
    ),
    "embedded_off": _json(
        "results/embedded.json", "python bench/embedded_bench.py --mode off", embedded.grounding_off
    ),
    "report": Source("reports/*.md", "bench/run", _newest_report, _report_figures),
    "easy_tasks": Source("reports/*.md", "bench/run", _easy_tasks, _easy_figures),
}


def render(name: str, bench: Path) -> Figures | None:
    """The figures of source `name` from the files under `bench`, or None when they are not there yet."""
    if name not in SOURCES:
        raise ValueError(f"no benchmark source {name!r}; the sources are: {', '.join(SOURCES)}")
    source = SOURCES[name]
    data = source.load(bench)
    return None if data is None else source.render(data)


def not_measured(name: str, figure: str) -> str:
    """What stands for a figure whose result file is not there yet."""
    source = SOURCES[name]
    if figure == "table":
        return f"*Not measured yet: `bench/{source.path}` is not there; `{source.command}` writes it.*"
    return "not measured yet"


def fill(markdown: str, bench: Path) -> str:
    """`markdown` with every `{{ bench.NAME.FIGURE }}` marker replaced by its figure."""
    cache: dict[str, Figures | None] = {}

    def one(match: re.Match[str]) -> str:
        name, dot, figure = match.group(1).partition(".")
        if not dot or not figure:
            raise ValueError(f"{match.group(0)}: a marker is {{{{ bench.NAME.FIGURE }}}}")
        if name not in cache:
            cache[name] = render(name, bench)
        figures = cache[name]
        if figures is None:
            return not_measured(name, figure)
        if figure not in figures:
            raise ValueError(
                f"{match.group(0)}: {name} has no figure {figure!r}; it has: {', '.join(figures)}"
            )
        return figures[figure]

    # Code is shown as written: a page can show the marker syntax itself.
    pieces = CODE.split(markdown)
    return "".join(piece if i % 2 else MARKER.sub(one, piece) for i, piece in enumerate(pieces))


def section(name: str, bench: Path) -> str:
    """A source's table and verdicts, as a report shows them; empty when it has no figures yet."""
    figures = render(name, bench)
    if figures is None:
        return ""
    keys = ("table", "local_table", "summary", "local_summary", "note")
    parts = [figures.get(key, "") for key in keys]
    return "\n\n".join(part for part in parts if part)
