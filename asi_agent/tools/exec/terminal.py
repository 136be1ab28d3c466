"""run_terminal_cmd: shell commands in the project, in the foreground or as background processes.

Every command runs in its own process group with stdin from /dev/null, so an interactive program gets
EOF instead of waiting forever, and a timeout or a stop ends the command together with its children.
Output goes to a log file (stdout and stderr interleaved, as a terminal shows them); the model sees the
first and last lines, and the path of the full log under `.asi/outputs/` when lines were elided.

Background processes live in the session's `ProcessTable` (`ctx.state[__name__]`), are controlled
through the same tool with `bg:list`, `bg:status ID`, `bg:output ID` and `bg:stop ID`, and are stopped
when the session ends.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.sandbox import Sandbox
from asi_agent.sandbox.hints import sandbox_hints
from asi_agent.state import ensure_state_dir
from asi_agent.tools.args import RunTerminalCmdArgs
from asi_agent.tools.base import ToolContext
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
]

HEAD_LINES = 100
TAIL_LINES = 100
MAX_BYTES = 40_000
"""At most this many bytes of output reach the model (split between the head and the tail)."""
STOP_GRACE = 2.0
"""Seconds a process group gets between SIGTERM and SIGKILL."""
_SETTLE = 0.5
"""Seconds a new background process is watched, so that a command failing at once is reported."""
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_BG_USAGE = (
    'background processes are controlled with command "bg:list", "bg:status ID", "bg:output ID" '
    'or "bg:stop ID" (ID like bg1)'
)


def command_env() -> dict[str, str]:
    """The inherited environment, made non-interactive: no pager, no colour, no prompts."""
    env = dict(os.environ)
    for forcing in ("FORCE_COLOR", "CLICOLOR_FORCE"):
        env.pop(forcing, None)
    # CI=1 switches test runners and package managers (jest --watch, npm) to their non-interactive mode.
    env.update(
        PAGER="cat",
        GIT_PAGER="cat",
        TERM="dumb",
        NO_COLOR="1",
        CI="1",
        GIT_TERMINAL_PROMPT="0",
        PYTHONUNBUFFERED="1",
    )
    return env


def shell_argv(command: str) -> list[str]:
    """`bash -c command`, or `/bin/sh -c command` where bash is missing."""
    shell = shutil.which("bash") or ("/bin/sh" if Path("/bin/sh").exists() else None)
    if shell is None:
        raise ToolError("no shell found on this machine (neither bash nor /bin/sh); commands cannot run")
    return [shell, "-c", command]


def new_log_path(ctx: ToolContext, name: str) -> Path:
    """A fresh `.asi/outputs/<timestamp>-<name>.log` path; creates the folder, ignored by git."""
    return ensure_state_dir(ctx.state_dir, "outputs") / f"{time.strftime('%Y%m%d-%H%M%S')}-{name}.log"


@dataclass(frozen=True, slots=True)
class CommandResult:
    """How a foreground command ended. `exit_code` follows the shell: 128+N when killed by signal N."""

    exit_code: int
    timed_out: bool
    duration: float
    log: Path
    leftovers_stopped: bool
    """The command exited but left processes of its group running; they were stopped."""


async def run_command(
    argv: Sequence[str],
    *,
    cwd: Path,
    timeout: float,
    log: Path,
    env: dict[str, str] | None = None,
    sandbox: Sandbox | None = None,
    network: bool | None = None,
) -> CommandResult:
    """Run `argv` in its own process group (inside `sandbox` when there is one, `network` overriding its
    default), output to `log`; on timeout stop the whole group."""
    start = time.monotonic()
    if sandbox is not None:
        argv = sandbox.wrap(argv, cwd=cwd, network=network)
    with log.open("wb") as out:
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv,
                cwd=cwd,
                env=command_env() if env is None else env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except OSError as exc:
            raise ToolError(f"cannot start {argv[0]}: {exc.strerror or exc}") from exc
        timed_out = False
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            timed_out = True
            await _stop_group(proc.pid, lambda: proc.returncode is not None)
            await proc.wait()
        except asyncio.CancelledError:
            # Interrupted by the person: nothing of the command may outlive the call.
            _signal_group(proc.pid, signal.SIGKILL)
            raise
    # In the sandbox nothing outlives the command: its pid namespace goes with it (the kernel ends the
    # rest as bubblewrap exits), so there is nothing to look for, and looking would find them dying.
    leftovers = sandbox is None and not timed_out and _group_alive(proc.pid)
    if leftovers:
        await _stop_group(proc.pid, lambda: True)
    code = proc.returncode if proc.returncode is not None else -signal.SIGKILL
    return CommandResult(_shell_code(code), timed_out, time.monotonic() - start, log, leftovers)


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


def _shell_code(returncode: int) -> int:
    """Exit status as a shell reports it: a death by signal N becomes 128+N."""
    return 128 - returncode if returncode < 0 else returncode


def _signal_group(pgid: int, sig: int) -> bool:
    """Send `sig` to a process group; False when the group no longer exists."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _group_alive(pgid: int) -> bool:
    """Whether a process of the group still runs (zombies waiting for their reaper do not count)."""
    if not _signal_group(pgid, 0):
        return False
    # Orphans are reaped by the init process on its own schedule (seconds in some containers);
    # /proc tells a dead zombie from a live process where it exists.
    if not Path("/proc/self/stat").exists():
        return True
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, _ppid, pgrp = stat.read_text().rsplit(")", 1)[1].split()[:3]
        except (OSError, IndexError, ValueError):
            continue
        if pgrp == str(pgid) and state != "Z":
            return True
    return False


