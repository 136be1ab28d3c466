"""The Benchmarks page is built from `bench/`: its tables, verdicts and figures come from the result files.

The page's source holds no table and no figure typed by hand, only `{{ bench.NAME.FIGURE }}` markers that the
build hook fills from `bench/results/` (through `bench/tables`); a changed result file changes the built
page, a missing one says "not measured yet", and a marker naming nothing fails the build.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "benchmarks.md"
HOOK = REPO / "docs" / "hooks" / "bench_reports.py"


def hook() -> ModuleType:
    """The build hook, loaded as mkdocs loads it (from its file)."""
    spec = importlib.util.spec_from_file_location("bench_reports_hook", HOOK)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def built(root: Path) -> str:
    """The Benchmarks page's markdown as the hook makes it, from the `bench/` folder under `root`."""
    config = SimpleNamespace(config_file_path=str(root / "mkdocs.yml"))
    return hook().on_page_markdown(PAGE.read_text(encoding="utf-8"), page=None, config=config, files=None)


def bench_copy(tmp_path: Path) -> Path:
    """A copy of the repository's result files and reports, to change."""
    for folder in ("results", "reports"):
        shutil.copytree(REPO / "bench" / folder, tmp_path / "bench" / folder)
    (tmp_path / "bench" / "results" / "concurrent.json").unlink(missing_ok=True)
    return tmp_path


def concurrent_result(lost: int) -> dict[str, object]:
    """A `bench/concurrent_bench.py` result file, as it writes it, with `lost` lost updates."""
    row = {"edits": 16, "ok": 14 - lost, "lost": lost, "stale": 2, "other_errors": 0, "wall_s": 4.1}
    rows = [{**row, "undo_exact": True, "problems": []}, {**row, "undo_exact": True, "problems": []}]
    totals = {key: 2 * row[key] for key in ("edits", "ok", "lost", "stale", "other_errors")}
    return {
        "runs_per_round": 8,
        "rounds": 2,
        **totals,
        "rounds_undo_exact": 2,
        "round_wall_s_median": 4.1,
        "round_wall_s_p95": 4.1,
        "load_average_before": [1.0, 1.0, 1.0],
        "load_average_after": [1.0, 1.0, 1.0],
        "rows": rows,
    }


def test_the_page_holds_no_table_or_figure_typed_by_hand() -> None:
    """Outside markers, code, link targets and comments, the source has no table row and no number."""
    source = PAGE.read_text(encoding="utf-8")
    assert "{{ bench.startup.table }}" in source
    assert [line for line in source.splitlines() if line.startswith("|")] == []
    prose = re.sub(r"\{\{.*?\}\}", "", source, flags=re.DOTALL)
    prose = re.sub(r"`[^`]*`", "", prose)
    prose = re.sub(r"\]\([^)]*\)", "]", prose)
    prose = re.sub(r"<!--.*?-->", "", prose, flags=re.DOTALL)
    numbers = [m.group(0) for m in re.finditer(r"(?<![\w.\-/])\d[\d,.]*(?![\w\-])", prose)]
    assert numbers == [], "figures typed into the Benchmarks page; give them a marker of bench/tables"


def test_every_marker_is_filled_from_the_result_files() -> None:
    page = built(REPO)
    assert "{{" not in page
    startup = json.loads((REPO / "bench" / "results" / "startup.json").read_text(encoding="utf-8"))
    aider = next(row for name, row in startup["rows"].items() if name.startswith("aider"))
    assert f"{aider['first_request_p50_ms']:,.0f} ms" in page
    assert "## Several agents, one project" in page
    for heading in ("| variant |", "| backend |", "| case |", "| measure |", "| kills |", "| target |"):
        assert heading in page


def test_a_changed_result_file_changes_the_page(tmp_path: Path) -> None:
    """Cold start-up within the target flips its verdict; the concurrency table appears once measured."""
    root = bench_copy(tmp_path)
    before = built(root)
    assert "*Not measured yet: `bench/results/concurrent.json` is not there" in before
    assert "First request within 2× the floor: **not met**" in before

    results = root / "bench" / "results"
    startup = json.loads((results / "startup.json").read_text(encoding="utf-8"))
    for name, row in startup["rows"].items():
        if "cold" in name:
            row["first_request_p50_ms"], row["ratio_to_floor"] = 98.7, 1.5
    (results / "startup.json").write_text(json.dumps(startup), encoding="utf-8")
    (results / "concurrent.json").write_text(json.dumps(concurrent_result(lost=1)), encoding="utf-8")
    after = built(root)

    assert "First request within 2× the floor: **met**" in after
    assert "| `asi-agent run --provider openai`, cold | 98.7 ms" in after
    assert "Not measured yet" not in after
    assert "| 8 | 2 | 32 | 26 | **2** | 4 | 0 | 2 of 2 |" in after
    assert "No lost update, no other error, every round undone exactly: **not met** — 2 edits lost." in after


def test_a_marker_naming_no_figure_fails() -> None:
    tables = hook().tables
    with pytest.raises(ValueError, match="startup has no figure 'p50'; it has: table, summary"):
        tables.fill("{{ bench.startup.p50 }}", REPO / "bench")
    with pytest.raises(ValueError, match="no benchmark source 'startp'"):
        tables.fill("{{ bench.startp.table }}", REPO / "bench")
    shown = "The syntax: `{{ bench.NAME.FIGURE }}`."
    assert tables.fill(shown, REPO / "bench") == shown


def test_the_site_builds_the_page_from_a_changed_result_file(tmp_path: Path) -> None:
    """`mkdocs build --strict` of a copy of the site shows the concurrency verdict of its result file."""
    for name in ("docs", "bench/tables"):
        shutil.copytree(REPO / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("mkdocs.yml", "AGENTS.md"):
        shutil.copy(REPO / name, tmp_path / name)
    bench_copy(tmp_path)
    result = concurrent_result(lost=0)
    (tmp_path / "bench" / "results" / "concurrent.json").write_text(json.dumps(result), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "site" / "benchmarks" / "index.html").read_text(encoding="utf-8")
    assert "every round undone exactly: <strong>met</strong>" in html
    assert "Not measured yet" not in html
