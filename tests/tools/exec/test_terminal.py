"""run_terminal_cmd with real shells and processes in a temporary project."""

from __future__ import annotations

import asyncio
import re
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from asi_agent.exceptions import PermissionDeniedError, ToolError
from asi_agent.tools.args import RunTerminalCmdArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.exec.terminal import read_capped, run_terminal_cmd
from asi_agent.tools.files.journal import Journal


@pytest.fixture
async def ctx(tmp_path: Path):
    root = tmp_path / "project"
    root.mkdir()
    context = ToolContext(root=root, journal=Journal(root / ".asi"), session_id="test", command_timeout=20)
    yield context
    await context.aclose()


def _alive(pid: int) -> bool:
    """Whether the process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def _run(ctx: ToolContext, command: str, **kw: object) -> str:
    return await run_terminal_cmd(RunTerminalCmdArgs(command=command, **kw), ctx)  # type: ignore[arg-type]


async def test_output_interleaved_and_nonzero_exit_reported(ctx: ToolContext) -> None:
    out = await _run(ctx, "echo one; echo two >&2; echo three; exit 3")
    assert out.splitlines() == ["one", "two", "three", "exit code: 3"]


async def test_no_output_and_environment_is_non_interactive(ctx: ToolContext) -> None:
    assert await _run(ctx, "true") == "(no output)\nexit code: 0"
    out = await _run(ctx, 'echo "$PAGER $GIT_PAGER $TERM $NO_COLOR $CI"')
    assert out.splitlines()[0] == "cat cat dumb 1 1"


async def test_command_waiting_on_stdin_gets_eof_at_once(ctx: ToolContext) -> None:
    start = time.monotonic()
    out = await _run(ctx, "read x; echo got:$x")
    assert out.splitlines() == ["got:", "exit code: 0"]
    assert time.monotonic() - start < 5


async def test_timeout_kills_the_whole_group(ctx: ToolContext) -> None:
    ctx.command_timeout = 1
    start = time.monotonic()
    out = await _run(ctx, "echo started; sleep 30 & echo $! > child.pid; sleep 30")
    assert time.monotonic() - start < 8
    assert out.splitlines()[0] == "started"
    assert "timed out after 1 s" in out
    assert out.endswith("exit code: 143")
    child = int((ctx.root / "child.pid").read_text())
    assert not _alive(child)


async def test_processes_left_behind_are_stopped(ctx: ToolContext) -> None:
    out = await _run(ctx, "sleep 30 & echo $! > child.pid")
    assert "processes the command left running were stopped" in out
    assert out.endswith("exit code: 0")
    assert not _alive(int((ctx.root / "child.pid").read_text()))


async def test_huge_output_is_elided_and_saved_in_full(ctx: ToolContext) -> None:
    out = await _run(ctx, "seq 1 300000")
    lines = out.splitlines()
    assert lines[:100] == [str(i) for i in range(1, 101)]
    assert lines[-101:-1] == [str(i) for i in range(299901, 300001)]
    assert lines[-1] == "exit code: 0"
    marker = re.fullmatch(r"… 299,800 lines elided \(full output: (\.asi/outputs/\S+\.log)\) …", lines[100])
    assert marker is not None
    saved = (ctx.root / marker.group(1)).read_text().splitlines()
    assert saved == [str(i) for i in range(1, 300001)]
    assert (ctx.root / ".asi" / ".gitignore").read_text() == "*\n"


async def test_short_output_leaves_no_log(ctx: ToolContext) -> None:
    await _run(ctx, "echo hi")
    assert list((ctx.root / ".asi" / "outputs").iterdir()) == []


def test_read_capped_small_file_keeps_head_and_tail(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text("".join(f"l{i}\r\n" for i in range(250)) + "\x1b[31mred\x1b[0m 50%\r100%\n")
    text, elided = read_capped(log, shown_as="x.log")
    lines = text.splitlines()
    assert elided == 51
    assert lines[0] == "l0" and lines[99] == "l99" and lines[101] == "l151"
    assert lines[100] == "… 51 lines elided (full output: x.log) …"
    assert lines[-1] == "100%"


async def test_cwd_inside_project_is_used_and_outside_refused(ctx: ToolContext, tmp_path: Path) -> None:
    (ctx.root / "sub").mkdir()
    out = await _run(ctx, "pwd", cwd="sub")
    assert Path(out.splitlines()[0]).resolve() == (ctx.root / "sub").resolve()
    with pytest.raises(PermissionDeniedError, match="outside the project"):
        await _run(ctx, "pwd", cwd=str(tmp_path))
    with pytest.raises(ToolError, match="does not exist"):
        await _run(ctx, "pwd", cwd="nope")


async def test_empty_command_is_a_tool_error(ctx: ToolContext) -> None:
    with pytest.raises(ToolError, match="command is empty"):
        await _run(ctx, "   ")


async def _wait_for_output(ctx: ToolContext, pid_name: str, needle: str) -> str:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        out = await _run(ctx, f"bg:output {pid_name}")
        if needle in out:
            return out
        await asyncio.sleep(0.1)
    raise AssertionError(f"{needle!r} never appeared in the output of {pid_name}")


async def test_background_server_read_and_stopped(ctx: ToolContext) -> None:
    started = await _run(ctx, f"{sys.executable} -m http.server 0 --bind 127.0.0.1", is_background=True)
    head = re.match(r"started bg1 \(pid (\d+)\) in the background", started)
    assert head is not None, started
    assert '"bg:stop bg1"' in started and '"bg:output bg1"' in started
    pid = int(head.group(1))
    out = await _wait_for_output(ctx, "bg1", "port")
    port = int(re.search(r"port (\d+)", out).group(1))  # type: ignore[union-attr]
    reply = await asyncio.to_thread(urllib.request.urlopen, f"http://127.0.0.1:{port}/", timeout=5)
    assert reply.status == 200
    assert "running for" in await _run(ctx, "bg:status bg1")
    stopped = await _run(ctx, "bg:stop bg1")
    assert stopped.startswith("stopped bg1") and "exit code:" in stopped
    assert not _alive(pid)
    assert "bg1 (pid" in await _run(ctx, "bg:list") and "exited with code" in await _run(ctx, "bg:list")


async def test_background_command_failing_at_once_is_reported(ctx: ToolContext) -> None:
    out = await _run(ctx, "echo nope; exit 4", is_background=True)
    lines = out.splitlines()
    assert re.fullmatch(r"bg1 \(pid \d+\) ended at once:", lines[0])
    assert lines[1:] == ["nope", "exit code: 4"]


async def test_session_end_stops_background_processes(ctx: ToolContext) -> None:
    pids = []
    for _ in range(2):
        out = await _run(ctx, "sleep 30 & sleep 30", is_background=True)
        pids.append(int(re.search(r"pid (\d+)", out).group(1)))  # type: ignore[union-attr]
    assert all(_alive(pid) for pid in pids)
    await ctx.aclose()
    assert not any(_alive(pid) for pid in pids)
    assert ctx.cleanups == []


async def test_background_control_errors_tell_the_model_what_to_write(ctx: ToolContext) -> None:
    assert await _run(ctx, "bg:list") == "no background processes"
    with pytest.raises(ToolError, match="no background process 'bg9'"):
        await _run(ctx, "bg:status bg9")
    with pytest.raises(ToolError, match='"bg:stop ID"'):
        await _run(ctx, "bg:kill bg1")
