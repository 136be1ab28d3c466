"""Starting and stopping the processes of commands: foreground runs and the session's background ones.

Every command runs in its own process group with stdin from /dev/null, so an interactive program gets
EOF instead of waiting forever, and a timeout or a stop ends the command together with its children.
Output goes to a log file (stdout and stderr interleaved, as a terminal shows them), which may not grow
past the sandbox's output cap (`[sandbox.limits] output_mb`): a command that writes more is stopped.
Background processes live in the session's `ProcessTable` and end with the session, or when they pass
the time limit (`[sandbox.limits] background_seconds`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from asi_agent.events import ToolProgressSink, call_progress
from asi_agent.exceptions import ToolError
from asi_agent.sandbox import Limits, Sandbox
from asi_agent.state import ensure_state_dir
from asi_agent.tools.base import ToolContext

__all__ = [
    "BackgroundProcess", "CommandResult", "ProcessTable", "command_env", "new_log_path", "process_table",
    "run_command", "shell_argv", "work_folder",
]  # fmt: skip

STOP_GRACE = 2.0
"""Seconds a process group gets between SIGTERM and SIGKILL."""
_POLL = 0.25
"""Seconds between two looks at a running command's log size."""
_WATCH = 1.0
"""Seconds between two looks at a background process (its age and its log)."""
_REPORT = 1.0
"""Seconds between two progress reports of a running command (when its call has a progress sink)."""


def command_env() -> dict[str, str]:
    """The inherited environment, made non-interactive: no pager, no colour, no prompts (the sandbox
    keeps only its allowed part)."""
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


def limits_of(sandbox: Sandbox | None) -> Limits:
    """The limits in force: the sandbox's, else the defaults (the output cap and background time limit
    hold without a sandbox too)."""
    return sandbox.limits if sandbox is not None else Limits()


def work_folder(sandbox: Sandbox | None) -> str | None:
    """Where to make a temporary folder a command writes into (a report): the sandbox's shared one, or
    the system's (None)."""
    return None if sandbox is None else str(sandbox.shared_temp())