async def _stop_group(pgid: int, reaped: Callable[[], bool]) -> None:
    """SIGTERM the group; SIGKILL whatever is left after the grace period."""
    _signal_group(pgid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE
    while time.monotonic() < deadline:
        if reaped() and not _group_alive(pgid):
            return
        await asyncio.sleep(0.05)
    _signal_group(pgid, signal.SIGKILL)


@dataclass(slots=True)
class BackgroundProcess:
    """One detached command of the session, writing to its own log."""

    id: str
    command: str
    log: Path
    popen: subprocess.Popen[bytes]
    started: float

    @property
    def pid(self) -> int:
        """The process id of the shell, which is also the process group id."""
        return self.popen.pid

    def exit_code(self) -> int | None:
        """The shell-style exit code, or None while it runs."""
        code = self.popen.poll()
        return None if code is None else _shell_code(code)

    async def stop(self) -> int:
        """Stop the process and its children; returns the exit code."""
        if self.exit_code() is None or _group_alive(self.pid):
            await _stop_group(self.pid, lambda: self.popen.poll() is not None)
        while (code := self.exit_code()) is None:
            await asyncio.sleep(0.02)
        return code


class ProcessTable:
    """The background processes of one session, by id (`bg1`, `bg2`…)."""

    def __init__(self) -> None:
        self._procs: dict[str, BackgroundProcess] = {}
        self._counter = 0

    def start(self, command: str, cwd: Path, ctx: ToolContext) -> BackgroundProcess:
        """Start `command` detached, its output going to a log under `.asi/outputs/`."""
        self._counter += 1
        pid_name = f"bg{self._counter}"
        log = new_log_path(ctx, f"{pid_name}-{uuid.uuid4().hex[:6]}")  # sessions may share a second
        with log.open("wb") as out:
            argv = shell_argv(command)
            if ctx.sandbox is not None:
                argv = ctx.sandbox.wrap(argv, cwd=cwd, network=_network(ctx, command))
            try:
                popen = subprocess.Popen(
                    argv,
                    cwd=cwd,
                    env=command_env(),
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            except OSError as exc:
                raise ToolError(f"cannot start the command: {exc.strerror or exc}") from exc
        proc = BackgroundProcess(pid_name, command, log, popen, time.monotonic())
        self._procs[pid_name] = proc
        return proc

    def get(self, pid_name: str) -> BackgroundProcess:
        """The process with this id, or a ToolError listing the known ids."""
        try:
            return self._procs[pid_name]
        except KeyError:
            known = ", ".join(self._procs) or "none were started"
            raise ToolError(f"no background process {pid_name!r}; known ids: {known}") from None

    def all(self) -> list[BackgroundProcess]:
        """Every background process of the session, oldest first."""
        return list(self._procs.values())

    async def stop_all(self) -> None:
        """Stop every process still running (the session's cleanup)."""
        await asyncio.gather(*(proc.stop() for proc in self._procs.values()))


def process_table(ctx: ToolContext) -> ProcessTable:
    """The session's process table, created (with its cleanup registered) on first use."""
    table = ctx.state.get(__name__)
    if not isinstance(table, ProcessTable):
        table = ProcessTable()
        ctx.state[__name__] = table
        ctx.cleanups.append(table.stop_all)
    return table


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
    proc = process_table(ctx).start(command, cwd, ctx)
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
        "It is stopped when the session ends."
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
    return f"{proc.id} (pid {proc.pid}) {state}: {proc.command}  [log: {display_path(ctx.root, proc.log)}]"
