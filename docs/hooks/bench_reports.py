"""MkDocs hook: the benchmarks' figures and reports, read from `bench/` when the site is built.

Every report of `bench/reports/` becomes a page, `reports/<name>.md`, and the Benchmarks page gets the
newest report (its name sorts last: `YYYY-MM-DD-HHMM.md`) where it holds the NEWEST marker, and the list
of all reports where it holds the ALL marker. Every `{{ bench.NAME.FIGURE }}` marker of any page is
replaced by what `bench/tables` renders from the result files of `bench/results/` (a table, a verdict,
a figure of the prose); a marker naming an unknown source or figure fails the build. Nothing is copied
into `docs/` by hand.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import tables  # noqa: E402  (bench/tables, found through the path above)

NEWEST = "<!-- newest bench report -->"
ALL = "<!-- all bench reports -->"


def _reports(config: MkDocsConfig) -> list[Path]:
    """The report files, oldest first."""
    root = Path(config.config_file_path).parent
    return sorted((root / "bench" / "reports").glob("*.md"))


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add one generated page per report."""
    for report in _reports(config):
        text = report.read_text(encoding="utf-8")
        files.append(File.generated(config, f"reports/{report.name}", content=text))
    return files


def _demoted(text: str) -> str:
    """The report without its title, its headings one level below the page's."""
    body = text.split("\n", 1)[1] if text.startswith("# ") else text
    return re.sub(r"^(#{1,5}) ", r"\1## ", body, flags=re.MULTILINE)


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Fill the figures' markers of every page, and the Benchmarks page's report markers."""
    markdown = tables.fill(markdown, Path(config.config_file_path).parent / "bench")
    if NEWEST not in markdown and ALL not in markdown:
        return markdown
    reports = _reports(config)
    if not reports:
        raise ValueError("no benchmark report in bench/reports/")
    newest = reports[-1]
    title = newest.read_text(encoding="utf-8").split("\n", 1)[0].lstrip("# ")
    included = f"[{title}](reports/{newest.name}), as `bench/run` wrote it:\n\n"
    listing = "\n".join(f"- [{r.stem}](reports/{r.name})" for r in reversed(reports))
    markdown = markdown.replace(NEWEST, included + _demoted(newest.read_text(encoding="utf-8")))
    return markdown.replace(ALL, listing)