@dataclass(frozen=True, slots=True)
class CommandResult:
    """How a foreground command ended. `exit_code` follows the shell: 128+N when killed by signal N."""

    exit_code: int
    timed_out: bool
    duration: float
    log: Path
    leftovers_stopped: bool
    """The command exited but left processes of its group running; they were stopped."""
    output_capped: bool = False
    """The command wrote more than the output cap; it was stopped and its log cut there."""


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
    default), output to `log`; on timeout, or past the output cap, stop the whole group."""
    start = time.monotonic()
    env = command_env() if env is None else env
    with contextlib.ExitStack() as stack:
        if sandbox is not None:
            argv = stack.enter_context(sandbox.wrapped(argv, cwd=cwd, network=network, env=env))
        with log.open("wb") as out:
            try:
                proc = await asyncio.create_subprocess_exec(
                    *argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    start_new_session=True,
                )  # fmt: skip
            except OSError as exc:
                raise ToolError(f"cannot start {argv[0]}: {exc.strerror or exc}") from exc
            try:
                reporter = _Reporter.of_call(log, start)
                ended = await _wait(proc, log, start + timeout, limits_of(sandbox).output_bytes, reporter)
            except asyncio.CancelledError:
                # Interrupted by the person: nothing of the command may outlive the call.
                _signal_group(proc.pid, signal.SIGKILL)
                raise
    # In the sandbox nothing outlives the command: its pid namespace goes with it (the kernel ends the
    # rest as bubblewrap exits), so there is nothing to look for, and looking would find them dying.
    leftovers = sandbox is None and ended is None and _group_alive(proc.pid)
    if leftovers:
        await _stop_group(proc.pid, lambda: True)
    code = proc.returncode if proc.returncode is not None else -signal.SIGKILL
    duration = time.monotonic() - start
    return CommandResult(_shell_code(code), ended == "timeout", duration, log, leftovers, ended == "output")


async def _wait(
    proc: asyncio.subprocess.Process, log: Path, deadline: float, cap: int, reporter: _Reporter | None = None
) -> str | None:
    """Wait for the command; stop it at the deadline ("timeout") or past the output cap ("output")."""
    while True:
        try:
            await asyncio.wait_for(proc.wait(), max(min(_POLL, deadline - time.monotonic()), 0.001))
            return "output" if _cut_log(log, cap) else None  # ended before the cap was seen: cut all the same
        except TimeoutError:
            pass
        over = _cut_log(log, cap)
        if reporter is not None:
            reporter.tick()
        if over or time.monotonic() >= deadline:
            await _stop_group(proc.pid, lambda: proc.returncode is not None)
            await proc.wait()
            _cut_log(log, cap)
            return "output" if over else "timeout"


class _Reporter:
    """A running command's progress for its call's sink: seconds elapsed and lines of output so far, at
    most once per `_REPORT` seconds; the log is read on from where the last count stopped."""

    def __init__(self, sink: ToolProgressSink, log: Path, start: float) -> None:
        self.sink, self.log, self.start = sink, log, start
        self.next = start + _REPORT
        self.offset = self.lines = 0

    @classmethod
    def of_call(cls, log: Path, start: float) -> _Reporter | None:
        """A reporter when the running call listens for progress; None (nothing reported) otherwise."""
        sink = call_progress()
        return None if sink is None else cls(sink, log, start)

    def tick(self) -> None:
        """Report if a report is due."""
        now = time.monotonic()
        if now < self.next:
            return
        self.next = now + _REPORT
        with contextlib.suppress(OSError), self.log.open("rb") as f:
            f.seek(self.offset)
            while chunk := f.read(1 << 20):
                self.lines += chunk.count(b"\n")
                self.offset += len(chunk)
        elapsed = now - self.start
        lines = f"{self.lines} line{'' if self.lines == 1 else 's'} of output"
        self.sink(round(elapsed, 1), None, f"running for {elapsed:.0f} s, {lines}")


def _cut_log(log: Path, cap: int) -> bool:
    """Whether the log passed the cap; if so it is cut there."""
    with contextlib.suppress(OSError):
        if log.stat().st_size > cap:
            os.truncate(log, cap)
            return True
    return False


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
    release: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)
    """What the process holds while it runs (the sandbox's placeholders), let go when it ends."""
    stopped_by: str | None = None
    """Why the runtime stopped it on its own: "time limit" or "output cap"."""
    watcher: asyncio.Task[None] | None = None

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
        self.release.close()
        return code

    async def watch(self, limits: Limits) -> None:
        """Stop the process when it passes the time limit or the output cap; let go of what it held
        when it ends."""
        try:
            while self.exit_code() is None:
                await asyncio.sleep(_WATCH)
                if time.monotonic() - self.started > limits.background_seconds:
                    self.stopped_by = f"time limit ({limits.background_seconds:g} s)"
                elif _cut_log(self.log, limits.output_bytes):
                    self.stopped_by = f"output cap ({limits.output_mb} MiB)"
                else:
                    continue
                await self.stop()
                _cut_log(self.log, limits.output_bytes)
        finally:
            self.release.close()


class ProcessTable:
    """The background processes of one session, by id (`bg1`, `bg2`…)."""

    def __init__(self) -> None:
        self._procs: dict[str, BackgroundProcess] = {}
        self._counter = 0

    def start(
        self, command: str, cwd: Path, ctx: ToolContext, *, network: bool | None = None
    ) -> BackgroundProcess:
        """Start `command` detached, its output going to a log under `.asi/outputs/`; watched for the
        time limit and the output cap while an event loop runs."""
        self._counter += 1
        pid_name = f"bg{self._counter}"
        log = new_log_path(ctx, f"{pid_name}-{os.urandom(3).hex()}")  # sessions may share a second
        held = contextlib.ExitStack()
        argv, env = shell_argv(command), command_env()
        if ctx.sandbox is not None:
            argv = held.enter_context(ctx.sandbox.wrapped(argv, cwd=cwd, network=network, env=env))
        with held, log.open("wb") as out:
            try:
                popen = subprocess.Popen(
                    argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    start_new_session=True,
                )  # fmt: skip
            except OSError as exc:
                raise ToolError(f"cannot start the command: {exc.strerror or exc}") from exc
            proc = BackgroundProcess(pid_name, command, log, popen, time.monotonic(), held.pop_all())
        with contextlib.suppress(RuntimeError):  # no running loop: nobody to watch it
            proc.watcher = asyncio.get_running_loop().create_task(proc.watch(limits_of(ctx.sandbox)))
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
        for proc in self._procs.values():
            if proc.watcher is not None:
                proc.watcher.cancel()


def process_table(ctx: ToolContext) -> ProcessTable:
    """The session's process table, created (with its cleanup registered) on first use."""
    table = ctx.state.get(__name__)
    if not isinstance(table, ProcessTable):
        table = ProcessTable()
        ctx.state[__name__] = table
        ctx.cleanups.append(table.stop_all)
    return table
