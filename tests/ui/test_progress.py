"""The progress line: what it shows for each event, that reports reach it from worker threads, and that
it draws in place and clears itself."""

from __future__ import annotations

import asyncio
import contextlib
import io
import sys
import time

from asi_agent.backends.retry import RetryPolicy, TransientError, call_with_retries
from asi_agent.events import (
    ProgressReported,
    SessionStarted,
    TextStreamed,
    ToolFinished,
    ToolStarted,
    progress_sink,
    report_progress,
)
from asi_agent.exceptions import BackendError
from asi_agent.messages import ToolCall
from asi_agent.tools.code.index.store import CodeIndex
from asi_agent.ui.progress import ProgressLine, format_elapsed, wants_progress

READ = ToolCall("c1", "read_file", {"path": "a.py"})


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_lines_follow_the_agent_and_count_the_time_of_each_activity():
    clock = Clock()
    line = ProgressLine(io.StringIO(), clock=clock)
    assert line.line() is None
    line.show(SessionStarted("s", "qwen", "native"))
    clock.now += 7
    assert line.line().endswith("waiting for the model (qwen) · 7s")
    line.show(ToolStarted(READ))
    assert line.line().endswith("running read_file · 0s")
    line.show(ToolFinished(READ, True, "text"))
    clock.now += 65
    assert line.line().endswith("waiting for the model · 1m05s")
    line.show(TextStreamed("Hel"))
    assert line.line() is None


def test_reports_from_worker_threads_reach_the_line():
    line = ProgressLine(io.StringIO())

    async def main() -> None:
        await asyncio.to_thread(report_progress, "indexing 1200 files")

    with progress_sink(line.report):
        asyncio.run(main())
    assert line.activity == "indexing 1200 files"
    report_progress("nobody listens now")  # outside the sink: a no-op
    assert line.activity == "indexing 1200 files"


def test_draws_in_place_and_clears():
    out = io.StringIO()
    line = ProgressLine(out, interval=0.01)
    line.report(ProgressReported("loading the model", "SmolLM2"))
    line.start()
    deadline = time.monotonic() + 5
    while "loading the model" not in out.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    line.stop()
    text = out.getvalue()
    assert text.startswith("\r") and "loading the model (SmolLM2) · 0s\x1b[K" in text
    assert text.endswith("\r\x1b[K") and "\n" not in text


def test_disabled_line_writes_nothing():
    out = io.StringIO()
    line = ProgressLine(out, enabled=False, interval=0.01)
    line.start()
    line.report(ProgressReported("loading the model"))
    time.sleep(0.05)
    line.stop()
    assert out.getvalue() == ""


def test_only_text_output_on_a_terminal_wants_progress():
    assert not wants_progress(io.StringIO(), "text")


def test_format_elapsed():
    assert [format_elapsed(s) for s in (0.4, 59.9, 60, 3725)] == ["0s", "59s", "1m00s", "62m05s"]


def test_other_writes_to_stderr_take_the_line_off_first():
    terminal = io.StringIO()
    with contextlib.redirect_stderr(terminal):
        line = ProgressLine(sys.stderr, interval=0.01)
        line.report(ProgressReported("loading the model"))
        line.start()
        deadline = time.monotonic() + 5
        while "loading the model" not in terminal.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
        with line.guarding_stderr():
            print("asi-agent: a notice", file=sys.stderr)
        line.stop()
    text = terminal.getvalue()
    notice = text.index("asi-agent: a notice")
    assert text.rindex("loading the model", 0, notice) < text.rindex("\r\x1b[K", 0, notice)
    assert text[text.rindex("\r\x1b[K", 0, notice) :].startswith("\r\x1b[Kasi-agent: a notice")


async def test_retries_and_indexing_report_progress(tmp_path):
    seen: list[ProgressReported] = []
    failures = [TransientError(BackendError("connection refused"), retry_after=0.0)]

    async def attempt() -> str:
        if failures:
            raise failures.pop()
        return "ok"

    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text("def f():\n    return 1\n")
    with progress_sink(seen.append):
        assert await call_with_retries(attempt, RetryPolicy(max_retries=2)) == "ok"
        index = CodeIndex(tmp_path, tmp_path / ".asi" / "code.db")
        await asyncio.to_thread(index.update)
        index.close()
    assert seen[0] == ProgressReported("retrying in 0 s", "connection refused")
    assert seen[1].activity == "waiting for the model"
    assert ProgressReported("indexing 3 files") in seen
