"""run_terminal_cmd: shell commands in the project, in the foreground or as background processes.

Every command runs in its own process group with stdin from /dev/null, so an interactive program gets
EOF instead of waiting forever, and a timeout or a stop ends the command together with its children.
Output goes to a log file (stdout and stderr interleaved, as a terminal shows them); the model sees the
first and last lines, and the path of the full log under `.asi/outputs/` when lines were elided.

Background processes live in the session's `ProcessTable` (`processes`), are controlled through the
same tool with `bg:list`, `bg:status ID`, `bg:output ID` and `bg:stop ID`, and are stopped when the
session ends or when they pass the time limit. A command that writes more than the output cap is stopped.
"""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.sandbox.hints import sandbox_hints
from asi_agent.tools.args import RunTerminalCmdArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.exec.processes import (
    BackgroundProcess,
    CommandResult,
    ProcessTable,
    command_env,
    limits_of,
    new_log_path,
    process_table,
    run_command,
    shell_argv,
    work_folder,
)
from asi_agent.tools.exec.summary import summarised
from asi_agent.tools.paths import display_path

__all__ = [
    "BackgroundProcess",
    "CommandResult",
    "ProcessTable",
    "command_env",
    "new_log_path",
    "process_table",
    "read_capped",
    "run_command",
    "run_terminal_cmd",
    "shell_argv",
    "work_folder",
]

HEAD_LINES = 100
TAIL_LINES = 100
MAX_BYTES = 40_000
"""At most this many bytes of output reach the model (split between the head and the tail)."""
_SETTLE = 0.5
"""Seconds a new background process is watched, so that a command failing at once is reported."""
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_BG_USAGE = (
    'background processes are controlled with command "bg:list", "bg:status ID", "bg:output ID" '
    'or "bg:stop ID" (ID like bg1)'
)


def read_capped(
    log: Path, *, shown_as: str, head: int = HEAD_LINES, tail: int = TAIL_LINES
) -> tuple[str, int]:
    """The log as the model sees it, and how many lines were elided (the gap names the log as `shown_as`)."""
    size = log.stat().st_size
    half = MAX_BYTES // 2
    with log.open("rb") as f:
        if size <= MAX_BYTES:
            lines = _clean(f.read()).splitlines()
            if len(lines) <= head + tail:
                return "\n".join(lines), 0
            first, last, elided = lines[:head], lines[-tail:], len(lines) - head - tail
        else:
            start = f.read(half) if head else b""
            f.seek(size - half)
            parts = _clean(f.read()).split("\n")
            first = _clean(start).split("\n")[:head] if head else []
            if len(parts) > 1 and not parts[-1]:
                parts.pop()
            # The first piece is the cut end of a longer line; keep it only when it is all there is.
            last = parts[1:][-tail:] if len(parts) > 1 else [f"…{parts[0]}"]
            elided = max(_count_lines(log) - len(first) - len(last), 1)
    mark = f"… {elided:,} lines elided (full output: {shown_as}) …"
    return "\n".join([*first, mark, *last]), elided


def _clean(data: bytes) -> str:
    """Decode, drop colour codes and keep what a terminal shows after carriage-return overwrites."""
    text = _ANSI.sub("", data.decode("utf-8", errors="replace"))
    if "\r" in text:
        text = "\n".join(line.rstrip("\r").rsplit("\r", 1)[-1] for line in text.split("\n"))
    return text


def _count_lines(log: Path) -> int:
    """Lines in a large file, counted in chunks so that memory stays flat."""
    count = 0
    last = b"\n"
    with log.open("rb") as f:
        while chunk := f.read(1 << 20):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")


