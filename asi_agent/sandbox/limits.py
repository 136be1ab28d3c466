"""Resource limits of sandboxed processes, set inside the sandbox before the command starts.

Inside the sandbox, util-linux's `prlimit` (or, where a machine lacks it, a few lines of Python: this
interpreter, started isolated and without `site`) sets the limits with `setrlimit` — soft and hard alike, so
the command cannot raise them — and then becomes the command; one way for every process (commands, plugins,
MCP servers started by the MCP library), and no `preexec_fn`, which would make Python fork the whole runtime
instead of using vfork. The limits are
inherited by everything the command starts:

- processes: the machine's running threads when the command starts, plus `processes` (a fork bomb stops
  there; the kernel counts the user's threads against it);
- file size, memory (the data segment: what a process allocates, not the address space it reserves, so
  that Java, Go, Node and sanitizers still start), CPU seconds of each process.

The output cap and the background time limit are kept by the runtime (`asi_agent.tools.exec`).
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Limits"]

_MIB = 1 << 20
_LAUNCH = """import os, resource as r, sys
a = sys.argv
for name, value in zip(("NPROC", "FSIZE", "DATA", "CPU"), a[1:5]):
    kind = getattr(r, "RLIMIT_" + name)
    hard = r.getrlimit(kind)[1]
    value = int(value) if hard == r.RLIM_INFINITY else min(int(value), hard)
    # CPU: a second between soft and hard, so that the command hears SIGXCPU before SIGKILL
    top = value + 1 if name == "CPU" and (hard == r.RLIM_INFINITY or value < hard) else value
    r.setrlimit(kind, (value, top))
try:
    os.execvp(a[5], a[5:])
except OSError as e:
    sys.stderr.write(a[5] + ": " + (e.strerror or str(e)) + "\\n")
    sys.exit(127)
"""


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits of one run's sandboxed processes (`[sandbox.limits]`)."""

    processes: int = 4096
    file_size_mb: int = 8192
    memory_mb: int | None = None
    cpu_seconds: int = 3600
    output_mb: int = 64
    background_seconds: float = 14400.0

    @property
    def output_bytes(self) -> int:
        """The cap of one command's output log, in bytes."""
        return self.output_mb * _MIB

    def values(self) -> tuple[int, int, int, int]:
        """The limits of a command starting now: processes, file size, memory (bytes) and CPU seconds."""
        memory = self.memory_mb * _MIB if self.memory_mb else _physical_memory()
        return _running_threads() + self.processes, self.file_size_mb * _MIB, memory, self.cpu_seconds

    def launcher(self) -> list[str]:
        """The command line prefix that sets the limits, then runs the rest of the line: util-linux's
        `prlimit` where the machine has it (a C program: ~1 ms), else a few lines of this Python (~10 ms)."""
        values = self.values()
        found = _prlimit()
        if found is None:
            return [sys.executable, "-I", "-S", "-c", _LAUNCH, *map(str, values)]
        options = []
        for (option, kind), value in zip(_PRLIMIT, values, strict=True):
            soft, hard = _within(kind, value)
            options.append(f"--{option}={soft}:{hard}")
        return [found, *options, "--"]


_PRLIMIT = (("nproc", "NPROC"), ("fsize", "FSIZE"), ("data", "DATA"), ("cpu", "CPU"))
_FOUND: list[str | None] = []


def _prlimit() -> str | None:
    """util-linux's `prlimit`, looked for once in the system's own folders (never on a PATH the project
    could put first)."""
    if not _FOUND:
        _FOUND.append(shutil.which("prlimit", path="/usr/bin:/bin:/usr/sbin:/sbin"))
    return _FOUND[0]


def _within(kind: str, value: int) -> tuple[int, int]:
    """Soft and hard limit of one resource: `value`, never above the hard limit this process has (which
    the command inherits and could not raise); CPU gets a second between the two, so that the command
    hears SIGXCPU before SIGKILL — as the Python launcher does."""
    import resource  # noqa: PLC0415 - only where limits are set

    hard = resource.getrlimit(getattr(resource, f"RLIMIT_{kind}"))[1]
    value = value if hard == resource.RLIM_INFINITY else min(value, hard)
    top = value + 1 if kind == "CPU" and (hard == resource.RLIM_INFINITY or value < hard) else value
    return value, top


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 16 << 30


def _running_threads() -> int:
    """Threads running on the machine now (the kernel counts a user's threads against the process limit)."""
    try:
        return int(Path("/proc/loadavg").read_text().split()[3].split("/")[1])
    except (OSError, IndexError, ValueError):
        return 32768
