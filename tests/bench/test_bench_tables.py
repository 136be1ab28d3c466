"""bench/tables: the renderers `bench/report.py` and the Benchmarks page share, and their targets."""

from __future__ import annotations

import ast
import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "bench"
sys.path.insert(0, str(BENCH))

import tables  # noqa: E402
from tables import checks, speed  # noqa: E402


def constants(script: str) -> dict[str, object]:
    """The module-level constants a benchmark script assigns (without running it)."""
    found: dict[str, object] = {}
    for node in ast.parse((BENCH / script).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            if isinstance(target, ast.Name):
                found[target.id] = value
            elif isinstance(target, ast.Tuple):
                found |= {t.id: v for t, v in zip(target.elts, value, strict=True) if isinstance(t, ast.Name)}
    return found


def report_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_report", BENCH / "report.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_tables_judge_by_the_targets_the_benchmarks_print() -> None:
    startup = constants("startup_bench.py")
    assert (startup["FIRST_TARGET_RATIO"], startup["EXIT_TARGET_MS"]) == (
        speed.FIRST_TARGET_RATIO,
        speed.EXIT_TARGET_MS,
    )
    assert constants("turn_bench.py")["TARGETS_MS"] == speed.TURN_TARGETS_MS
    routing = constants("routing_bench.py")
    assert (routing["TOKEN_TARGET"], routing["RECALL_TARGET"]) == (checks.TOKEN_TARGET, checks.RECALL_TARGET)


def test_every_committed_result_file_renders() -> None:
    for name, source in tables.SOURCES.items():
        figures = tables.render(name, BENCH)
        if name == "concurrent" and figures is None:
            continue  # measured on another branch; the page says "not measured yet"
        assert figures, f"{name}: {source.path} gave nothing"
        assert all(isinstance(value, str) and value for value in figures.values()), name


def test_the_report_runs_the_concurrency_benchmark_and_shows_the_page_s_table(tmp_path: Path) -> None:
    report = report_module()
    bench = next(b for b in report.BENCHES if b.name == "concurrent")
    assert bench.args[0] == "bench/concurrent_bench.py"
    assert "concurrent" in tables.SOURCES

    results = tmp_path / "results"
    results.mkdir()
    started = time.time() - 1
    data = {
        "runs_per_round": 8, "rounds": 1, "edits": 16, "ok": 15, "lost": 0, "stale": 1, "other_errors": 0,
        "rounds_undo_exact": 1, "round_wall_s_median": 3.0, "round_wall_s_p95": 3.0,
        "load_average_before": [0.5, 0.5, 0.5], "load_average_after": [0.5, 0.5, 0.5],
        "rows": [{"problems": []}],
    }  # fmt: skip
    (results / "concurrent.json").write_text(json.dumps(data), encoding="utf-8")
    section = report.rendered("concurrent", started, tmp_path)
    page_table = tables.render("concurrent", tmp_path)["table"]
    assert section.startswith("figures: `bench/results/concurrent.json`")
    assert page_table in section
    assert "| 8 | 1 | 16 | 15 | **0** | 1 | 0 | 1 of 1 |" in page_table
    # A result file older than the benchmark's run is not this run's: the report keeps what it printed.
    assert report.rendered("concurrent", time.time() + 60, tmp_path) == ""


def test_the_easy_tasks_come_from_the_section_report_py_writes() -> None:
    titles = [b.title for b in report_module().BENCHES]
    assert any(title.startswith(tables.EASY_TASKS.removeprefix("## ")) for title in titles)
