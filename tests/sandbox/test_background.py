"""Background processes run in the sandbox too, and nothing of them survives `bg:stop`."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sandbox_helpers import sleeps

from asi_agent.sandbox import Sandbox, find_bwrap, unavailable, unavailable_cached
from asi_agent.tools.args import RunTerminalCmdArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.exec.terminal import run_terminal_cmd
from asi_agent.tools.files.journal import Journal

BWRAP = find_bwrap()
pytestmark = pytest.mark.skipif((why := unavailable(BWRAP)) is not None, reason=f"no sandbox here: {why}")


async def test_a_background_process_is_contained_and_stopped_with_all_it_started(tmp_path: Path) -> None:
    root, outside = tmp_path / "project", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    assert BWRAP is not None
    ctx = ToolContext(root, Journal(root / ".asi"), session_id="t")
    ctx.sandbox = Sandbox(BWRAP, root.resolve(), writable=(), hidden=())  # the project alone is writable
    tag = f"{int(time.time() * 1000) % 100000}.25"
    command = f"echo x > {outside}/marker; setsid sleep {tag} & echo x > inside.txt; sleep {tag}"
    started = await run_terminal_cmd(RunTerminalCmdArgs(command=command, is_background=True), ctx)
    assert "started bg1" in started
    deadline = time.monotonic() + 10
    while len(sleeps(tag)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(sleeps(tag)) == 2
    assert (root / "inside.txt").exists() and not (outside / "marker").exists()
    stopped = await run_terminal_cmd(RunTerminalCmdArgs(command="bg:stop bg1"), ctx)
    assert "stopped bg1" in stopped
    deadline = time.monotonic() + 10
    while sleeps(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sleeps(tag) == []  # the detached one too: the sandbox's pid namespace went with it


def test_only_a_working_sandbox_is_remembered_a_forged_no_is_probed_again(tmp_path: Path) -> None:
    cache = tmp_path / "probe.json"
    assert BWRAP is not None
    assert unavailable_cached(BWRAP, cache) is None
    key = cache.read_text(encoding="utf-8")
    assert str(BWRAP) in key
    cache.write_text(key.replace('"reason": null', '"reason": "forged: no sandbox"'), encoding="utf-8")
    assert unavailable_cached(BWRAP, cache) is None  # probed again: the forged "no" turns nothing off
    assert '"reason": null' in cache.read_text(encoding="utf-8")  # and the truth is written back
    broken = tmp_path / "bwrap"  # a bubblewrap that cannot start: the probe says no
    broken.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    broken.chmod(0o755)
    assert unavailable_cached(broken, cache) is not None
    remembered = cache.read_text(encoding="utf-8").replace('"reason": "', '"old": "')
    cache.write_text(remembered.replace('"old"', '"reason": null, "old"'), encoding="utf-8")
    assert unavailable_cached(broken, cache) is None  # a remembered "yes" is read back, not probed again
    assert unavailable_cached(None, cache) is not None  # no binary: never taken from the cache