async def run_terminal_cmd(args: RunTerminalCmdArgs, ctx: ToolContext) -> str:
    """Run a shell command (or control a background one with `bg:...`); the text ends with the exit code."""
    command = args.command.strip()
    if not command:
        raise ToolError("command is empty; give the shell command to run, e.g. `ls -la`")
    if command.startswith("bg:"):
        return await _control(command, process_table(ctx), ctx)
    cwd = _working_dir(ctx, args.cwd)
    if args.is_background:
        return await _start_background(command, cwd, ctx)
    log = new_log_path(ctx, uuid.uuid4().hex[:8])
    result = await run_command(
        shell_argv(command),
        cwd=cwd,
        timeout=ctx.command_timeout,
        log=log,
        sandbox=ctx.sandbox,
        network=_network(ctx, command),
    )
    shown = display_path(ctx.root, log)
    text, elided = read_capped(log, shown_as=shown)
    text = await summarised(ctx, command, text, log=shown, elided=elided, exit_code=result.exit_code)
    lines = [text or "(no output)"]
    if result.exit_code != 0 and ctx.sandbox is not None:
        lines += sandbox_hints(text, ctx.sandbox)
    if not elided:
        log.unlink(missing_ok=True)
    if result.timed_out:
        lines.append(
            f"timed out after {ctx.command_timeout:g} s: the command and its child processes were stopped "
            "(run long-lived programs with is_background=true)"
        )
    elif result.output_capped:
        lines.append(
            f"the output passed {limits_of(ctx.sandbox).output_mb} MiB: the command was stopped there (if it "
            "still ran) and its log keeps only its start; write less, or redirect it to a file in the project"
        )
    elif result.leftovers_stopped:
        lines.append(
            "note: processes the command left running were stopped; start servers and watchers with "
            "is_background=true"
        )
    lines.append(f"exit code: {result.exit_code}")
    return "\n".join(lines)


def _network(ctx: ToolContext, command: str) -> bool | None:
    """The network for this command: open when the person let it use it, else the sandbox's default."""
    return True if command in ctx.network_for else None


def _working_dir(ctx: ToolContext, raw: str | None) -> Path:
    """The project root, or `cwd` resolved inside the project (an outside path is refused)."""
    if raw is None or not raw.strip():
        return ctx.root
    path = ctx.resolve(raw, write=False)
    if not path.is_dir():
        what = "is not a folder" if path.exists() else "does not exist"
        raise ToolError(f"cwd {raw!r} {what}; give a folder inside the project, relative to its root")
    return path


async def _start_background(command: str, cwd: Path, ctx: ToolContext) -> str:
    """Start a background process and report its id, or its output if it ended at once."""
    proc = process_table(ctx).start(command, cwd, ctx, network=_network(ctx, command))
    deadline = time.monotonic() + _SETTLE
    while proc.exit_code() is None and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    log = display_path(ctx.root, proc.log)
    code = proc.exit_code()
    if code is not None:
        text, _ = read_capped(proc.log, shown_as=log, head=0, tail=TAIL_LINES)
        return f"{proc.id} (pid {proc.pid}) ended at once:\n{text or '(no output)'}\nexit code: {code}"
    return (
        f"started {proc.id} (pid {proc.pid}) in the background: {command}\n"
        f"output is written to {log}.\n"
        f'Use run_terminal_cmd with command "bg:status {proc.id}" to check it, "bg:output {proc.id}" to '
        f'read its output so far, "bg:stop {proc.id}" to stop it, "bg:list" to list all. '
        f"It is stopped when the session ends, or after {limits_of(ctx.sandbox).background_seconds:g} s."
    )


async def _control(command: str, table: ProcessTable, ctx: ToolContext) -> str:
    """`bg:list`, `bg:status ID`, `bg:output ID`, `bg:stop ID`."""
    verb, _, rest = command[3:].strip().partition(" ")
    target = rest.strip()
    if verb == "list" and not target:
        procs = table.all()
        return "\n".join(_status_line(p, ctx) for p in procs) if procs else "no background processes"
    if verb not in ("status", "output", "stop") or not target:
        raise ToolError(f"cannot understand {command!r}: {_BG_USAGE}")
    proc = table.get(target)
    if verb == "status":
        return _status_line(proc, ctx)
    if verb == "stop":
        code = await proc.stop()
        return f"stopped {proc.id} (pid {proc.pid}): {proc.command}\nexit code: {code}"
    shown_as = display_path(ctx.root, proc.log)
    text, _ = read_capped(proc.log, shown_as=shown_as, head=0, tail=HEAD_LINES + TAIL_LINES)
    return f"{_status_line(proc, ctx)}\n{text or '(no output yet)'}"


def _status_line(proc: BackgroundProcess, ctx: ToolContext) -> str:
    """One line: id, pid, state, age, command and log."""
    age = time.monotonic() - proc.started
    code = proc.exit_code()
    state = f"running for {age:.0f} s" if code is None else f"exited with code {code}"
    if proc.stopped_by is not None:
        state += f", stopped at its {proc.stopped_by}"
    return f"{proc.id} (pid {proc.pid}) {state}: {proc.command}  [log: {display_path(ctx.root, proc.log)}]"
